import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type App, buildApp } from './app.js';
import { type Database, openPostgres } from './base/db/client.js';
import { migrate } from './base/db/migrate.js';
import { openConfiguredDatabase } from './base/db/open.js';
import { postgresSignal, type Signal } from './base/db/signal.js';
import type { LogDestination } from './base/log-destination.js';
import { openRedis } from './base/redis.js';
import { runsWorkersHere } from './cluster.js';
import { WORKER_POOL_SIZE } from './cluster.settings.js';
import { checkConnectorSettings } from './couriers/couriers.settings.js';
import { loadRatesContext } from './data-files.js';
import { type DeliveryThread, startDeliveryThread } from './delivery-thread.js';
import { warmInBackground } from './http/lazy-schemas.js';
import type { Settings } from './settings.js';
import { startupNotes } from './startup-notes.js';

export class RedisUnreachableError extends Error {}

export class ListenError extends Error {}

export interface Server {
  readonly log: FastifyBaseLogger;
  /**
   * Listens, then starts the delivery thread (on PostgreSQL) beside the first requests and says
   * start-up's notes. A port already in use closes everything and throws a ListenError.
   */
  listen(onDeliveryLost: (error: Error) => void): Promise<void>;
  /** Closes what is open: no new connections, requests in flight answered, then the rest; once. */
  close(): Promise<void>;
}

/**
 * One API server process's resources, opened in order: the data files (a mistake in an operator's
 * edit stops start-up before the database opens), the databases, Redis and the app. close() is the
 * one clean-up, whether start-up failed part way or the process is stopping.
 */
export async function openServer(
  settings: Settings,
  warnings: readonly string[],
  logStream: LogDestination,
): Promise<Server> {
  const rates = loadRatesContext({ couriersFile: settings.couriers.catalogueFile });
  checkConnectorSettings(rates.catalogue, settings.couriers);
  const workersHere = runsWorkersHere();
  // On PostgreSQL the senders run in a thread of their own (decision 105), started once the server
  // listens (a start that fails, on a busy port, starts none); on the embedded database, which only
  // this thread can open, in process.
  const { databaseUrl } = settings.database;
  const deliveryInThread = databaseUrl !== undefined && settings.processes.deliver && workersHere;
  // The app's logger exists only once the app is built; a connection lost before then goes unsaid.
  let connectionLost: ((error: Error, message: string) => void) | undefined;
  const lost = (error: Error, message: string) => connectionLost?.(error, message);
  let database: Database | undefined;
  let workerDatabase: Database | undefined;
  let redis: Redis | undefined;
  let signal: Signal | undefined;
  let app: App | undefined;
  // Starting or started (or none); close() stops it either way.
  let thread: DeliveryThread | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // close() stops accepting and resolves once in-flight requests have been answered.
      await app?.close();
      await thread?.stop();
      await signal?.close();
      await workerDatabase?.close();
      // Closed before exiting, so the embedded database's lock is released and a start on another
      // port opens it at once.
      await database?.close();
      await redis?.quit();
    })();
    return closing;
  };
  try {
    database = await openConfiguredDatabase(
      { ...settings.database, poolSize: settings.processes.databasePoolSize },
      lost,
    );
    await migrate(database.db);
    redis = settings.limits.redisUrl ? await connectRedis(settings.limits.redisUrl) : undefined;
    // The workers' own few connections, so that requests filling the pool never hold them up.
    workerDatabase = databaseUrl && workersHere ? await openPostgres(databaseUrl, WORKER_POOL_SIZE, lost) : undefined;
    signal = databaseUrl
      ? postgresSignal(databaseUrl, (error) => lost(error, 'event signal connection lost'))
      : undefined;
    app = await buildApp({
      db: database.db,
      settings,
      signal,
      workerDb: workerDatabase?.db,
      rates,
      redis,
      logger: { level: settings.server.logLevel, stream: logStream },
      timers: workersHere,
      delivery: settings.processes.deliver && workersHere && !deliveryInThread,
      keyDir: settings.database.dataDir,
    });
  } catch (error) {
    await close();
    throw error;
  }
  const served = app;
  // In a cluster the primary said what the settings warn of.
  if (!cluster.isWorker) for (const warning of warnings) served.log.warn(warning);
  connectionLost = (error, message) => served.log.warn({ err: error }, message);
  return {
    log: served.log,
    close,
    async listen(onDeliveryLost) {
      const { port, host } = settings.server;
      try {
        await served.listen({ port, host });
      } catch (error) {
        await close();
        throw listenProblem(error, settings) ?? error;
      }
      // Started beside the server's first requests rather than before them: the deliveries it owes
      // wait in the database meanwhile, and it reads them from where its cursors are.
      if (deliveryInThread) {
        thread = startDeliveryThread(served.log, onDeliveryLost);
      }
      served.log.info(
        { engine: database.engine, dataDir: database.engine === 'pglite' ? settings.database.dataDir : undefined },
        `Dakiya is serving; API docs at ${settings.server.publicBaseUrl}/docs`,
      );
      // The first process of a cluster says start-up's notes, once for all.
      if (!cluster.isWorker || cluster.worker?.id === 1) {
        for (const note of startupNotes(settings, rates.catalogue)) served.log.info(note);
      }
      warmInBackground(
        served.schemaWarmer,
        (error) => served.log.error({ err: error }, 'a route schema does not compile: its requests will fail'),
        (compiled, cpuMs) => served.log.info({ compiled, ms: Math.round(cpuMs) }, 'route schemas compiled'),
      );
    },
  };
}

/** A busy port is a setting to change, said in one line; other failures to listen keep their stack. */
function listenProblem(error: unknown, settings: Settings): ListenError | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return undefined;
  const { port, host } = settings.server;
  return new ListenError(
    `port ${port} (PORT) on ${host} is already in use: stop what listens there, or set PORT to a free port`,
  );
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
