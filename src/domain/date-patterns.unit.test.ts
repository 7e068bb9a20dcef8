import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDay } from './calendar.js';
import { CALENDAR_DAY_PATTERN, ORDER_DATE_PATTERN } from './date-patterns.js';
import { isCalendarDate } from './paging.js';
import { parseOrderDate } from './shipment/order-dates.js';

// The patterns the document states must refuse all the services refuse: a value they let through
// is read by the service.

const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
/** Day-shaped text, mostly in range, sometimes not: 2026-02-30, 0099-01-01, 2024-02-29. */
const dayLike = fc
  .tuple(
    fc.oneof(
      digits(4),
      fc.integer({ min: 1, max: 9999 }).map((y) => String(y).padStart(4, '0')),
    ),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
  )
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

describe('CALENDAR_DAY_PATTERN', () => {
  it('matches only days the calendar reads, and every one it reads', () => {
    fc.assert(
      fc.property(dayLike, (day) => {
        const stated = new RegExp(CALENDAR_DAY_PATTERN, 'u').test(day);
        let read = true;
        try {
          parseDay(day);
        } catch {
          read = false;
        }
        if (stated) expect(read && isCalendarDate(day), day).toBe(true);
        if (read) expect(stated, day).toBe(true);
      }),
      { numRuns: 20_000 },
    );
    for (const day of ['2024-02-29', '2000-02-29', '2026-12-31'])
      expect(new RegExp(CALENDAR_DAY_PATTERN).test(day)).toBe(true);
    for (const day of ['2026-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '0000-01-01', '0999-12-31'])
      expect(new RegExp(CALENDAR_DAY_PATTERN).test(day), day).toBe(false);
  });
});

describe('ORDER_DATE_PATTERN', () => {
  const orderDateLike = fc
    .tuple(
      dayLike,
      fc.option(
        fc.tuple(
          fc.constantFrom(' ', 'T'),
          fc.integer({ min: 0, max: 25 }),
          fc.integer({ min: 0, max: 61 }),
          fc.option(fc.integer({ min: 0, max: 61 })),
        ),
      ),
      fc.option(fc.constantFrom('Z', '+05:30', '-0800', '+2400', '+05:75')),
    )
    .map(([day, time, zone]) => {
      const clock = time
        ? `${time[0]}${String(time[1]).padStart(2, '0')}:${String(time[2]).padStart(2, '0')}${time[3] === null ? '' : `:${String(time[3]).padStart(2, '0')}`}`
        : '';
      return `${day}${clock}${zone ?? ''}`;
    });

  it('matches only what parseOrderDate reads', () => {
    fc.assert(
      fc.property(orderDateLike, (text) => {
        if (new RegExp(ORDER_DATE_PATTERN, 'u').test(text)) expect(parseOrderDate(text), text).toBeDefined();
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['2026-11-20 11:00', '2026-11-20', '2026-11-20T11:00:00+05:30', ' 2026-11-20T05:30:00.123Z '])
      expect(new RegExp(ORDER_DATE_PATTERN).test(text), text).toBe(true);
  });
});
