import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS } from '../consumers/webhooks/webhooks.settings.js';
import { nextAttemptAt, shouldDisable } from './retry.js';

const NOW = new Date('2026-11-21T09:15:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

describe('nextAttemptAt', () => {
  const cases: [string, number, readonly number[], number, string | null][] = [
    ['after the first failure, about 5 s (no spread at random 0.5)', 1, DEFAULT_RETRY_DELAYS, 0.5, at(5_000)],
    ['the spread reaches 80 % at random 0', 1, DEFAULT_RETRY_DELAYS, 0, at(4_000)],
    [
      'and nearly 120 % at random near 1',
      2,
      DEFAULT_RETRY_DELAYS,
      0.999999,
      at(Math.round(60_000 * (0.8 + 0.4 * 0.999999))),
    ],
    ['the eighth delay is 24 h', 8, DEFAULT_RETRY_DELAYS, 0.5, at(86_400_000)],
    ['after the ninth attempt there is none', 9, DEFAULT_RETRY_DELAYS, 0.5, null],
    ['a test schedule in fractions of a second', 1, [0.05], 0.5, at(50)],
    ['spent after its only retry', 2, [0.05], 0.5, null],
  ];
  for (const [name, attempts, delays, random, expected] of cases) {
    it(name, () => expect(nextAttemptAt(attempts, delays, NOW, random)?.toISOString() ?? null).toBe(expected));
  }
  it('the default schedule is 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h', () => {
    expect(DEFAULT_RETRY_DELAYS).toEqual([5, 60, 300, 1800, 7200, 21600, 43200, 86400]);
  });
});

describe('shouldDisable', () => {
  const hour = 3_600_000;
  const cases: [string, Date | null, number, boolean][] = [
    ['never failed', null, 0, false],
    ['failing for 23 h 59 min', new Date(NOW.getTime() - 24 * hour + 60_000), 3, false],
    ['failing for 24 h', new Date(NOW.getTime() - 24 * hour), 3, true],
    ['19 events in a row', new Date(NOW.getTime() - hour), 19, false],
    ['20 events in a row', new Date(NOW.getTime() - hour), 20, true],
  ];
  for (const [name, since, failed, disabled] of cases) {
    it(name, () => expect(shouldDisable(since, failed, NOW)).toBe(disabled));
  }
});
