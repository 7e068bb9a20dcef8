import type { Executor } from '../../base/db/client.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { OrderInput } from './order-input.js';
import type * as repo from './orders.repository.js';
import { assessmentColumns, assessOrder } from './rto-assessment.js';

/** What a re-check looks at: a change elsewhere (items, dimensions) leaves the verdict as it was. */
const WATCHED = [
  ['address', (i: OrderInput) => i.shipping.address],
  ['address_2', (i: OrderInput) => i.shipping.address2],
  ['city', (i: OrderInput) => i.shipping.city],
  ['state', (i: OrderInput) => i.shipping.state],
  ['pincode', (i: OrderInput) => i.shipping.pincode],
  ['phone', (i: OrderInput) => i.shipping.phone],
  ['payment_method', (i: OrderInput) => i.paymentMethod],
  ['cod_collectible', (i: OrderInput) => i.codPaise],
] as const;

/** The watched fields that differ between two readings of an order (names without billing_/shipping_). */
export function watchedChanges(before: OrderInput, after: OrderInput): string[] {
  return WATCHED.filter(([, read]) => read(before) !== read(after)).map(([name]) => name);
}

/**
 * The address checks and RTO risk again, for an order whose address, phone or payment changed
 * before pickup: the shipment's new columns and the event's `change`, which says what the verdict
 * was (`previous`) and is now. The history read is the booking's (one statement).
 */
export async function reassess(
  ex: Executor,
  accountId: string,
  shipment: repo.ShipmentRow,
  input: OrderInput,
  directory: PincodeDirectory,
) {
  const assessment = await assessOrder(ex, accountId, input, directory);
  const columns = assessmentColumns(assessment);
  const change = {
    previous: {
      address_validity: shipment.addressValidity,
      address_reasons: shipment.addressReasons,
      rto_risk: shipment.rtoRisk,
      rto_risk_score: shipment.rtoRiskScore,
    },
    address_validity: columns.addressValidity,
    address_reasons: columns.addressReasons,
    rto_risk: columns.rtoRisk,
    rto_risk_score: columns.rtoRiskScore,
    rto_risk_reasons: columns.rtoRiskReasons,
  };
  return { columns, change };
}
