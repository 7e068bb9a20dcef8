import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { returns } from '../../base/db/schema.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { shipmentTrack, trackActivities } from './velocity-track.js';
import { granularReturnStatus } from '../../domain/shipment/granular-statuses.js';
import { returnActivityLabel } from '../../domain/shipment/return-activity-labels.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import { findReturnEventsOf } from '../returns-listing/return-history.repository.js';
import type { OrderTrackingResult } from './order-tracking.schemas.js';

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
    const granular = granularReturnStatus({
      status: row.status as ReturnStatus,
      subStatus: row.subStatus,
      qcStatus: row.qcStatus,
    });
    tracked.set(row.awb!, {
      track_status: 1,
      shipment_status: granular,
      dakiya_status: row.status,
      shipment_sub_status: row.subStatus,
      is_return: 1,
      qc_status: row.qcStatus,
      qc_reason: row.qcReason,
      // The parcel travels from the customer to the warehouse; order_id is the return's id (reverse-order's return_id).
      shipment_track: shipmentTrack(
        {
          ...row,
          status: granular,
          awb: row.awb!,
          orderId: row.id,
          destination: row.shipping.city,
          consigneeName: [row.shipping.name, row.shipping.last_name].filter(Boolean).join(' '),
          origin: row.pickup.city,
        },
        catalogue,
      ),
      shipment_track_activities: trackActivities(events.get(row.id) ?? [], (event) =>
        returnActivityLabel(event.status as ReturnStatus, event.subStatus),
      ),
      track_url: null,
    });
  }
  return tracked;
}
