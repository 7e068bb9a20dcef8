import type { FastifyInstance } from 'fastify';
import type { Db } from '../../base/db/client.js';
import type { EventLog } from '../../events/event-log.js';
import { createWorker } from '../../events/worker.js';
import { DEFAULT_LEASE_MARGIN_MS, DEFAULT_MAIL_RETRY_DELAYS, MAIL_TIMEOUT_MS } from '../../base/config.js';
import { createNotificationsService } from './notifications.service.js';
import { type MailSettings, notificationTasks } from './notifications.worker.js';
import { DEFAULT_WORKER_POLL_INTERVAL_MS, EVENT_BATCH_WINDOW_MS } from '../../base/config.js';

export interface NotificationSettings extends MailSettings {
  /** Run from this process (WEBHOOK_WORKER, as webhooks); false when `npm run worker` does it apart. */
  worker: boolean;
  pollIntervalMs: number;
}

/** No SMTP: every customer e-mail is recorded as skipped. */
export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  worker: true,
  pollIntervalMs: DEFAULT_WORKER_POLL_INTERVAL_MS,
  smtpUrl: undefined,
  mailFrom: undefined,
  retryDelaysSeconds: DEFAULT_MAIL_RETRY_DELAYS,
  timeoutMs: MAIL_TIMEOUT_MS,
  leaseMarginMs: DEFAULT_LEASE_MARGIN_MS,
};

/**
 * The notifications service, and (unless settings.worker is false) the in-process worker that turns
 * events into e-mail jobs and sends them. It starts when the app is ready and stops on app.close(),
 * which waits for the round in flight; its timer never keeps the process alive.
 */
export function installNotifications(
  app: FastifyInstance,
  { db, workerDb = db }: { db: Db; workerDb?: Db },
  events: EventLog,
  publicBaseUrl: string,
  settings: NotificationSettings,
) {
  if (settings.worker) {
    const worker = createWorker(notificationTasks(workerDb, settings, publicBaseUrl), {
      pollIntervalMs: settings.pollIntervalMs,
      batchWindowMs: EVENT_BATCH_WINDOW_MS,
      onError: (task, error) => app.log.error({ err: error, task }, 'notification worker task failed'),
    });
    events.onRecorded(() => worker.wake());
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }
  return createNotificationsService({ db });
}
