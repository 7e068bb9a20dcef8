import { count, fixed, url } from '../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../base/settings.js';

/** The request limits' counters (in Redis when shared) and the accounts' allowance on the API. */
export const limitSettings = defineSettings({
  ratePerMinute: count('RATE_LIMIT_PER_MINUTE', {
    doc: 'requests per minute per account on the `/custom/api/v1` routes; `0` turns the limit off',
    default: 6000,
    min: 0,
    max: 100_000_000,
  }),
  redisUrl: url('REDIS_URL', {
    doc: "a Redis server holding the limits' counters, shared by every API process; without it, and while it fails, each process counts on its own. Checked at start-up",
    protocols: ['redis:', 'rediss:'],
  }),
  redisKeyPrefix: fixed('dakiya:', 'Prefix of every Redis key this app writes (tests keep theirs apart).'),
  redisTimeoutMs: fixed(
    200,
    'A Redis command of the limits slower than this counts as Redis failing: the limits go per process.',
  ),
  redisProbeIntervalMs: fixed(2_000, 'While Redis is failing, how often it is pinged to see whether it is back.'),
});

export type LimitSettings = SettingsOf<typeof limitSettings>;
