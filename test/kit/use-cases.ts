import { eventLogOf } from '../../src/app-context.js';
import type { Db } from '../../src/base/db/client.js';
import type { RatesContext } from '../../src/domain/rates/context.js';
import type { EventLog } from '../../src/events/event-log.js';
import type { Settings } from '../../src/settings.js';
import {
  createTestApp,
  PUSH_RATES,
  TEST_SECRETS_KEY,
  type TestAppOptions,
  type TestContext,
  testSettings,
} from '../app.js';
import { createSecretBox, type SecretBox } from '../../src/base/secret-box.js';
import { ifscDirectory } from '../../src/data-files.js';
import type { IfscDirectory } from '../../src/domain/banking/ifsc.js';

/** What a use case's service is built from in a test, beside the app that seeds its database. */
export interface UseCaseContext extends TestContext {
  db: Db;
  settings: Settings;
  rates: RatesContext;
  events: EventLog;
  /** Seals as the test app does (its fixed key), so either opens what the other sealed. */
  secretBox: SecretBox;
  banks: IfscDirectory;
}

/**
 * A use case's service tested as a function, without HTTP, over a real database of its own (the
 * project's engine: PGlite, and the PostgreSQL server in CI). The test app on the same database
 * seeds it through the API, as merchants and couriers do, and the service under test is built from
 * the parts the composition root hands it (`db`, `clock`, `settings`, `rates`, `events`).
 */
export async function useCaseContext(options: TestAppOptions = {}): Promise<UseCaseContext> {
  const ctx = await createTestApp(options);
  const settings = testSettings(options.settings);
  const rates = options.rates ?? PUSH_RATES;
  return {
    ...ctx,
    db: ctx.database.db,
    settings,
    rates,
    events: eventLogOf(rates, settings, undefined),
    secretBox: createSecretBox(settings.secrets.key ?? TEST_SECRETS_KEY),
    banks: ifscDirectory,
  };
}

/** What the tracking intake (and so the tracking service) is built from, as tracking.register.ts hands it in. */
export const scanIntakeDeps = (ctx: UseCaseContext) => ({
  db: ctx.db,
  clock: ctx.clock,
  catalogue: ctx.rates.catalogue,
  directory: ctx.rates.directory,
  events: ctx.events,
  earlyScanSeconds: ctx.settings.tracking.earlyScanSeconds,
});
