import type { FastifyInstance } from 'fastify';
import { type Clock, systemClock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { EventLog } from '../../events/event-log.js';
import { createWorker } from '../../events/worker.js';
import { auditEndpoints } from './endpoint-audit.js';
import { createWebhooksService } from './webhooks.service.js';
import { type DeliverySettings, webhookTasks } from './webhooks.worker.js';

export interface WebhookSettings extends DeliverySettings {
  /** Deliver from this process (WEBHOOK_WORKER); false when `npm run worker` does it apart. */
  worker: boolean;
  pollIntervalMs: number;
}

/**
 * The webhooks service (on `db`), and (unless settings.worker is false) the in-process worker that
 * fans events out and sends deliveries (on `workerDb`). It starts when the app is ready and stops on app.close(), which
 * waits for the round in flight; its timer never keeps the process alive.
 */
export function installWebhookWorker(app: FastifyInstance, { db, workerDb = db }: { db: Db; workerDb?: Db }, clock: Clock, events: EventLog, settings: WebhookSettings) {
  const onError = (task: string, error: unknown) => app.log.error({ err: error, task }, 'webhook worker task failed');
  const worker = settings.worker
    ? createWorker(
        webhookTasks(
          workerDb,
          settings,
          (error) => onError('webhook deliveries', error),
          undefined,
          (error) => onError('webhook fan-out', error),
        ),
        { pollIntervalMs: settings.pollIntervalMs, onError },
      )
    : undefined;
  // Endpoints the settings now refuse (registered under laxer ones) are named in the log once, at
  // start-up; the check of their host names runs on in the background.
  app.addHook('onReady', async () => {
    const check = await auditEndpoints(db, settings, (fields, message) => app.log.warn(fields, message));
    check().catch((error: unknown) => app.log.error({ err: error }, 'checking the webhook endpoints against the settings failed'));
  });
  if (worker) {
    events.onRecorded(() => worker.wake());
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }
  // Without a worker here (a delivery thread or npm run worker sends), a test send or a redelivery
  // wakes theirs through the database's signal rather than waiting for their next poll.
  return createWebhooksService({ db, clock, deliveryClock: systemClock, rules: settings, wake: () => (worker ? worker.wake() : events.announce()) });
}
