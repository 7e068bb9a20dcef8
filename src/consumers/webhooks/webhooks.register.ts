import { type Clock, systemClock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Delivery } from '../../events/delivery.js';
import type { EventLog } from '../../events/event-log.js';
import type { WorkerSettings } from '../../events/workers.settings.js';
import type { Host } from '../../http/host.js';
import type { OutboundRules, Resolver } from '../../base/outbound/outbound-url.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import { auditEndpoints } from './endpoint-audit.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { createWebhooksService } from './webhooks.service.js';
import type { WebhookSettings } from './webhooks.settings.js';
import { webhookTasks } from './webhooks.worker.js';

export interface WebhooksContext {
  db: Db;
  clock: Clock;
  events: EventLog;
  delivery: Delivery;
  settings: { webhooks: WebhookSettings; workers: WorkerSettings; outbound: OutboundSettings };
  /** How webhook hosts are resolved: the system's resolver unless a test names its own hosts. */
  lookup?: Resolver;
  /**
   * Whether start-up names the endpoints the settings now refuse (registered under laxer ones): the
   * API process and `npm run worker` do; a delivery thread leaves it to its API process.
   */
  checkEndpoints?: boolean;
}

/**
 * Webhooks: the endpoints' routes (where HTTP is served), and the senders (where the delivery runs
 * here) that fan events out into deliveries and send them. Delivery times are real time: retries
 * wait on the network, not on the API's clock.
 */
export function registerWebhooks(host: Host, ctx: WebhooksContext) {
  const { db, delivery, settings } = ctx;
  const rules: OutboundRules = { ...settings.outbound, lookup: ctx.lookup };
  const failed = 'webhook worker task failed';
  const onError = (task: string) => (error: unknown) => host.log.error({ err: error, task }, failed);
  const senders = delivery.run(
    'webhooks',
    () =>
      webhookTasks(
        delivery.db,
        { ...settings.webhooks, ...rules, leaseMarginMs: settings.workers.leaseMarginMs },
        onError('webhook deliveries'),
        undefined,
        onError('webhook fan-out'),
      ),
    { batched: false, failed },
  );
  if (ctx.checkEndpoints !== false) {
    // Named in the log once, at start-up; the check of their host names runs on in the background.
    host.onReady(async () => {
      const check = await auditEndpoints(db, rules, (fields, message) => host.log.warn(fields, message));
      check().catch((error: unknown) =>
        host.log.error({ err: error }, 'checking the webhook endpoints against the settings failed'),
      );
    });
  }
  host.routes?.add(
    'account',
    webhooksRoutes(
      createWebhooksService({ db, clock: ctx.clock, deliveryClock: systemClock, rules, wake: senders.wake }),
    ),
  );
}
