import { velocityDateObject } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import { type Zone, zoneLabel } from '../../domain/geo/zones.js';
import { paiseToRupees, rupeesText } from '../../domain/money.js';
import { isTestService } from '../../domain/rates/catalogue.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { deadWeightBilled } from '../../domain/rates/engine.js';
import * as repo from './returns.repository.js';
import type { ReturnPayloadView } from './returns.schemas.js';

// The answer of every return write (reverse-order, its orchestration and shipment): Velocity's
// fields for the return, plus ours.

export interface ReturnLinks {
  /** The customer's tracking page of a return. */
  track: (returnId: string) => string;
  /** A signed label link for a return's shipment id. */
  label: (shipmentId: string) => string;
}

export type ReturnPayload = ReturnType<typeof createReturnPayload>;

export function createReturnPayload({ rates, links }: { rates: RatesContext; links: ReturnLinks }) {
  return async function payload(ex: Executor, accountId: string, row: repo.ReturnRow): Promise<ReturnPayloadView> {
    const service = row.carrierId ? rates.catalogue.byId.get(row.carrierId) : undefined;
    const booked = row.awb !== null;
    const forward = row.forwardShipmentId
      ? await repo.findForwardById(ex, accountId, row.forwardShipmentId)
      : undefined;
    return {
      order_created: 1,
      awb_generated: booked ? 1 : 0,
      pickup_generated: booked ? 1 : 0,
      pickup_scheduled_date: row.expectedPickupDate,
      order_id: row.merchantOrderId,
      return_id: row.id,
      shipment_id: row.shipmentId,
      status: row.status,
      zone: zoneLabel(row.zone as Zone),
      awb_code: row.awb,
      courier_company_id: row.carrierId,
      courier_name: service?.name ?? null,
      assigned_date_time: velocityDateObject(row.assignedAt ?? row.createdAt),
      applied_weight: Math.round(row.appliedWeightGrams) / 1000,
      cod: 0,
      is_return: 1,
      routing_code: null,
      rto_routing_code: null,
      pickup_token_number: null,
      expected_delivery_date: row.expectedDeliveryDate,
      charges: booked
        ? {
            reverse_charges: rupeesText(row.freightPaise!),
            qc: rupeesText(row.qcPaise!),
            qc_leeway: '0.00',
            dead_weight_billing: deadWeightBilled(row),
            platform_fee: paiseToRupees(row.platformFeePaise!),
            total_return_charges: paiseToRupees(row.freightPaise! + row.qcPaise!),
          }
        : null,
      qc_enabled: row.qcApplied ? 1 : 0,
      qc_message: row.qcNote,
      forward_shipment: forward
        ? { shipment_id: forward.shipmentId, order_id: forward.merchantOrderId, awb_code: forward.awb }
        : null,
      // As for a forward shipment: a label once a courier gave an AWB, void once cancelled.
      label_url: booked && row.status !== 'return_cancelled' ? links.label(row.shipmentId) : null,
      track_url: booked ? links.track(row.id) : null,
      test_mode: booked && isTestService(rates.catalogue, row.carrierId!),
    };
  };
}
