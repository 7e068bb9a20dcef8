import { count, flag } from './base/setting-kinds.js';
import { defineSettings, type SettingsOf } from './base/settings.js';

/**
 * PostgreSQL connections one `npm start` holds in all over its WEB_CONCURRENCY processes: of
 * PostgreSQL's default max_connections of 100, this leaves 20 for `npm run worker`, psql,
 * migrations and a second instance starting during a deploy.
 */
export const CLUSTER_CONNECTION_BUDGET = 80;
/** Each API process's connections for its in-process event-log workers, beside the requests' pool. */
export const WORKER_POOL_SIZE = 3;
/** The delivery thread's connections: its webhook and e-mail workers run side by side (decision 116). */
export const DELIVERY_POOL_SIZE = 4;
/**
 * Beside its requests' pool, each API process holds its in-process workers' pool and its LISTEN
 * connection, and (on PostgreSQL) its delivery thread's pool and LISTEN connection (decision 105).
 */
const CONNECTIONS_BESIDE_POOL = WORKER_POOL_SIZE + 1 + DELIVERY_POOL_SIZE + 1;

/** The processes `npm start` runs, their connections, and which of them send the event log's deliveries. */
export const processSettings = defineSettings(
  {
    webConcurrency: count('WEB_CONCURRENCY', {
      doc: 'server processes `npm start` runs on the one port (`node:cluster`), each with its own pool, the first of them also running the background work (webhooks, e-mails, tracking polls), a dead one restarted; above 1 only with `DATABASE_URL` (start-up stops otherwise). [docs/operations.md](docs/operations.md#several-processes-and-machines)',
      default: 1,
      min: 1,
      max: 64,
    }),
    databasePoolSize: count('DATABASE_POOL_SIZE', {
      doc: "PostgreSQL connections in each API process's pool; add up every process's against PostgreSQL's `max_connections`",
      default: undefined,
      shownDefault: '`10`, or 80 ÷ `WEB_CONCURRENCY` − 9 above 4 processes (at least 2)',
      min: 1,
      max: 1000,
    }),
    deliver: flag('WEBHOOK_WORKER', {
      doc: 'whether the API process runs the event-log worker itself (webhook deliveries, customer e-mails and buyer messages; on PostgreSQL from a thread of its own); `false` when `npm run worker` does it apart',
      default: true,
    }),
  },
  (values) => ({
    ...values,
    // All the processes' connections together stay within the budget; each request pool has at
    // most 10 and at least 2 (a booking's transaction and another request at once).
    databasePoolSize:
      values.databasePoolSize ??
      Math.max(
        2,
        Math.min(10, Math.floor(CLUSTER_CONNECTION_BUDGET / values.webConcurrency) - CONNECTIONS_BESIDE_POOL),
      ),
  }),
);

export type ProcessSettings = SettingsOf<typeof processSettings>;
