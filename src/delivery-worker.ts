import type { Logger } from 'pino';
import { systemClock } from './base/clock.js';
import { type Config, EVENT_BATCH_WINDOW_MS, MAIL_TIMEOUT_MS, MESSAGE_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS } from './base/config.js';
import type { Db } from './base/db/client.js';
import { ensureServerSecret } from './base/db/secrets.js';
import { postgresSignal } from './base/db/signal.js';
import { createSecretBox } from './base/secret-box.js';
import { messagingTasks } from './consumers/messaging/messaging.worker.js';
import { notificationTasks } from './consumers/notifications/notifications.worker.js';
import { auditEndpoints } from './consumers/webhooks/endpoint-audit.js';
import { webhookTasks } from './consumers/webhooks/webhooks.worker.js';
import { loadRatesContext } from './data-files.js';
import { trackUrlOf } from './domain/shipment/track-links.js';
import { createEventLog } from './events/event-log.js';
import { createWorker } from './events/worker.js';
import { createSubjectSnapshots } from './readers/event-snapshots/event-snapshots.js';

export interface DeliveryWorker {
  /** Aborts the sends in flight (their leases run out and they are sent again) and ends the round. */
  stop(): Promise<void>;
}

/**
 * The senders of the event log's outside effects, webhooks, customer e-mails and buyer messages, on
 * a database of their own: `npm run worker` runs them in a process, and on PostgreSQL each API
 * process runs them in a thread of its own (delivery-thread.ts, decision 105). Woken by the API
 * processes' NOTIFY; keepAlive when they are all the process does.
 */
export async function startDeliveryWorker({
  config,
  db,
  log,
  keepAlive,
  checkEndpoints,
}: {
  config: Config;
  db: Db;
  log: Logger;
  keepAlive: boolean;
  /** Warn of endpoints the settings now refuse: npm run worker does; an API process's thread leaves it to the API, which does it already. */
  checkEndpoints: boolean;
}): Promise<DeliveryWorker> {
  const onError = (task: string, error: unknown) => log.error({ err: error, task }, 'worker task failed');
  const rules = { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate };
  // Buyer messaging records events (confirmation sent, no response): with the snapshots the API's log takes.
  const rates = loadRatesContext({ couriersFile: config.couriersFile });
  const signal = config.databaseUrl ? postgresSignal(config.databaseUrl, (error) => log.warn({ err: error }, 'event signal connection lost')) : undefined;
  const events = createEventLog({ snapshots: createSubjectSnapshots({ catalogue: rates.catalogue, trackUrl: trackUrlOf(config.publicBaseUrl) }), signal });
  const box = createSecretBox(config.messaging.secretsKey ?? (await ensureServerSecret(db, 'secrets-key')));
  const messaging = messagingTasks({
    db,
    clock: systemClock,
    events,
    box,
    send: { ...config.messaging, smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, timeoutMs: MESSAGE_TIMEOUT_MS },
    publicBaseUrl: config.publicBaseUrl,
    retryDelaysSeconds: config.messaging.retryDelays,
    leaseMarginMs: config.workerLeaseMarginMs,
  });
  // Webhooks run in rounds of their own, beside the e-mails' and messages': theirs is the latency
  // merchants wait on (issue 27), and in one worker a fan-out waited for the round's customer e-mails
  // to be composed and kept before it could run again. The e-mails and messages take the events of
  // EVENT_BATCH_WINDOW_MS together, as they do in process: apart from the webhooks, nothing made
  // them run a round for every few bookings, and those rounds cost more than the split saved.
  const webhooks = createWorker(
    webhookTasks(
      db,
      {
        retryDelaysSeconds: config.webhookRetryDelays,
        ...rules,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        leaseMarginMs: config.workerLeaseMarginMs,
        concurrency: config.webhookConcurrency,
      },
      (error) => onError('webhook deliveries', error),
      undefined,
      (error) => onError('webhook fan-out', error),
    ),
    { pollIntervalMs: 1000, keepAlive, onError },
  );
  const mail = createWorker(
    [
      ...messaging.tasks,
      ...notificationTasks(
        db,
        {
          smtpUrl: config.smtpUrl,
          mailFrom: config.mailFrom,
          retryDelaysSeconds: config.mailRetryDelays,
          timeoutMs: MAIL_TIMEOUT_MS,
          leaseMarginMs: config.workerLeaseMarginMs,
        },
        config.publicBaseUrl,
      ),
    ],
    { pollIntervalMs: 1000, keepAlive, onError, batchWindowMs: EVENT_BATCH_WINDOW_MS },
  );
  const workers = [webhooks, mail];
  // Woken when an API process records events, rather than at the next poll.
  signal?.onSignal(() => {
    for (const worker of workers) worker.wake();
  });
  for (const worker of workers) worker.start();
  if (checkEndpoints) {
    const check = await auditEndpoints(db, rules, (fields, message) => log.warn(fields, message));
    check().catch((error: unknown) => log.error({ err: error }, 'checking the webhook endpoints against the settings failed'));
  }
  return {
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await signal?.close();
    },
  };
}
