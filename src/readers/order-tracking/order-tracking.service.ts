import type { Db } from '../../base/db/client.js';
import { activityLabel } from '../../domain/shipment/activity-labels.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { toActionView } from '../../domain/shipment/ndr-actions.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import { bookedTrackUrl, type TrackUrl } from '../../domain/shipment/track-links.js';
import { shipmentTrack, trackActivities } from './velocity-track.js';
import { granularStatus } from '../../domain/shipment/granular-statuses.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { findActionsOf, findTrackedShipments } from './order-tracking.repository.js';
import type { OrderTrackingResult } from './order-tracking.schemas.js';
import { trackReturns } from './return-tracking.js';

export type OrderTracking = ReturnType<typeof createOrderTracking>;

/** POST /order-tracking: forward and return AWBs in Velocity's shape, read from what the tracking intake stored. */
export function createOrderTracking({
  db,
  catalogue,
  trackUrl,
  labelLinks,
}: {
  db: Db;
  catalogue: CourierCatalogue;
  trackUrl: TrackUrl;
  labelLinks: LabelLinks;
}) {
  return {
    /** Velocity's order-tracking shape; an AWB the account does not own gets an error entry. */
    async track(accountId: string, awbs: string[]) {
      const shipments = await findTrackedShipments(db, accountId, awbs);
      const found = new Map(shipments.map((s) => [s.awb!, s]));
      const actions = await findActionsOf(
        db,
        accountId,
        shipments.map((s) => s.id),
      );
      const returned = await trackReturns(
        db,
        accountId,
        awbs.filter((awb) => !found.has(awb)),
        catalogue,
      );
      const result: OrderTrackingResult = {};
      for (const awb of awbs) {
        const shipment = found.get(awb);
        const returnData = returned.get(awb);
        if (returnData) {
          result[awb] = { tracking_data: returnData };
          continue;
        }
        if (!shipment) {
          result[awb] = { tracking_data: { track_status: 0, error: `AWB ${awb} not found` } };
          continue;
        }
        const shipmentActions = actions.get(shipment.id) ?? [];
        const granular = granularStatus({
          status: shipment.status as ShipmentStatus,
          subStatus: shipment.subStatus,
          courierBooked: shipment.carrierId !== null,
          rtoStarted: shipment.rtoInitiatedAt !== null,
          attemptCount: shipment.attemptCount,
          reattemptRequested: shipmentActions.some(
            (a) => a.action === 'reattempt' && a.attempt === shipment.attemptCount,
          ),
        });
        result[awb] = {
          tracking_data: {
            track_status: 1,
            shipment_status: granular,
            dakiya_status: shipment.status,
            shipment_sub_status: shipment.subStatus,
            shipment_track: shipmentTrack(
              {
                ...shipment,
                status: granular,
                shipmentId: shipment.id,
                awb,
                consigneeName: [shipment.shippingName, shipment.shippingLastName].filter(Boolean).join(' '),
              },
              catalogue,
            ),
            shipment_track_activities: trackActivities(shipment.events, (event) =>
              activityLabel(event.status as ShipmentStatus, event.subStatus),
            ),
            track_url: bookedTrackUrl(trackUrl, shipment),
            label_url: labelLinks.urlForShipment({ id: shipment.id, awb, status: shipment.status }),
            ndr_actions: shipmentActions.map(toActionView),
          },
        };
      }
      return { result };
    },
  };
}
