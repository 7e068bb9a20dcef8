import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { TrackUrl } from '../../domain/shipment/track-links.js';
import type { Host } from '../../http/host.js';
import { orderTrackingRoutes } from './order-tracking.routes.js';
import { createOrderTracking } from './order-tracking.service.js';

export interface OrderTrackingContext {
  db: Db;
  rates: Pick<RatesContext, 'catalogue'>;
  trackUrl: TrackUrl;
  labelLinks: LabelLinks;
}

/** Velocity's order tracking. */
export function registerOrderTracking(host: Host, { db, rates, trackUrl, labelLinks }: OrderTrackingContext) {
  host.routes?.add(
    'account',
    orderTrackingRoutes(createOrderTracking({ db, catalogue: rates.catalogue, trackUrl, labelLinks })),
  );
}
