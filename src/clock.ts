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
