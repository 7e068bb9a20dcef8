import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { type App, buildApp } from '../../src/app.js';
import { type Database, openPglite, openPostgres } from '../../src/base/db/client.js';
import { migrate } from '../../src/base/db/migrate.js';
import { defaultSettings, type Settings, type SettingsOverrides, withOverrides } from '../../src/settings.js';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
/**
 * High enough never to answer 429 under load, yet on: the benchmarks measure what the per-account
 * limiter costs every request, as a deployment pays it.
 */
export const BENCH_LIMITS = {
  // BENCH_RATE_LIMIT_PER_MINUTE=0 runs without the limiter, to compare.
  limits: { ratePerMinute: Number(process.env.BENCH_RATE_LIMIT_PER_MINUTE ?? 1_000_000_000) },
  accounts: { loginAttemptsPerMinute: 1_000_000 },
};

/** The benchmarks' settings: the defaults, a local public address, an operator token and BENCH_LIMITS, with `overrides`. */
export function benchSettings(overrides: SettingsOverrides<Settings> = {}): Settings {
  const base = defaultSettings({
    ...BENCH_LIMITS,
    server: { publicBaseUrl: 'http://127.0.0.1', adminToken: BENCH_ADMIN_TOKEN },
  });
  return withOverrides(base, overrides);
}

export interface RunningApp {
  app: App;
  database: Database;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The first API key of the account created for the run. */
  apiKey: string;
  accountId: string;
  close(): Promise<void>;
}

export interface StartAppOptions {
  /**
   * A PostgreSQL URL to run against (migrated first); without it, an in-memory PGlite database,
   * so a run leaves nothing behind.
   */
  databaseUrl?: string;
  accountName?: string;
  /** Settings over benchSettings()'s (a benchmark's webhook receiver listens on 127.0.0.1, so it allows private http targets). */
  settings?: SettingsOverrides<Settings>;
}

/**
 * The real application, as main.ts wires it but with the logger off, listening on 127.0.0.1 on a
 * random port, with an account created through the operator API over HTTP.
 */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const database = options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPglite();
  await migrate(database.db);
  // BENCH_REDIS_URL measures the limiter with its counters in Redis (a round trip per request);
  // the keys expire with their one-minute window.
  const redis = process.env.BENCH_REDIS_URL ? new Redis(process.env.BENCH_REDIS_URL) : undefined;
  const settings = benchSettings(options.settings);
  const app = await buildApp({
    db: database.db,
    settings: withOverrides(settings, {
      limits: { ...settings.limits, redisKeyPrefix: `dakiya-bench:${randomUUID()}:` },
    }),
    logger: false,
    redis,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const response = await fetch(`${url}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: options.accountName ?? 'Benchmark' }),
  });
  if (response.status !== 201) throw new Error(`account creation failed: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { data: { id: string }; api_key: string };

  return {
    app,
    database,
    url,
    port,
    apiKey: created.api_key,
    accountId: created.data.id,
    async close() {
      await app.close();
      await database.close();
      await redis?.quit();
    },
  };
}
