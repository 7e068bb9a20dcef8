import type { FastifyServerOptions } from 'fastify';
import { BUYER_DOCUMENTS, ROUTE_PERMISSIONS, STORE_REACH } from './route-permissions.js';
import { storeLocator } from './shipment-records/store-of.js';
import type { Redis } from 'ioredis';
import { type Clock, systemClock } from './base/clock.js';
import type { Db } from './base/db/client.js';
import { ensureServerSecret } from './base/db/secrets.js';
import { openSecretBox } from './base/db/sealing.js';
import type { Resolver } from './base/outbound/outbound-url.js';
import type { Signal } from './base/db/signal.js';
import { RedisBreaker } from './base/redis.js';
import type { SecretBox } from './base/secret-box.js';
import { defaultRatesContext, ifscDirectory, loadEwayBillRules } from './data-files.js';
import type { IfscDirectory } from './domain/banking/ifsc.js';
import type { RatesContext } from './domain/rates/context.js';
import { createReturnTrackTokens, trackUrlOf } from './domain/shipment/track-links.js';
import { inProcessDelivery } from './events/delivery.js';
import { createEventLog, type EventLog } from './events/event-log.js';
import type { Host } from './http/host.js';
import { createSubjectSnapshots } from './readers/event-snapshots/event-snapshots.js';
import type { Settings } from './settings.js';

/** What an entry point hands buildApp: the settings, and the resources it opened. */
export interface AppDeps {
  db: Db;
  /** Every module's settings (settings.ts: loadSettings at start-up; defaultSettings for tests and tools). */
  settings: Settings;
  /**
   * The connections the in-process senders use, apart from the requests' (`db` when absent): under
   * load, requests fill their pool, and a worker queued behind them sent almost nothing until the
   * load stopped.
   */
  workerDb?: Db;
  /** Tells the other processes on a PostgreSQL database of each event recorded here, and this one of theirs (base/db/signal.ts). */
  signal?: Signal;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Pincode directory, zones, couriers and holidays; the shipped data files by default. */
  rates?: RatesContext;
  /** The bank branches' codes (IFSC) a refund's bank account is checked against; the `ifsc` package's by default. */
  banks?: IfscDirectory;
  /** The limits' counters shared by every API process (opened by main.ts from REDIS_URL); in process when absent. The caller owns it. */
  redis?: Redis;
  /** How the hosts of URLs accounts give are resolved; the system's resolver unless a test names its own hosts. */
  lookup?: Resolver;
  /**
   * Where a server process keeps the key that seals credentials when SECRETS_KEY is not set (its
   * DATA_DIR). Without either, the key is this process's alone (tests, the demo, tools).
   */
  keyDir?: string;
  /** Whether periodic work runs on its timers (default true); tests run rounds themselves (app.courierPoller.runOnce()). */
  timers?: boolean;
  /**
   * Which consumers' senders run in this process (webhooks, notifications, messaging, channel-writeback): all, none,
   * or those named. By default as `settings.processes.deliver` says (WEBHOOK_WORKER).
   */
  delivery?: boolean | readonly string[];
}

/**
 * What every registrar may be handed besides what other modules make: the settings, the database,
 * the clock and data files, the event log, the secrets and links several modules share, the Redis
 * breaker of the limits, and where this process's senders run.
 */
export async function createAppContext(host: Host, deps: AppDeps) {
  const { db, settings } = deps;
  const rates = deps.rates ?? defaultRatesContext();
  const events = eventLogOf(rates, settings, deps.signal);
  const { limits } = settings;
  // One breaker for every limit: they share the connection, so they fail and recover together.
  const breaker =
    deps.redis &&
    new RedisBreaker(deps.redis, {
      timeoutMs: limits.redisTimeoutMs,
      probeIntervalMs: limits.redisProbeIntervalMs,
      log: host.log,
    });
  if (breaker) host.onClose(() => breaker.stop());
  return {
    db,
    settings,
    rates,
    /** Rule 138's exempt goods and State limits (data/eway-bill-*.json), checked against the directory's States. */
    ewayBillRules: loadEwayBillRules(rates.directory),
    banks: deps.banks ?? ifscDirectory,
    events,
    breaker,
    lookup: deps.lookup,
    clock: deps.clock ?? systemClock,
    trackUrl: trackUrlOf(settings.server.publicBaseUrl),
    secretBox: await openSealing(host, db, settings, { keyDir: deps.keyDir, speak: true }),
    routePermissions: ROUTE_PERMISSIONS,
    buyerDocuments: BUYER_DOCUMENTS,
    storeReach: STORE_REACH,
    locateStores: storeLocator(db),
    returnTrackTokens: createReturnTrackTokens(await ensureServerSecret(db, 'return-track-links')),
    delivery: inProcessDelivery(host, {
      db: deps.workerDb ?? db,
      events,
      runs: deps.delivery ?? settings.processes.deliver,
      pace: settings.workers,
    }),
  };
}

/** Services record their changes' events through this, in their own transactions, with the subjects' snapshots the readers make. */
export function eventLogOf(rates: RatesContext, settings: Settings, signal: Signal | undefined): EventLog {
  const trackUrl = trackUrlOf(settings.server.publicBaseUrl);
  return createEventLog({ snapshots: createSubjectSnapshots({ catalogue: rates.catalogue, trackUrl }), signal });
}

/**
 * The box that seals the credentials accounts store (couriers', messaging channels'), its key from
 * outside the database (base/db/sealing.ts). A process that `speak`s says at once what it
 * re-sealed, and once it serves what the operator should know of the key.
 */
export async function openSealing(
  host: Host,
  db: Db,
  settings: Settings,
  { keyDir, speak }: { keyDir: string | undefined; speak: boolean },
): Promise<SecretBox> {
  const warn = (message: string) => (speak ? host.log.warn(message) : undefined);
  const { box, advice } = await openSecretBox(db, { secretsKey: settings.secrets.key, dataDir: keyDir }, warn);
  host.onListen(() => {
    for (const message of advice) warn(message);
  });
  return box;
}
