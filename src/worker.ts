import { ConfigError } from './base/config-error.js';
import { migrate } from './base/db/migrate.js';
import { openConfiguredDatabase } from './base/db/open.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { privateLogger } from './http/log-privacy.js';
import { loadSettings } from './settings.js';
import { outboxNote } from './startup-notes.js';

/**
 * `npm run worker`: webhook delivery, customer e-mails and buyer messages alone, for operators who run them apart
 * from the API processes (WEBHOOK_WORKER=false on those). Any number may run against one
 * PostgreSQL database.
 */
async function main() {
  const { settings } = loadSettings();
  // The API's rules for errors in logs: a failed statement's bound values are customers' details.
  const log = privateLogger({ level: settings.server.logLevel });
  const database = await openConfiguredDatabase(
    { ...settings.database, poolSize: settings.processes.databasePoolSize },
    (error, message) => log.warn({ err: error }, message),
  );
  await migrate(database.db);
  const delivery = await startDeliveryWorker({ settings, db: database.db, log, keepAlive: true, checkEndpoints: true });
  const stop = async (name: string) => {
    log.info({ signal: name }, 'stopping the worker');
    await delivery.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  log.info({ engine: database.engine }, 'Dakiya worker is delivering webhooks and customer e-mails');
  if (settings.mail.smtpUrl === undefined) log.info(outboxNote(settings.server.publicBaseUrl));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `dakiya worker: ${error.message}` : error);
  process.exit(1);
});
