import { mailSettings } from './base/mailer.settings.js';
import { databaseSettings } from './base/db/database.settings.js';
import { outboundSettings } from './base/outbound/outbound.settings.js';
import { secretSettings } from './base/secret-box.settings.js';
import {
  type AnyFragment,
  type Assembled,
  type AssembledSettings,
  assembleSettings,
  type Env,
  type SettingsOverrides,
  withOverrides,
} from './base/settings.js';
import { processSettings } from './cluster.settings.js';
import { channelWritebackSettings } from './consumers/channel-writeback/channel-writeback.settings.js';
import { messagingSettings } from './consumers/messaging/messaging.settings.js';
import { notificationSettings } from './consumers/notifications/notifications.settings.js';
import { trackingPageSettings } from './consumers/tracking-page/tracking-page.settings.js';
import { webhookSettings } from './consumers/webhooks/webhooks.settings.js';
import { privacySettings } from './consumers/privacy/privacy.settings.js';
import { retentionSettings } from './consumers/retention/retention.settings.js';
import { channelSettings } from './channels/channels.settings.js';
import { courierSettings } from './couriers/couriers.settings.js';
import { workerSettings } from './events/workers.settings.js';
import { chargeSettings } from './features/charges/charges.settings.js';
import { labelSettings } from './features/labels/labels.settings.js';
import { orderSettings } from './features/orders/orders.settings.js';
import { salesChannelSettings } from './features/sales-channels/sales-channels.settings.js';
import { trackingSettings } from './features/tracking/tracking.settings.js';
import { limitSettings } from './http/limits.settings.js';
import { serverSettings } from './http/server.settings.js';
import { accountSettings } from './tenancy/accounts/accounts.settings.js';

/**
 * Every module's settings fragment, by the name its values go under (`settings.webhooks.…`), in the
 * order the configuration tables list them. A new module's fragment is one line here.
 */
export const FRAGMENTS = {
  server: serverSettings,
  database: databaseSettings,
  processes: processSettings,
  limits: limitSettings,
  accounts: accountSettings,
  trackingPage: trackingPageSettings,
  labels: labelSettings,
  orders: orderSettings,
  charges: chargeSettings,
  couriers: courierSettings,
  channels: channelSettings,
  salesChannels: salesChannelSettings,
  tracking: trackingSettings,
  workers: workerSettings,
  outbound: outboundSettings,
  webhooks: webhookSettings,
  mail: mailSettings,
  notifications: notificationSettings,
  messaging: messagingSettings,
  channelWriteback: channelWritebackSettings,
  retention: retentionSettings,
  privacy: privacySettings,
  secrets: secretSettings,
} as const satisfies Record<string, AnyFragment>;

/** The whole configuration: each module's settings under its name. */
export type Settings = Assembled<typeof FRAGMENTS>;
export type { SettingsOverrides };

/**
 * Reads the environment once, the only place that does: every module's settings, checked, every
 * bad value named in one ConfigError. `defaults` stand in for variables the environment leaves
 * unset (the demo's faster sandbox). Nothing else reads process.env; what it is handed is frozen.
 */
export function loadSettings(env: Env = process.env, defaults: Env = {}): AssembledSettings<Settings> {
  const merged: Record<string, string | undefined> = { ...defaults };
  for (const [name, value] of Object.entries(env)) if (value?.trim()) merged[name] = value;
  return assembleSettings(FRAGMENTS, merged, (settings, report) => {
    const { webConcurrency } = settings.processes;
    const processes = `${processSettings.settings.webConcurrency.env}=${webConcurrency}`;
    const database = databaseSettings.settings.databaseUrl.env;
    if (webConcurrency > 1 && settings.database.databaseUrl === undefined) {
      report.problem(
        `${processes} needs ${database}: the embedded database (PGlite) is opened by one process only; set ${database} to a PostgreSQL server or ${processSettings.settings.webConcurrency.env} to 1`,
      );
    }
    const redis = limitSettings.settings.redisUrl.env;
    if (webConcurrency > 1 && settings.limits.redisUrl === undefined) {
      report.warn(
        `${processes} without ${redis}: each process counts the request and login limits on its own, ` +
          `so a client may get up to ${webConcurrency} times each limit. Set ${redis} to share the counters.`,
      );
    }
  });
}

/** The settings with an empty environment: every default, for tests and tools that set what they need. */
export const defaultSettings = (overrides: SettingsOverrides<Settings> = {}): Settings =>
  withOverrides(loadSettings({}).settings, overrides);

export { withOverrides };

/** Set by the cluster's primary on each process it forks: which slot it fills; the first slot's runs the cluster's workers (cluster.ts). */
export const CLUSTER_SLOT = 'DAKIYA_CLUSTER_SLOT';

/** This process's cluster slot, if the primary forked it. */
export const clusterSlot = (): string | undefined => process.env[CLUSTER_SLOT];

/** Where `npm run` was started (npm sets INIT_CWD): the CLI resolves the files it is given against it. */
export const invocationDirectory = (): string => process.env.INIT_CWD ?? '.';

/** The environment a child process (psql) inherits, with `extra` added. */
export const childEnvironment = (extra: Env = {}): Env => ({ ...process.env, ...extra });
