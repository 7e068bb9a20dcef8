import { velocityDateObject, velocityDateTime } from '../../base/clock.js';
import { zoneLabel } from '../../domain/geo/zones.js';
import { paiseToRupees, rupeesText } from '../../domain/money.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { deadWeightBilled } from '../../domain/rates/engine.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { bookedTrackUrl, type TrackUrl } from '../../domain/shipment/track-links.js';
import type { FieldError } from '../../domain/errors.js';
import { allocationView } from './allocation-preview.schemas.js';
import { type BookedBoxRow, boxesView } from '../../shipment-records/shipment-boxes.js';
import type * as repo from './orders.repository.js';
import type { OrderPayloadView } from './order-answers.schemas.js';

// The answer of every order write (forward-order, its orchestration and shipment, an update):
// Velocity's fields for the order and its shipment, plus ours.

export type OrderPayload = ReturnType<typeof createOrderPayload>;

interface Deps {
  rates: RatesContext;
  labelLinks: LabelLinks;
  trackUrl: TrackUrl;
}

export function createOrderPayload({ rates, labelLinks, trackUrl }: Deps) {
  return function payload(
    order: repo.OrderRow,
    shipment: repo.ShipmentRow,
    storeName: string | null,
    warnings: FieldError[] = [],
    /** A booked multi-piece shipment's boxes (shipment_boxes), box 1 first. */
    bookedBoxes: readonly BookedBoxRow[] = [],
  ): OrderPayloadView {
    const boxes = boxesView(order.packages, bookedBoxes, shipment.status);
    const service = shipment.carrierId ? rates.catalogue.byId.get(shipment.carrierId) : undefined;
    const booked = shipment.awb !== null;
    return {
      order_id: order.id,
      channel_order_id: order.merchantOrderId,
      shipment_id: shipment.id,
      status: shipment.status,
      store_name: storeName,
      zone: zoneLabel(shipment.zone as Parameters<typeof zoneLabel>[0]),
      applied_weight: Math.round(shipment.appliedWeightGrams) / 1000,
      cod: shipment.isCod ? 1 : 0,
      awb_code: shipment.awb,
      courier_company_id: shipment.carrierId,
      courier_name: service?.name ?? null,
      label_url: booked ? labelLinks.urlFor(shipment.id) : null,
      track_url: bookedTrackUrl(trackUrl, shipment),
      test_mode: shipment.testMode,
      charges: booked
        ? {
            forward_freight_charges: paiseToRupees(shipment.freightPaise!),
            cod_charges: paiseToRupees(shipment.codChargesPaise!),
            rto_freight_charges: paiseToRupees(shipment.rtoChargesPaise!),
            total_forward_charges: paiseToRupees(shipment.freightPaise! + shipment.codChargesPaise!),
            frwd_charges: {
              shipping_charges: rupeesText(shipment.freightPaise!),
              cod_charges: rupeesText(shipment.codChargesPaise!),
              // A multi-piece shipment is billed box by box: on dead weight when every box is.
              dead_weight_billing: (order.packages ?? [order]).every(deadWeightBilled),
            },
            rto_charges: { rto_charges: rupeesText(shipment.rtoChargesPaise!) },
          }
        : null,
      pickup_location_added: 1,
      order_created: 1,
      awb_generated: booked ? 1 : 0,
      label_generated: booked ? 1 : 0,
      pickup_generated: booked ? 1 : 0,
      manifest_generated: 0,
      pickup_scheduled_date: shipment.expectedPickupDate,
      pickup_booked_date: shipment.assignedAt ? velocityDateTime(shipment.assignedAt) : null,
      expected_delivery_date: shipment.expectedDeliveryDate,
      assigned_date_time: velocityDateObject(shipment.assignedAt ?? shipment.createdAt),
      manifest_url: null,
      allocation: allocationView(shipment.allocation),
      routing_code: shipment.routingCode,
      rto_routing_code: null,
      pickup_token_number: null,
      address_validity: shipment.addressValidity as OrderPayloadView['address_validity'],
      address_reasons: shipment.addressReasons as OrderPayloadView['address_reasons'],
      rto_risk: shipment.rtoRisk as OrderPayloadView['rto_risk'],
      rto_risk_score: shipment.rtoRiskScore,
      rto_risk_reasons: shipment.rtoRiskReasons as OrderPayloadView['rto_risk_reasons'],
      ...(boxes && { boxes }),
      ...(warnings.length > 0 && { warnings }),
    };
  };
}
