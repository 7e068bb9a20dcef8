import { afterAll, beforeAll } from 'vitest';
import { type App, type AppDeps, buildApp } from '../src/app.js';
import type { Clock } from '../src/base/clock.js';
import type { Database } from '../src/base/db/client.js';
import { openTestDatabase } from './databases.js';
import { withConnectors } from '../src/couriers/with-connectors.js';
import { defaultRatesContext } from '../src/data-files.js';
import type { RatesContext } from '../src/domain/rates/context.js';

/**
 * The shipped catalogue with every service on `push`, each with an AWB series its courier allotted
 * (the service's prefix and ten digits, as Dakiya's own series writes them): couriers the tests
 * play themselves, posting scans to POST /carrier/v1/tracking-events and reading instructions at
 * GET /carrier/v1/actions, with real (not test) bookings. The shipped file books on the sandbox;
 * tests of the sandbox or of test bookings pass their own `rates`.
 */
export const PUSH_RATES = allotSeries(withConnectors(defaultRatesContext(), () => 'push'));

function allotSeries(rates: RatesContext): RatesContext {
  const services = rates.catalogue.services.map((s) => ({ ...s, awbSeries: { prefix: s.awbPrefix, first: 1, last: 9_999_999_999, digits: 10 } }));
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}

/** The shipped catalogue on push without allotted series: every booking a test booking. */
export const TEST_AWB_RATES = withConnectors(defaultRatesContext(), () => 'push');

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
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
  /** Creates an account through the operator API; returns its id and first API key. */
  createAccount(name?: string, login?: { username: string; password: string }): Promise<{ id: string; apiKey: string }>;
  close(): Promise<void>;
}

let accountCounter = 0;

export async function createTestApp(
  options: {
    database?: Database;
    logger?: AppDeps['logger'];
    limits?: AppDeps['limits'];
    rates?: AppDeps['rates'];
    couriers?: AppDeps['couriers'];
    clock?: TestClock;
    webhooks?: AppDeps['webhooks'];
    notifications?: AppDeps['notifications'];
    messaging?: AppDeps['messaging'];
    trustProxy?: AppDeps['trustProxy'];
  } = {},
): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const clock = options.clock ?? new TestClock();
  const app = await buildApp({
    db: database.db,
    clock,
    adminToken: ADMIN_TOKEN,
    publicBaseUrl: PUBLIC_BASE_URL,
    logger: options.logger,
    trustProxy: options.trustProxy,
    limits: options.limits,
    rates: options.rates ?? PUSH_RATES,
    couriers: options.couriers,
    // Tests run the tracking poller's rounds themselves (app.courierPoller.runOnce()).
    startWorkers: false,
    // The delivery worker runs where a test asks for webhook settings; elsewhere it would only
    // compete for the embedded database's single connection.
    webhooks: options.webhooks ?? { worker: false },
    // Likewise the customer e-mails' worker.
    notifications: options.notifications ?? { worker: false },
    // And buyer messaging's.
    messaging: options.messaging ?? { worker: false },
  });
  return {
    app,
    database,
    clock,
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
