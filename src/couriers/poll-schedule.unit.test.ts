import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, nextPollDelayMs, pollingEnded } from './poll-schedule.js';

const NOW = new Date('2026-11-20T06:30:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const MIN = 60_000;

describe('nextPollDelayMs (base 15 minutes)', () => {
  it.each([
    ['out_for_delivery', 0, 0, 15 * MIN],
    ['ndr_raised', 0, 0, 15 * MIN],
    ['rto_in_transit', 0, 0, 15 * MIN],
    ['in_transit', 0, 0, 30 * MIN],
    ['others', 0, 0, 30 * MIN],
    ['pending', 0, 0, 60 * MIN],
    ['in_transit', 8, 0, 120 * MIN],
    ['in_transit', 31, 0, 480 * MIN],
    ['out_for_delivery', 31, 0, 240 * MIN],
    ['in_transit', 0, 1, 30 * MIN],
    ['in_transit', 0, 3, 120 * MIN],
    ['in_transit', 0, 10, MAX_BACKOFF_MS],
  ])('%s, booked %i days ago, %i failures: %i ms', (status, age, failures, expected) => {
    expect(nextPollDelayMs(status, daysAgo(age), NOW, 900, failures)).toBe(expected);
  });
});

describe('pollingEnded (90 days after the booking)', () => {
  it.each([
    [0, false],
    [89, false],
    [90, false],
    [90.001, true],
    [365, true],
  ])('booked %d days ago: %s', (age, ended) => {
    expect(pollingEnded(daysAgo(age), NOW)).toBe(ended);
  });
});
