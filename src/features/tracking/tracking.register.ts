import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { CourierSettings } from '../../couriers/couriers.settings.js';
import type { TrackingSettings } from './tracking.settings.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../http/host.js';
import type { ReturnChangeListener, ShipmentStatusListener } from '../contracts.js';
import { ekartWebhookRoutes } from './ekart-webhook.routes.js';
import { carrierAuth, carrierRoutes, carrierTokenAdminRoutes } from './tracking.routes.js';
import { createTrackingService } from './tracking.service.js';

export interface TrackingContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue' | 'directory'>;
  events: EventLog;
  settings: { couriers: CourierSettings; tracking: TrackingSettings };
  /** Told of each status change in the intake's transaction (the COD ledger opens receivables). */
  onStatusChange: ShipmentStatusListener;
  /** Told of each return's status or QC change in the intake's transaction (exchanges release replacements). */
  onReturnChange?: ReturnChangeListener;
}

/**
 * The tracking intake, owner of shipments' and returns' status histories: couriers' pushes (their
 * token, Ekart's signed webhook), carrier tokens, and the check the carrier scope sits behind. It
 * hands its appliers to the features that record merchant events (features/contracts.ts).
 */
export function registerTracking(
  host: Host,
  { db, clock, rates, events, settings, onStatusChange, onReturnChange }: TrackingContext,
) {
  const tracking = createTrackingService({
    ...rates,
    db,
    clock,
    events,
    onStatusChange,
    onReturnChange,
    earlyScanSeconds: settings.tracking.earlyScanSeconds,
  });
  const ekartServices = rates.catalogue.services.filter((s) => s.connector === 'ekart').map((s) => s.id);
  host.routes?.add(
    'carrier',
    carrierRoutes(tracking),
    ekartWebhookRoutes({ tracking, secret: settings.couriers.ekart.webhookSecret, carrierIds: ekartServices }),
  );
  host.routes?.guard('carrierActions', (scope) => {
    scope.decorateRequest('carrierId', '');
    scope.addHook('onRequest', carrierAuth(tracking));
  });
  host.routes?.add('admin', carrierTokenAdminRoutes(tracking));
  return tracking;
}
