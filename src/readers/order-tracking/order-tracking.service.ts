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
import { findBoxAwbs } from '../../shipment-records/box-awbs.js';

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
      // A box's own AWB answers its shipment, under the master AWB, saying which box was asked for.
      const boxes = await findBoxAwbs(
        db,
        accountId,
        awbs.filter((awb) => !found.has(awb)),
      );
      const masters = [...new Set([...boxes.values()].map((box) => box.masterAwb))].filter((awb) => !found.has(awb));
      if (masters.length > 0)
        for (const shipment of await findTrackedShipments(db, accountId, masters)) {
          shipments.push(shipment);
          found.set(shipment.awb!, shipment);
        }
      const actions = await findActionsOf(
        db,
        accountId,
        shipments.map((s) => s.id),
      );
      const returned = await trackReturns(
        db,
        accountId,
        awbs.filter((awb) => !found.has(awb) && !boxes.has(awb)),
        catalogue,
      );
      const result: OrderTrackingResult = {};
      for (const asked of awbs) {
        const box = boxes.get(asked);
        const awb = box?.masterAwb ?? asked;
        const shipment = found.get(awb);
        const returnData = returned.get(asked);
        if (returnData) {
          result[asked] = { tracking_data: returnData };
          continue;
        }
        if (!shipment) {
          result[asked] = { tracking_data: { track_status: 0, error: `AWB ${asked} not found` } };
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
        result[asked] = {
          tracking_data: {
            track_status: 1,
            ...(box && { asked_awb: asked, box_no: box.boxNo }),
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
