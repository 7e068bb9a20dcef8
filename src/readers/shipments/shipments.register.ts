import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { TrackUrl } from '../../domain/shipment/track-links.js';
import type { Host } from '../../http/host.js';
import { shipmentsRoutes } from './shipments.routes.js';
import { createShipmentsService } from './shipments.service.js';

export interface ShipmentsContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  labelLinks: LabelLinks;
  trackUrl: TrackUrl;
}

/** The shipment listings and one shipment's view. */
export function registerShipments(host: Host, { db, clock, rates, labelLinks, trackUrl }: ShipmentsContext) {
  host.routes?.add(
    'account',
    shipmentsRoutes(createShipmentsService({ db, clock, catalogue: rates.catalogue, labelLinks, trackUrl })),
  );
}
