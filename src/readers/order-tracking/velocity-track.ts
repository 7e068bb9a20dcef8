import { velocityDateTime } from '../../base/clock.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';

/** What order-tracking shows of one parcel, forward or return, whatever table it lives in. */
export interface TrackedParcel {
  shipmentId: string;
  awb: string;
  carrierId: string | null;
  /** Dakiya's id of the order (a return's own id for a return). */
  orderId: string;
  merchantOrderId: string;
  pickedUpAt: Date | null;
  deliveredAt: Date | null;
  appliedWeightGrams: number;
  status: string;
  destination: string;
  consigneeName: string;
  origin: string;
}

interface TrackedEvent {
  eventTime: Date;
  /** The courier's own time of a scan placed after the booking (features/tracking scan-checks.ts). */
  statedTime?: Date | null;
  status: string;
  subStatus: string | null;
  description: string | null;
  location: string | null;
}

/** Velocity's `shipment_track`: one entry, since Dakiya keeps one track per shipment (its id names it). */
export function shipmentTrack(parcel: TrackedParcel, catalogue: CourierCatalogue) {
  const deliveredDate = parcel.deliveredAt ? velocityDateTime(parcel.deliveredAt) : null;
  return [
    {
      id: parcel.shipmentId,
      awb_code: parcel.awb,
      courier_company_id: parcel.carrierId,
      courier_name: catalogue.byId.get(parcel.carrierId ?? '')?.name ?? null,
      shipment_id: parcel.shipmentId,
      order_id: parcel.orderId,
      channel_order_id: parcel.merchantOrderId,
      pickup_date: parcel.pickedUpAt ? velocityDateTime(parcel.pickedUpAt) : null,
      delivered_date: deliveredDate,
      weight: Math.round(parcel.appliedWeightGrams) / 1000,
      packages: 1 as const,
      current_status: parcel.status,
      delivered_to: deliveredDate === null ? null : parcel.destination,
      destination: parcel.destination,
      consignee_name: parcel.consigneeName,
      origin: parcel.origin,
      courier_agent_details: null,
    },
  ];
}

/** Velocity's `shipment_track_activities`: every recorded event, newest first, labelled in upper-case words. */
export function trackActivities<E extends TrackedEvent>(oldestFirst: readonly E[], label: (event: E) => string) {
  return [...oldestFirst].reverse().map((event) => ({
    date: velocityDateTime(event.eventTime),
    activity: label(event),
    status: event.status,
    description: event.description,
    location: event.location,
    sr_status_label: event.subStatus,
    ...(event.statedTime && { courier_date: velocityDateTime(event.statedTime) }),
  }));
}
