/** The time source every service reads, so tests can move time instead of waiting for it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Whether year-month-day is a real calendar day: `Date` would roll 2026-02-30 over to 2 March. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * PostgreSQL reads the timestamps Drizzle writes with toISOString, which writes a year past 9999
 * as +010000 and the year before 1 as 0000: neither can be stored, so no input may name such an instant.
 */
export function isStorableInstant(at: Date): boolean {
  const year = at.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** India has kept UTC+05:30, without daylight saving, since 1945. */
export const INDIA_OFFSET_MS = 330 * 60_000;

const indiaIso = (at: Date) => new Date(at.getTime() + INDIA_OFFSET_MS).toISOString();

/** `2026-11-20 12:00:00`: India time without an offset, as Velocity writes dates in its answers. */
export const velocityDateTime = (at: Date) => indiaIso(at).slice(0, 19).replace('T', ' ');

/** `2026-11-20T12:00:00.000+05:30`: an instant written in India time, with its offset. */
export const indiaTimestamp = (at: Date) => `${indiaIso(at).slice(0, 23)}+05:30`;

/** Velocity's `assigned_date_time` shape (PHP's DateTime as JSON). */
export const velocityDateObject = (at: Date) => ({
  date: indiaTimestamp(at),
  timezone_type: 3 as const,
  timezone: 'Asia/Kolkata' as const,
});
