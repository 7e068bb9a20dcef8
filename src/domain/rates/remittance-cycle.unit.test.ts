import { describe, expect, it } from 'vitest';
import { createCalendar, formatDay, parseDay } from '../calendar.js';
import { dataPath, loadCalendar, readJsonFile } from '../../data-files.js';
import { compileRemittanceCycle, DEFAULT_REMITTANCE_CYCLE, expectedRemittanceDay } from './remittance-cycle.js';
import { parseCourierCatalogue } from './catalogue.js';

// The shipped calendar: Sundays, and bank holidays such as 2026-11-24 (Guru Nanak's Birthday, a
// Tuesday) and 2026-12-25 (Christmas, a Friday).
const calendar = loadCalendar();
const couriers = readJsonFile(dataPath('couriers.json')) as { couriers: Record<string, unknown>[] };
const due = (cycle: Parameters<typeof compileRemittanceCycle>[0], delivered: string) =>
  formatDay(expectedRemittanceDay(compileRemittanceCycle(cycle), parseDay(delivered), calendar));

describe('expected remittance day', () => {
  it.each([
    // delivered, days → due: working days, skipping Sundays and bank holidays.
    ['2026-11-16', 1, '2026-11-17'], // Monday → Tuesday
    ['2026-11-21', 1, '2026-11-23'], // Saturday → Monday (Sunday skipped)
    ['2026-11-23', 1, '2026-11-25'], // Monday → Wednesday (Tuesday 24 a holiday)
    ['2026-11-20', 7, '2026-11-30'], // Friday: 21, 23, 25, 26, 27, 28, 30 (22 and 29 Sundays, 24 a holiday)
    ['2026-12-22', 3, '2026-12-26'], // 23, 24, 26 (25 Christmas)
    ['2026-11-22', 2, '2026-11-25'], // delivered on a Sunday: 23, 25
  ])('delivered %s, D+%i working days: %s', (delivered, days, expected) => {
    expect(due({ days_after_delivery: days }, delivered)).toBe(expected);
  });

  it.each([
    // delivered, payout weekdays, minimum working days → due
    ['2026-11-16', ['tue', 'fri'], 2, '2026-11-20'], // Mon +2 = Wed 18 → Friday 20
    ['2026-11-18', ['tue', 'fri'], 2, '2026-11-20'], // Wed +2 = Fri 20, a payout day itself
    ['2026-11-20', ['tue', 'fri'], 2, '2026-11-25'], // Fri +2 = Mon 23 → Tue 24 holiday → Wed 25
    ['2026-11-19', ['tue', 'fri'], 0, '2026-11-20'], // 0: the next payout day after delivery
    ['2026-11-20', ['tue', 'fri'], 0, '2026-11-25'], // never the delivery day itself; Tuesday 24 is a holiday
    ['2026-12-21', ['fri'], 1, '2026-12-26'], // Friday 25 is Christmas → Saturday 26
    ['2026-11-17', ['wed'], 5, '2026-11-25'], // Tue +5 = 18, 19, 20, 21, 23 → Wednesday 25
    ['2026-11-21', ['sat'], 0, '2026-11-28'], // Saturday → the next Saturday
  ])('delivered %s, paid on %j at least %i working days later: %s', (delivered, weekdays, minDays, expected) => {
    expect(due({ payout_weekdays: weekdays as string[], min_days_after_delivery: minDays }, delivered)).toBe(expected);
  });

  it('counts only Sundays outside the years the holiday data covers', () => {
    const bare = createCalendar([]);
    expect(formatDay(expectedRemittanceDay(DEFAULT_REMITTANCE_CYCLE, parseDay('2031-01-03'), bare))).toBe('2031-01-11');
  });

  it("reads each service's cycle from the catalogue, D+7 when it gives none", () => {
    const catalogue = parseCourierCatalogue(couriers);
    expect(catalogue.byId.get('CARSHFXSTD001')!.remittanceCycle).toEqual({ kind: 'days_after_delivery', days: 7 });
    expect(catalogue.byId.get('CARDELHSURF01')!.remittanceCycle).toEqual({
      kind: 'payout_weekdays',
      weekdays: [2, 5],
      minDays: 2,
    });
    const withoutCycle = structuredClone(couriers);
    delete withoutCycle.couriers[0]!.remittance;
    expect(parseCourierCatalogue(withoutCycle).services[0]!.remittanceCycle).toEqual(DEFAULT_REMITTANCE_CYCLE);
  });

  it.each([
    [
      { payout_weekdays: ['sun'], min_days_after_delivery: 1 },
      'field "remittance.payout_weekdays.0": must be one of "mon"',
    ],
    [{ payout_weekdays: ['tue', 'tue'], min_days_after_delivery: 1 }, 'field "remittance.payout_weekdays"'],
    [{ days_after_delivery: 0 }, 'field "remittance.days_after_delivery"'],
  ])('refuses the cycle %j, naming the courier and field', (remittance, message) => {
    const bad = structuredClone(couriers);
    bad.couriers[0]!.remittance = remittance;
    expect(() => parseCourierCatalogue(bad)).toThrow(`couriers[0] (CARDELHSURF01) ${message}`);
  });
});
