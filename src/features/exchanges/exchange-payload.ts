import { velocityDateTime } from '../../base/clock.js';
import { exchangeCharges, exchangeQcPaise } from '../../domain/exchange-charges.js';
import { exchangeStatus } from '../../domain/shipment/exchange-status.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import type { ExchangeLegView, ForwardLeg, ReturnLeg } from '../contracts.js';
import type { ExchangeRow } from './exchanges.repository.js';
import type { ExchangePayloadView, ReleaseTerm } from './exchanges.schemas.js';

// The answer of exchange-order-orchestration, made or repeated: Velocity's fields, every one it
// lists, from the exchange and its two legs as they are now; plus ours.

const legDetails = (leg: ExchangeLegView) => ({
  shipment_id: leg.shipmentId,
  awb: leg.awb,
  label_url: leg.labelUrl,
  courier_name: leg.courierName,
  courier_company_id: leg.carrierId,
  applied_weight: leg.appliedWeightKg,
  status: leg.status,
  track_url: leg.trackUrl,
});

export function exchangePayload(
  exchange: ExchangeRow,
  forward: ForwardLeg,
  pickup: ReturnLeg & { qcStatus: string | null },
  warnings: { field: string; message: string }[],
): ExchangePayloadView {
  const status = exchangeStatus({
    forward: forward.status as ShipmentStatus,
    return: pickup.status as ReturnStatus,
    qcStatus: pickup.qcStatus,
    replacementHeld: exchange.replacementHeld,
  });
  return {
    pickup_location_added: 1,
    order_created: 1,
    return_created: 1,
    awb_generated: 2,
    label_generated: 2,
    pickup_generated: 2,
    manifest_generated: 0,
    order_id: forward.orderId,
    return_id: pickup.returnId,
    exchange_order_id: exchange.id,
    shipment_id: forward.shipmentId,
    forward_shipment_id: forward.shipmentId,
    return_shipment_id: pickup.shipmentId,
    forward_awb: forward.awb!,
    forward_awb_code: forward.awb!,
    reverse_awb: pickup.awb!,
    // Velocity's plain awb_code is the pickup's, and label_url the replacement's (VELOCITY.md).
    awb_code: pickup.awb!,
    label_url: forward.labelUrl,
    forward_shipment_label: forward.labelUrl,
    reverse_shipment_label: pickup.labelUrl,
    courier_name: pickup.courierName,
    forward_courier_name: forward.courierName,
    reverse_courier_name: pickup.courierName,
    applied_weight: pickup.appliedWeightKg,
    forward_applied_weight: forward.appliedWeightKg,
    reverse_applied_weight: pickup.appliedWeightKg,
    cod: forward.isCod ? 1 : 0,
    is_exchange: 1,
    exchange_order_details: {
      id: exchange.id,
      unique_id: exchange.uniqueId,
      display_id: exchange.displayId,
      status,
      order_id: forward.merchantOrderId,
      return_id: pickup.returnId,
      channel: exchange.channel,
      return_reason: exchange.returnReason,
      release_on: exchange.releaseOn as ReleaseTerm,
      replacement_held: exchange.replacementHeld,
      qc_failed: exchange.qcFailedAt !== null,
      created_at: velocityDateTime(exchange.createdAt),
    },
    forward_shipment_details: legDetails(forward),
    return_shipment: legDetails(pickup),
    charges: exchangeCharges({
      forwardFreightPaise: forward.freightPaise,
      forwardCodPaise: forward.codPaise,
      forwardRtoPaise: forward.rtoPaise,
      returnPickupPaise: pickup.freightPaise,
      qcPaise: exchangeQcPaise({ qcApplied: pickup.qcApplied, courierQcPaise: pickup.qcPaise }, exchange.qcChargePaise),
      exchangePaise: exchange.exchangeChargePaise,
    }),
    test_mode: forward.testMode || pickup.testMode,
    ...(warnings.length > 0 && { warnings }),
  };
}
