import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './base/config.js';
import { DataDirLockedError } from './base/db/lock.js';
import { migrate } from './base/db/migrate.js';
import { openPostgres } from './base/db/client.js';
import { openConfiguredDatabase } from './base/db/open.js';
import { postgresSignal } from './base/db/signal.js';
import { openRedis } from './base/redis.js';
import { checkConnectorSettings } from './couriers/couriers.service.js';
import { DataFileError } from './domain/data-file-issues.js';
import { loadRatesContext } from './data-files.js';
import { startupNotes } from './startup-notes.js';

// Log lines are written asynchronously: a request never waits for the terminal or the disk. Lines
// written while a write is in flight are coalesced into the next one; stop() flushes what is left.
const logStream = pino.destination({ dest: 1, sync: false });
/** Connections of the in-process event-log workers (webhooks, e-mails), beside the requests' pool. */
const WORKER_POOL_SIZE = 3;

async function main() {
  const config = loadConfig();
  // The data files first: a mistake in an operator's edit stops start-up before the database opens.
  const rates = loadRatesContext({ couriersFile: config.couriersFile });
  checkConnectorSettings(rates.catalogue, config.couriers);
  // The app's logger exists only once the app is built; a connection lost before then goes unsaid.
  let connectionLost: ((error: Error, message: string) => void) | undefined;
  const database = await openConfiguredDatabase(config, (error, message) => connectionLost?.(error, message));
  await migrate(database.db);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  // PGlite is one process: the event log's in-process wake-up is all there is to tell.
  // The workers' own few connections, so that requests filling the pool never hold them up.
  const workerDatabase = config.databaseUrl ? await openPostgres(config.databaseUrl, WORKER_POOL_SIZE, (error, message) => connectionLost?.(error, message)) : undefined;
  const eventSignal = config.databaseUrl ? postgresSignal(config.databaseUrl, (error) => connectionLost?.(error, 'event signal connection lost')) : undefined;
  const app = await buildApp({
    db: database.db,
    signal: eventSignal,
    workerDb: workerDatabase?.db,
    publicBaseUrl: config.publicBaseUrl,
    adminToken: config.adminToken,
    labelUrlTtlSeconds: config.labelUrlTtlSeconds,
    rates,
    couriers: config.couriers,
    webhooks: {
      worker: config.webhookWorker,
      retryDelaysSeconds: config.webhookRetryDelays,
      allowHttp: config.webhookAllowHttp,
      allowPrivate: config.webhookAllowPrivate,
      leaseMarginMs: config.workerLeaseMarginMs,
      concurrency: config.webhookConcurrency,
    },
    notifications: {
      worker: config.webhookWorker,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      retryDelaysSeconds: config.mailRetryDelays,
      leaseMarginMs: config.workerLeaseMarginMs,
    },
    logger: { level: config.logLevel, stream: logStream },
    limits: {
      ratePerMinute: config.rateLimitPerMinute,
      loginAttemptsPerMinute: config.loginAttemptsPerMinute,
      loginAddressAttemptsPerMinute: config.loginAddressAttemptsPerMinute,
      loginUsernameAttemptsPer15Minutes: config.loginUsernameAttemptsPer15Minutes,
      trackingPagePerMinute: config.trackingPageRatePerMinute,
      redis,
    },
  });

  for (const warning of config.warnings) app.log.warn(warning);
  connectionLost = (error, message) => app.log.warn({ err: error }, message);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    // close() stops accepting and resolves once in-flight requests have been answered.
    await app.close();
    await eventSignal?.close();
    await workerDatabase?.close();
    await database.close();
    await redis?.quit();
    logStream.flushSync();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { engine: database.engine, dataDir: database.engine === 'pglite' ? config.dataDir : undefined },
    `Dakiya is serving; API docs at ${config.publicBaseUrl}/docs`,
  );
  for (const note of startupNotes(config, rates.catalogue)) app.log.info(note);
}

class RedisUnreachableError extends Error {}

/**
 * A wrong REDIS_URL stops start-up, since it is a mistake to fix. Once serving, an outage of Redis
 * only turns the limits per process until it is back (base/redis.ts).
 */
async function connectRedis(url: string): Promise<Redis> {
  const redis = openRedis(url);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnreachableError(`REDIS_URL ${new URL(url).host} is not answering: ${(error as Error).message}`);
  }
  return redis;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DataFileError || error instanceof RedisUnreachableError) {
    console.error(`dakiya: ${error.message}`);
  } else {
    console.error('dakiya: failed to start', error);
  }
  process.exit(1);
});
