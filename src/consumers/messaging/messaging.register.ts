import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { MailSettings } from '../../base/mailer.settings.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { Resolver } from '../../base/outbound/outbound-url.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { Delivery } from '../../events/delivery.js';
import type { EventLog } from '../../events/event-log.js';
import type { WorkerSettings } from '../../events/workers.settings.js';
import type { CancelShipment, ConvertToPrepaid, NdrBuyerAnswer } from '../../features/contracts.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import { messagingPublicRoutes, messagingRoutes } from './messaging.routes.js';
import { createMessagingChannelsService } from './messaging-channels.service.js';
import { createMessagingService } from './messaging.service.js';
import type { MessagingSettings } from './messaging.settings.js';
import { messagingTasks } from './messaging.worker.js';

/** What buyers' answers act through, handed in from orders and NDR (features/contracts.ts). */
export interface BuyerActions {
  cancelShipment: CancelShipment;
  convertToPrepaid: ConvertToPrepaid;
  ndrBuyerAnswer: NdrBuyerAnswer;
}

export interface MessagingContext {
  db: Db;
  clock: Clock;
  events: EventLog;
  delivery: Delivery;
  /** Seals the channels' credentials. */
  secretBox: SecretBox;
  settings: {
    server: ServerSettings;
    mail: MailSettings;
    messaging: MessagingSettings;
    workers: WorkerSettings;
    outbound: OutboundSettings;
  };
  /** How host names are resolved: the system's resolver unless a test names its own hosts. */
  lookup?: Resolver;
  /** Needed where the routes are served: a process that only sends (the delivery worker) takes no answers. */
  buyerActions?: BuyerActions;
}

/**
 * Buyer messaging: the channels' and buyers' routes (where HTTP is served), and the senders (where
 * the delivery runs here) that plan confirmations from the event log, send buyer messages with
 * retries and close windows that ran out.
 */
export function registerMessaging(host: Host, ctx: MessagingContext) {
  const { db, clock, events, delivery, secretBox: box, settings } = ctx;
  const { mail, messaging } = settings;
  // An account's own base_url passes the one outbound guard, by the operator's rules.
  const send = { ...mail, ...messaging, outbound: { ...settings.outbound, lookup: ctx.lookup } };
  const publicBaseUrl = settings.server.publicBaseUrl;
  delivery.run(
    'messaging',
    () =>
      messagingTasks({
        db: delivery.db,
        clock,
        events,
        box,
        send,
        publicBaseUrl,
        retryDelaysSeconds: messaging.retryDelaysSeconds,
        leaseMarginMs: settings.workers.leaseMarginMs,
      }).tasks,
    { batched: true, failed: 'buyer messaging worker task failed' },
  );
  if (!host.routes) return;
  if (!ctx.buyerActions) throw new Error("buyer messaging's routes need the buyer actions (orders' and NDR's)");
  const channels = createMessagingChannelsService({ db, clock, box, send, publicBaseUrl });
  const service = createMessagingService({ db, clock, box, events, ...ctx.buyerActions });
  host.routes.add('account', messagingRoutes(channels, service));
  host.routes.add('pages', messagingPublicRoutes(service));
}
