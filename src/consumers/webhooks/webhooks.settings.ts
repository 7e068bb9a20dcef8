import { count, custom, delays, fixed } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** How many webhook sends one worker runs at once: in all, for one account and for one endpoint. */
export interface SendLimits {
  readonly total: number;
  readonly perAccount: number;
  readonly perEndpoint: number;
}

/** About 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
export const DEFAULT_RETRY_DELAYS: readonly number[] = [5, 60, 300, 1800, 7200, 21600, 43200, 86400];

/**
 * An account's receivers hold at most a quarter of a worker's sends, however slow; one endpoint as
 * many as its account: at 10 ms an answer, 800 a second (decision 57).
 */
export const DEFAULT_WEBHOOK_CONCURRENCY: SendLimits = Object.freeze({ total: 32, perAccount: 8, perEndpoint: 8 });

/** How webhook sends are retried, and how many run at once (where they may go: base/outbound). */
export const webhookSettings = defineSettings(
  {
    retryDelaysSeconds: delays('WEBHOOK_RETRY_DELAYS', {
      doc: 'seconds between webhook delivery attempts; one attempt more than there are delays',
      default: DEFAULT_RETRY_DELAYS,
    }),
    concurrency: count('WEBHOOK_CONCURRENCY', {
      doc: 'webhook sends one process runs at once',
      default: DEFAULT_WEBHOOK_CONCURRENCY.total,
      min: 1,
      max: 1000,
    }),
    concurrencyPerAccount: share('WEBHOOK_CONCURRENCY_PER_ACCOUNT', {
      doc: "of those, the most one account's deliveries may hold, so that its slow receivers never hold up another account's",
      shownDefault: '`8`',
      range: '1 to `WEBHOOK_CONCURRENCY`',
    }),
    concurrencyPerEndpoint: share('WEBHOOK_CONCURRENCY_PER_ENDPOINT', {
      doc: 'the most requests one process sends one endpoint at once',
      shownDefault: '`8`',
      range: '1 to `WEBHOOK_CONCURRENCY_PER_ACCOUNT`',
    }),
    timeoutMs: count('WEBHOOK_TIMEOUT_MS', {
      doc: "how long a receiver has to answer one webhook send with its 2xx, in milliseconds; a send in flight holds its delivery's lease this long, so a crashed process's sends go again after it",
      default: 10_000,
      min: 1000,
      max: 60_000,
    }),
    /**
     * How long after its lease a queued delivery may still be sent: an endpoint disabled or deleted
     * meanwhile gets at most this much of what was queued for it, and a slow receiver's batch goes
     * back to be shared out again.
     */
    laneWindowMs: fixed(5000, 'How long a queued delivery may wait for a lane.'),
  },
  ({ concurrency: total, concurrencyPerAccount, concurrencyPerEndpoint, ...rest }, report) => {
    // Each limit within the one above it: an account's share is at most the worker's, an
    // endpoint's at most its account's.
    const within = (name: string, raw: string | undefined, fallback: number, most: number) => {
      if (raw === undefined) return Math.min(fallback, most);
      if (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= most) return Number(raw);
      report.problem(`${name} must be a whole number from 1 to ${most}, got "${raw}"`);
      return most;
    };
    const { perAccount: accountShare, perEndpoint: endpointShare } = DEFAULT_WEBHOOK_CONCURRENCY;
    const perAccount = within('WEBHOOK_CONCURRENCY_PER_ACCOUNT', concurrencyPerAccount, accountShare, total);
    const perEndpoint = within('WEBHOOK_CONCURRENCY_PER_ENDPOINT', concurrencyPerEndpoint, endpointShare, perAccount);
    return { ...rest, concurrency: { total, perAccount, perEndpoint } as SendLimits };
  },
);

/** A share of WEBHOOK_CONCURRENCY, read as written: its range depends on the limit above it (checked in finish). */
function share(env: string, about: { doc: string; shownDefault: string; range: string }) {
  return custom<string | undefined>(env, { ...about, type: 'whole number', default: undefined, parse: (raw) => raw });
}

export type WebhookSettings = SettingsOf<typeof webhookSettings>;
