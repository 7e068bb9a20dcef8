import { outboxNote } from './startup-notes.js';
import { ConfigError, loadConfig, MAIL_TIMEOUT_MS, MESSAGE_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS } from './base/config.js';
import { migrate } from './base/db/migrate.js';
import { openConfiguredDatabase } from './base/db/open.js';
import { postgresSignal } from './base/db/signal.js';
import { createWorker } from './events/worker.js';
import { privateLogger } from './http/log-privacy.js';
import { notificationTasks } from './consumers/notifications/notifications.worker.js';
import { webhookTasks } from './consumers/webhooks/webhooks.worker.js';
import { auditEndpoints } from './consumers/webhooks/endpoint-audit.js';
import { messagingTasks } from './consumers/messaging/messaging.worker.js';
import { systemClock } from './base/clock.js';
import { ensureServerSecret } from './base/db/secrets.js';
import { createSecretBox } from './base/secret-box.js';
import { createEventLog } from './events/event-log.js';
import { createSubjectSnapshots } from './readers/event-snapshots/event-snapshots.js';
import { trackUrlOf } from './domain/shipment/track-links.js';
import { loadRatesContext } from './data-files.js';

/**
 * `npm run worker`: webhook delivery, customer e-mails and buyer messages alone, for operators who run them apart
 * from the API processes (set WEBHOOK_WORKER=false on those). Any number may run against one
 * PostgreSQL database.
 */
async function main() {
  const config = loadConfig();
  // The API's rules for errors in logs: a failed statement's bound values are customers' details.
  const log = privateLogger({ level: config.logLevel });
  const database = await openConfiguredDatabase(config, (error, message) => log.warn({ err: error }, message));
  await migrate(database.db);
  const onError = (task: string, error: unknown) => log.error({ err: error, task }, 'worker task failed');
  const rules = { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate };
  // Buyer messaging records events (confirmation sent, no response): with the snapshots the API's log takes.
  const rates = loadRatesContext({ couriersFile: config.couriersFile });
  const signal = config.databaseUrl ? postgresSignal(config.databaseUrl, (error) => log.warn({ err: error }, 'event signal connection lost')) : undefined;
  const events = createEventLog({ snapshots: createSubjectSnapshots({ catalogue: rates.catalogue, trackUrl: trackUrlOf(config.publicBaseUrl) }), signal });
  const box = createSecretBox(config.messaging.secretsKey ?? (await ensureServerSecret(database.db, 'secrets-key')));
  const messaging = messagingTasks({
    db: database.db,
    clock: systemClock,
    events,
    box,
    send: { ...config.messaging, smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, timeoutMs: MESSAGE_TIMEOUT_MS },
    publicBaseUrl: config.publicBaseUrl,
    retryDelaysSeconds: config.messaging.retryDelays,
    leaseMarginMs: config.workerLeaseMarginMs,
  });
  const worker = createWorker(
    [
      ...messaging.tasks,
      ...webhookTasks(
        database.db,
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
      ...notificationTasks(
        database.db,
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
    { pollIntervalMs: 1000, keepAlive: true, onError },
  );
  // Woken when an API process records events, rather than at the next poll.
  signal?.onSignal(() => worker.wake());
  const stop = async (name: string) => {
    log.info({ signal: name }, 'stopping the worker');
    await worker.stop();
    await signal?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  worker.start();
  log.info({ engine: database.engine }, 'Dakiya worker is delivering webhooks and customer e-mails');
  if (config.smtpUrl === undefined) log.info(outboxNote(config.publicBaseUrl));
  const check = await auditEndpoints(database.db, rules, (fields, message) => log.warn(fields, message));
  check().catch((error: unknown) => log.error({ err: error }, 'checking the webhook endpoints against the settings failed'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `dakiya worker: ${error.message}` : error);
  process.exit(1);
});
