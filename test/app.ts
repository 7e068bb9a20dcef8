import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type App, buildApp } from '../src/app.js';
import type { AppDeps } from '../src/app-context.js';
import type { Clock } from '../src/base/clock.js';
import type { Database } from '../src/base/db/client.js';
import { openTestDatabase } from './databases.js';
import { withConnectors } from '../src/couriers/with-connectors.js';
import { defaultRatesContext } from '../src/data-files.js';
import type { RatesContext } from '../src/domain/rates/context.js';
import { defaultSettings, type Settings, type SettingsOverrides, withOverrides } from '../src/settings.js';

/**
 * The shipped catalogue with every service on `push`, each with an AWB series its courier allotted
 * (the service's prefix and ten digits, as Dakiya's own series writes them): couriers the tests
 * play themselves, posting scans to POST /carrier/v1/tracking-events and reading instructions at
 * GET /carrier/v1/actions, with real (not test) bookings. The shipped file books on the sandbox;
 * tests of the sandbox or of test bookings pass their own `rates`.
 */
export const PUSH_RATES = allotSeries(withConnectors(defaultRatesContext(), () => 'push'));

function allotSeries(rates: RatesContext): RatesContext {
  const services = rates.catalogue.services.map((s) => ({
    ...s,
    awbSeries: { prefix: s.awbPrefix, first: 1, last: 9_999_999_999, digits: 10 },
  }));
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}

/** The shipped catalogue on push without allotted series: every booking a test booking. */
export const TEST_AWB_RATES = withConnectors(defaultRatesContext(), () => 'push');

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The key every test app seals credentials with, so that two apps on one database open each other's. */
export const TEST_SECRETS_KEY = 'test-secrets-key-0123456789abcdefghijklmnop';
export const PUBLIC_BASE_URL = 'https://dakiya.test';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private current: number;
  constructor(start = '2026-11-20T06:30:00.000Z') {
    this.current = Date.parse(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
}

export interface TestContext {
  app: App;
  database: Database;
  clock: TestClock;
  /** The app's DATA_DIR: a folder of its own, removed as it closes (accounts' exports are written there). */
  dataDir: string;
  /** Creates an account through the operator API; returns its id and first API key. */
  createAccount(name?: string, login?: { username: string; password: string }): Promise<{ id: string; apiKey: string }>;
  close(): Promise<void>;
}

let accountCounter = 0;

/**
 * The tests' settings: every module's defaults, with the tests' public base URL and operator
 * token, and `overrides` over them (short retry delays and lease margins, limits, couriers'
 * simulators' base URLs): `testSettings({ webhooks: { retryDelaysSeconds: [0.05] } })`.
 */
export function testSettings(overrides: SettingsOverrides<Settings> = {}): Settings {
  return withOverrides(
    defaultSettings({
      server: { publicBaseUrl: PUBLIC_BASE_URL, adminToken: ADMIN_TOKEN },
      // Two apps on one database open each other's credentials, as two processes of a server do.
      secrets: { key: TEST_SECRETS_KEY },
      // The same scrypt at the lowest cost the setting takes: the suite signs in thousands of times,
      // and at the default's 50 ms of a core each that was most of the login tests' time. The default
      // cost is what the servers the tests start as processes use (npm start, the CLI, the demo).
      accounts: { passwordHashCost: 1024 },
    }),
    overrides,
  );
}

export interface TestAppOptions {
  database?: Database;
  clock?: TestClock;
  logger?: AppDeps['logger'];
  /** The shipped data on push (PUSH_RATES) unless given. */
  rates?: RatesContext;
  /** Settings over testSettings()'s, as start-up assembles them. */
  settings?: SettingsOverrides<Settings>;
  /**
   * Whose senders run in the app: none unless named (`['webhooks']`, `['notifications']`,
   * `['messaging']`, `['channel-writeback']`), since each would only compete for the embedded database's one connection.
   */
  delivery?: readonly string[];
  /** Redis for the limits' shared counters (test/redis.ts). */
  redis?: AppDeps['redis'];
  /** The webhooks' resolver of host names, for tests that name their own hosts. */
  lookup?: AppDeps['lookup'];
  /** Where the sealing key file is kept, as a server's DATA_DIR (with `settings.secrets.key` unset). */
  keyDir?: string;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const clock = options.clock ?? new TestClock();
  // Its own DATA_DIR, never the checkout's ./data: what the app writes there goes as it closes.
  const ownDataDir = options.settings?.database?.dataDir === undefined;
  const dataDir = options.settings?.database?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dakiya-test-data-'));
  const app = await buildApp({
    db: database.db,
    clock,
    settings: testSettings({ ...options.settings, database: { ...options.settings?.database, dataDir } }),
    logger: options.logger,
    rates: options.rates ?? PUSH_RATES,
    redis: options.redis,
    lookup: options.lookup,
    // Tests run the tracking poller's and the checks' rounds themselves (app.courierPoller.runOnce()).
    timers: false,
    delivery: options.delivery ?? false,
    keyDir: options.keyDir,
  });
  return {
    app,
    database,
    clock,
    dataDir,
    async createAccount(name = `Account ${++accountCounter}`, login) {
      const response = await app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name, ...login },
      });
      if (response.statusCode !== 201) throw new Error(`account creation failed: ${response.body}`);
      const body = response.json();
      return { id: body.data.id, apiKey: body.api_key };
    },
    async close() {
      await app.close();
      await database.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test file's app, made before its first test and closed after its last. `ready` receives it,
 * to keep it and to prepare what the file's tests share (courier tokens, say) before they run.
 */
export function useTestApp(ready: (ctx: TestContext) => void | Promise<void>): void {
  let made: TestContext | undefined;
  beforeAll(async () => {
    made = await createTestApp();
    await ready(made);
  });
  afterAll(async () => {
    await made?.close();
  });
}
