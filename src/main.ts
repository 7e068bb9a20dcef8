import cluster from 'node:cluster';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, WORKER_POOL_SIZE } from './base/config.js';
import { DataDirLockedError } from './base/db/lock.js';
import { logDestination } from './base/log-destination.js';
import { migrate } from './base/db/migrate.js';
import { openPostgres } from './base/db/client.js';
import { openConfiguredDatabase } from './base/db/open.js';
import { postgresSignal } from './base/db/signal.js';
import { openRedis } from './base/redis.js';
import { runPrimary, runsWorkersHere, STOP_MESSAGE } from './cluster.js';
import { checkConnectorSettings } from './couriers/couriers.service.js';
import { DataFileError } from './domain/data-file-issues.js';
import { loadRatesContext } from './data-files.js';
import { warmInBackground } from './http/lazy-schemas.js';
import { startupNotes } from './startup-notes.js';
import { type DeliveryThread, startDeliveryThread } from './delivery-thread.js';

// Log lines are written asynchronously and in batches (base/log-destination.ts); stop() flushes
// what is left.
const logStream = logDestination();

async function main() {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) {
    const log = pino({ level: config.logLevel }, logStream);
    for (const warning of config.warnings) log.warn(warning);
    runPrimary(config.webConcurrency, log, () => logStream.flushSync());
    return;
  }
  // In a cluster the primary said what the settings warn of, and the first process says the rest of
  // start-up's notes, once for all.
  const firstProcess = !cluster.isWorker || cluster.worker?.id === 1;
  // The data files first: a mistake in an operator's edit stops start-up before the database opens.
  const rates = loadRatesContext({ couriersFile: config.couriersFile });
  checkConnectorSettings(rates.catalogue, config.couriers);
  // The app's logger exists only once the app is built; a connection lost before then goes unsaid.
  let connectionLost: ((error: Error, message: string) => void) | undefined;
  const database = await openConfiguredDatabase(config, (error, message) => connectionLost?.(error, message));
  await migrate(database.db);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const workers = runsWorkersHere();
  // The workers' own few connections, so that requests filling the pool never hold them up.
  const workerDatabase = config.databaseUrl && workers ? await openPostgres(config.databaseUrl, WORKER_POOL_SIZE, (error, message) => connectionLost?.(error, message)) : undefined;
  // On PostgreSQL the senders run in a thread of their own (decision 105), started once the server
  // listens (a start that fails, on a busy port, starts none); on the embedded database, which only
  // this thread can open, in process.
  const deliveryInThread = config.databaseUrl !== undefined && config.webhookWorker && workers;
  const inProcessDelivery = config.webhookWorker && workers && !deliveryInThread;
  // Starting or started (or none); stop() waits for a start in progress, then stops it.
  let deliveryThread: Promise<DeliveryThread | undefined> = Promise.resolve(undefined);
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
    weightDisputeWindowDays: config.weightDisputeWindowDays,
    rtoChecks: config.rtoChecks,
    startWorkers: workers,
    webhooks: {
      worker: inProcessDelivery,
      retryDelaysSeconds: config.webhookRetryDelays,
      allowHttp: config.webhookAllowHttp,
      allowPrivate: config.webhookAllowPrivate,
      leaseMarginMs: config.workerLeaseMarginMs,
      concurrency: config.webhookConcurrency,
    },
    notifications: {
      worker: inProcessDelivery,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      retryDelaysSeconds: config.mailRetryDelays,
      leaseMarginMs: config.workerLeaseMarginMs,
    },
    messaging: {
      worker: inProcessDelivery,
      whatsappBaseUrl: config.messaging.whatsappBaseUrl,
      smsBaseUrl: config.messaging.smsBaseUrl,
      retryDelaysSeconds: config.messaging.retryDelays,
      leaseMarginMs: config.workerLeaseMarginMs,
    },
    secretsKey: config.messaging.secretsKey,
    logger: { level: config.logLevel, stream: logStream },
    trustProxy: config.trustProxy,
    limits: {
      ratePerMinute: config.rateLimitPerMinute,
      loginAttemptsPerMinute: config.loginAttemptsPerMinute,
      loginAddressAttemptsPerMinute: config.loginAddressAttemptsPerMinute,
      loginUsernameAttemptsPer15Minutes: config.loginUsernameAttemptsPer15Minutes,
      trackingPagePerMinute: config.trackingPageRatePerMinute,
      redis,
    },
  });

  if (!cluster.isWorker) for (const warning of config.warnings) app.log.warn(warning);
  connectionLost = (error, message) => app.log.warn({ err: error }, message);

  let stopping = false;
  let signalled = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    // close() stops accepting and resolves once in-flight requests have been answered.
    await app.close();
    await (await deliveryThread)?.stop();
    await eventSignal?.close();
    await workerDatabase?.close();
    await database.close();
    await redis?.quit();
    logStream.flushSync();
    process.exit(exitCode);
  };
  // Without its thread the process would take bookings whose webhooks nobody sends: it stops, with
  // an error, for its supervisor (or the cluster's primary) to start it again.
  const deliveryThreadLost = (error: Error) => {
    app.log.fatal({ err: error }, 'the delivery thread ended: stopping the server');
    void stop('delivery thread lost', 1);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    signalled = true;
    void stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // The cluster's primary stops its processes by message (cluster.ts says why not by signal).
  process.on('message', (message) => {
    if (message === STOP_MESSAGE) void stop('SIGTERM');
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Closed before exiting, so the embedded database's lock is released and a start on another
    // port opens it at once.
    await app.close();
    await eventSignal?.close();
    await workerDatabase?.close();
    await database.close();
    await redis?.quit();
    logStream.flushSync();
    throw listenProblem(error, config) ?? error;
  }
  // Started beside the server's first requests rather than before them: the deliveries it owes
  // wait in the database meanwhile, and it reads them from where its cursors are.
  if (deliveryInThread) {
    deliveryThread = startDeliveryThread(app.log, deliveryThreadLost).catch((error: unknown) => {
      deliveryThreadLost(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    });
  }
  app.log.info(
    { engine: database.engine, dataDir: database.engine === 'pglite' ? config.dataDir : undefined },
    `Dakiya is serving; API docs at ${config.publicBaseUrl}/docs`,
  );
  if (firstProcess) for (const note of startupNotes(config, rates.catalogue)) app.log.info(note);
  warmInBackground(
    app.schemaWarmer,
    (error) => app.log.error({ err: error }, 'a route schema does not compile: its requests will fail'),
    (compiled, cpuMs) => app.log.info({ compiled, ms: Math.round(cpuMs) }, 'route schemas compiled'),
  );
}

class RedisUnreachableError extends Error {}

class ListenError extends Error {}

/** A busy port is a setting to change, said in one line; other failures to listen keep their stack. */
function listenProblem(error: unknown, config: { port: number; host: string }): ListenError | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return undefined;
  return new ListenError(`port ${config.port} (PORT) on ${config.host} is already in use: stop what listens there, or set PORT to a free port`);
}

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
  const known = [ConfigError, DataDirLockedError, DataFileError, RedisUnreachableError, ListenError];
  if (known.some((type) => error instanceof type)) {
    console.error(`dakiya: ${(error as Error).message}`);
  } else {
    console.error('dakiya: failed to start', error);
  }
  process.exit(1);
});
