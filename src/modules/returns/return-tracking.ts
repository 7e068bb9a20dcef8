import { and, eq, inArray } from 'drizzle-orm';
import { velocityDateTime } from '../../clock.js';
import type { Executor } from '../../db/client.js';
import { returns } from '../../db/schema.js';
import type { CourierCatalogue } from '../rates/catalogue.js';
import type { OrderTrackingResult } from '../tracking/tracking.schemas.js';
import { returnActivityLabel } from './return-activity-labels.js';
import { findReturnEventsOf } from './return-events.repository.js';
import type { ReturnStatus } from './return-status-machine.js';

type TrackingData = OrderTrackingResult[string]['tracking_data'];

/**
 * order-tracking for the account's return AWBs, in Velocity's tracking_data shape. The parcel
 * travels from the customer (origin) to the warehouse (destination, consignee), so "delivered"
 * means received at the warehouse. AWBs that are not the account's returns are left out.
 */
export async function trackReturns(ex: Executor, accountId: string, awbs: string[], catalogue: CourierCatalogue) {
  const tracked = new Map<string, TrackingData>();
  if (awbs.length === 0) return tracked;
  const rows = await ex
    .select()
    .from(returns)
    .where(and(eq(returns.accountId, accountId), inArray(returns.awb, awbs)));
  const events = await findReturnEventsOf(
    ex,
    accountId,
    rows.map((r) => r.id),
  );
  for (const row of rows) {
    const deliveredDate = row.deliveredAt ? velocityDateTime(row.deliveredAt) : null;
    tracked.set(row.awb!, {
      track_status: 1,
      shipment_status: row.status,
      shipment_sub_status: row.subStatus,
      is_return: 1,
      qc_status: row.qcStatus,
      qc_reason: row.qcReason,
      shipment_track: [
        {
          id: row.shipmentId,
          awb_code: row.awb!,
          courier_company_id: row.carrierId,
          courier_name: catalogue.byId.get(row.carrierId ?? '')?.name ?? null,
          shipment_id: row.shipmentId,
          // The return's id, as reverse-order answers return_id; the merchant's id is channel_order_id.
          order_id: row.id,
          channel_order_id: row.merchantOrderId,
          pickup_date: row.pickedUpAt ? velocityDateTime(row.pickedUpAt) : null,
          delivered_date: deliveredDate,
          weight: Math.round(row.appliedWeightGrams) / 1000,
          packages: 1,
          current_status: row.status,
          delivered_to: deliveredDate === null ? null : row.shipping.city,
          destination: row.shipping.city,
          consignee_name: [row.shipping.name, row.shipping.last_name].filter(Boolean).join(' '),
          origin: row.pickup.city,
          courier_agent_details: null,
        },
      ],
      shipment_track_activities: [...(events.get(row.id) ?? [])].reverse().map((event) => ({
        date: velocityDateTime(event.eventTime),
        activity: returnActivityLabel(event.status as ReturnStatus, event.subStatus),
        status: event.status,
        description: event.description,
        location: event.location,
        sr_status_label: event.subStatus,
      })),
      track_url: null,
    });
  }
  return tracked;
}
