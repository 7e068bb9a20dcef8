import type { Executor } from '../../base/db/client.js';
import { districtKey, readRiskFacts } from '../../shipment-records/rto-history.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { type AddressCheck, checkAddress } from '../../domain/rto/address-check.js';
import { DEFAULT_THRESHOLDS, type RiskResult, scoreRisk } from '../../domain/rto/risk.js';
import type { EventType } from '../../domain/shipment/event-types.js';
import type { OrderInput } from './order-input.js';

/** What a booking learns of its order before writing it: the address checks and the RTO risk. */
export interface Assessment {
  address: AddressCheck;
  risk: RiskResult;
}

/**
 * The address checks (pure) and the risk score, whose history is one read of three primary-key
 * rows and the account's thresholds (shipment-records/rto-history.ts): the booking's only extra round trip.
 */
export async function assessOrder(
  ex: Executor,
  accountId: string,
  input: OrderInput,
  directory: PincodeDirectory,
): Promise<Assessment> {
  const s = input.shipping;
  const address = checkAddress(
    { address: s.address, address2: s.address2, city: s.city, state: s.state, pincode: s.pincode, phone: s.phone },
    directory,
  );
  const entry = directory.lookup(s.pincode)!;
  const facts = await readRiskFacts(ex, accountId, {
    phone: s.phone,
    pincode: s.pincode,
    district: districtKey(entry),
  });
  const thresholds = facts.thresholds
    ? {
        medium: facts.thresholds.medium,
        high: facts.thresholds.high,
        highValuePaise: facts.thresholds.high_value_paise,
      }
    : DEFAULT_THRESHOLDS;
  const risk = scoreRisk(
    {
      cod: input.paymentMethod === 'cod',
      codPaise: input.codPaise,
      addressValidity: address.validity,
      buyer: facts.phone,
      pincode: facts.pincode,
      district: facts.district,
    },
    thresholds,
  );
  return { address, risk };
}

/** The shipment's columns of an assessment; all null when the checks are off. */
export function assessmentColumns(a: Assessment | null) {
  return {
    addressValidity: a?.address.validity ?? null,
    addressReasons: a?.address.reasons ?? null,
    rtoRisk: a?.risk.risk ?? null,
    rtoRiskScore: a?.risk.score ?? null,
    rtoRiskReasons: a?.risk.reasons ?? null,
  };
}

/** shipment.address_flagged, for an address that is not valid. */
export function assessmentEvents(a: Assessment | null): { type: EventType; change: Record<string, unknown> }[] {
  if (!a || a.address.validity === 'valid') return [];
  return [
    {
      type: 'shipment.address_flagged',
      change: { address_validity: a.address.validity, address_reasons: a.address.reasons },
    },
  ];
}
