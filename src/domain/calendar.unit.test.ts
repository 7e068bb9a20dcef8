import { describe, expect, it } from 'vitest';
import {
  planDayTotals,
  splitIntoIndiaDays,
  createCalendar,
  formatDay,
  indiaDayOf,
  indiaMinuteOfDay,
  monthStartOf,
  parseDay,
  parseHolidaysFile,
  splitIntoMonths,
  weekdayOf,
} from './calendar.js';
import { loadCalendar } from '../data-files.js';

const calendar = loadCalendar();
const day = parseDay;

describe('India dates without Intl', () => {
  it.each([
    ['1970-01-01', 0],
    ['2000-03-01', 11017],
    ['2026-01-01', 20454],
    ['2028-02-29', 21243],
  ])('%s is day %i and back', (text, number) => {
    expect(parseDay(text)).toBe(number);
    expect(formatDay(number)).toBe(text);
  });

  it('round-trips every day from 2025 to 2028', () => {
    for (let d = day('2025-01-01'); d <= day('2028-12-31'); d++) {
      expect(formatDay(d)).toBe(new Date(d * 86_400_000).toISOString().slice(0, 10));
    }
  });

  it.each(['2026-02-29', '2026-13-01', '2026-00-10', '2026-1-5', '26-01-05', ''])('refuses %j', (text) => {
    expect(() => parseDay(text)).toThrow(RangeError);
  });

  it.each([
    ['2026-01-01', 4],
    ['2026-06-14', 0],
    ['2026-06-20', 6],
  ])('%s falls on weekday %i', (text, weekday) => {
    expect(weekdayOf(day(text))).toBe(weekday);
  });

  // India is UTC+05:30: 18:30 UTC is midnight of the next India day.
  it.each([
    ['2026-06-15T18:29:59.999Z', '2026-06-15', 1439],
    ['2026-06-15T18:30:00.000Z', '2026-06-16', 0],
    ['2026-12-31T18:29:00Z', '2026-12-31', 1439],
    ['2026-12-31T18:30:00Z', '2027-01-01', 0],
    ['2026-06-15T04:30:00Z', '2026-06-15', 600],
    ['2026-06-14T20:00:00-04:00', '2026-06-15', 330 + 0],
  ])('%s is %s, minute %i, in India', (instant, text, minute) => {
    expect(formatDay(indiaDayOf(new Date(instant)))).toBe(text);
    expect(indiaMinuteOfDay(new Date(instant))).toBe(minute);
  });
});

describe('working days', () => {
  it.each([
    ['2026-01-24', true, 'Saturday is a working day'],
    ['2026-01-25', false, 'Sunday'],
    ['2026-01-26', false, 'Republic Day'],
    ['2026-01-27', true, 'Tuesday'],
    ['2026-11-08', false, 'Diwali on a Sunday'],
    ['2026-12-25', false, 'Christmas'],
    ['2027-01-01', true, 'New Year is not a gazetted holiday'],
    ['2027-03-26', false, 'Good Friday 2027'],
    ['2028-01-26', true, 'a year the file does not list: only Sundays are off'],
  ])('%s working: %s (%s)', (text, working) => {
    expect(calendar.isWorkingDay(day(text))).toBe(working);
  });

  it.each([
    ['2026-03-28', '2026-03-30', 'Saturday → Monday'],
    ['2026-03-30', '2026-04-01', 'Monday → Wednesday over Mahavir Jayanti'],
    ['2026-04-02', '2026-04-04', 'Thursday → Saturday over Good Friday'],
    ['2026-12-31', '2027-01-01', 'year end'],
    ['2027-12-24', '2027-12-27', 'Friday → Monday over Christmas Saturday and Sunday'],
  ])('next working day after %s is %s (%s)', (from, next) => {
    expect(formatDay(calendar.nextWorkingDay(day(from)))).toBe(next);
  });

  it.each([
    ['2026-06-15', 0, '2026-06-15'],
    ['2026-06-15', 1, '2026-06-16'],
    ['2026-06-19', 2, '2026-06-22'],
    ['2026-10-16', 3, '2026-10-21'],
    ['2026-03-19', 5, '2026-03-27'],
    ['2026-12-29', 4, '2027-01-02'],
  ])('%s + %i working days = %s', (from, days, result) => {
    expect(formatDay(calendar.addWorkingDays(day(from), days))).toBe(result);
  });
});

describe('pickup day', () => {
  const cutoff = 14 * 60;
  it.each([
    ['2026-06-15T04:30:00Z', '2026-06-15', 'Monday 10:00, before the cut-off'],
    ['2026-06-15T08:29:00Z', '2026-06-15', 'Monday 13:59'],
    ['2026-06-15T08:30:00Z', '2026-06-16', 'Monday 14:00 exactly: the cut-off has passed'],
    ['2026-06-15T12:00:00Z', '2026-06-16', 'Monday 17:30'],
    ['2026-06-20T04:30:00Z', '2026-06-20', 'Saturday morning'],
    ['2026-06-20T10:00:00Z', '2026-06-22', 'Saturday afternoon → Monday'],
    ['2026-06-21T03:30:00Z', '2026-06-22', 'Sunday morning → Monday'],
    ['2026-10-02T03:30:00Z', '2026-10-03', 'Gandhi Jayanti morning → Saturday'],
    ['2026-10-01T09:30:00Z', '2026-10-03', 'Thursday 15:00 → Saturday, skipping the Friday holiday'],
    ['2026-11-07T10:00:00Z', '2026-11-09', 'Saturday afternoon, Diwali Sunday → Monday'],
    ['2026-12-24T10:00:00Z', '2026-12-26', 'Thursday afternoon → Saturday over Christmas'],
    ['2026-12-31T10:30:00Z', '2027-01-01', 'year end, 16:00'],
    ['2026-06-15T18:29:00Z', '2026-06-16', 'UTC Monday 18:29 is India 23:59: after the cut-off'],
    ['2026-06-15T18:30:00Z', '2026-06-16', 'UTC Monday 18:30 is India Tuesday 00:00: before the cut-off'],
    ['2026-06-13T19:00:00Z', '2026-06-15', 'UTC Saturday evening is India Sunday → Monday'],
    ['2026-01-25T18:45:00Z', '2026-01-27', 'UTC Sunday evening is India Republic Day → Tuesday'],
  ])('at %s pickup is %s (%s)', (instant, expected) => {
    expect(formatDay(calendar.pickupDay(new Date(instant), cutoff))).toBe(expected);
  });
});

describe('holidays.json', () => {
  it('lists 2026 and 2027, 17 gazetted holidays each', () => {
    expect(calendar.coveredYears).toEqual([2026, 2027]);
    const perYear = (year: string) => [...calendar.holidays.keys()].filter((d) => formatDay(d).startsWith(year));
    expect(perYear('2026')).toHaveLength(17);
    expect(perYear('2027')).toHaveLength(17);
    expect(calendar.holidays.get(day('2026-08-15'))).toBe('Independence Day');
  });

  const valid = { source: 'test', years: [2026], holidays: [{ date: '2026-01-26', name: 'Republic Day' }] };
  it.each([
    [
      { ...valid, holidays: [{ date: '2026-02-30', name: 'x' }] },
      'field "holidays.0.date": "2026-02-30" is not a calendar date',
    ],
    [
      { ...valid, holidays: [...valid.holidays, ...valid.holidays] },
      'field "holidays.1.date": 2026-01-26 is listed twice',
    ],
    [{ ...valid, years: [2027] }, 'outside the listed years 2027'],
    [{ ...valid, holidays: [{ date: '26-01-2026', name: 'x' }] }, 'field "holidays.0.date": must match pattern'],
    [{ ...valid, weekly_off: ['saturday'] }, 'field "weekly_off": is not a known field'],
    [{ source: 'test', holidays: [] }, 'field "years": is required'],
  ])('rejects a bad file (%#)', (json, message) => {
    expect(() => parseHolidaysFile(json)).toThrow(message);
  });

  it('builds a calendar from a plain list', () => {
    const custom = createCalendar([{ date: '2026-06-16', name: 'Test day' }]);
    expect(formatDay(custom.nextWorkingDay(day('2026-06-15')))).toBe('2026-06-17');
  });
});

describe('splitIntoIndiaDays', () => {
  const at = (iso: string) => new Date(iso);
  // 2026-11-01 in India began at 2026-10-31T18:30:00Z.
  it.each([
    [
      'whole days, midnight to last millisecond',
      '2026-10-31T18:30:00.000Z',
      '2026-11-02T18:29:59.999Z',
      ['2026-11-01', '2026-11-02'],
      [],
    ],
    ['one whole day', '2026-10-31T18:30:00.000Z', '2026-11-01T18:29:59.999Z', ['2026-11-01', '2026-11-01'], []],
    [
      'edges on both sides',
      '2026-10-31T20:00:00.000Z',
      '2026-11-03T06:00:00.000Z',
      ['2026-11-02', '2026-11-02'],
      [
        ['2026-10-31T20:00:00.000Z', '2026-11-01T18:29:59.999Z'],
        ['2026-11-02T18:30:00.000Z', '2026-11-03T06:00:00.000Z'],
      ],
    ],
    [
      'an end at the next midnight itself is an edge of one millisecond',
      '2026-10-31T18:30:00.000Z',
      '2026-11-01T18:30:00.000Z',
      ['2026-11-01', '2026-11-01'],
      [['2026-11-01T18:30:00.000Z', '2026-11-01T18:30:00.000Z']],
    ],
    [
      'inside one day',
      '2026-11-01T01:00:00.000Z',
      '2026-11-01T09:00:00.000Z',
      null,
      [['2026-11-01T01:00:00.000Z', '2026-11-01T09:00:00.000Z']],
    ],
    [
      'across one midnight, no whole day',
      '2026-11-01T12:00:00.000Z',
      '2026-11-02T12:00:00.000Z',
      null,
      [['2026-11-01T12:00:00.000Z', '2026-11-02T12:00:00.000Z']],
    ],
    [
      'a single instant',
      '2026-11-01T12:00:00.000Z',
      '2026-11-01T12:00:00.000Z',
      null,
      [['2026-11-01T12:00:00.000Z', '2026-11-01T12:00:00.000Z']],
    ],
    ['from after to', '2026-11-02T00:00:00.000Z', '2026-11-01T00:00:00.000Z', null, []],
  ] as const)('%s', (_name, from, to, days, edges) => {
    const split = splitIntoIndiaDays({ from: at(from), to: at(to) });
    expect(split.days && [formatDay(split.days.first), formatDay(split.days.last)]).toEqual(days && [...days]);
    expect(split.edges.map((e) => [e.from.toISOString(), e.to.toISOString()])).toEqual(edges.map((e) => [...e]));
  });
});

describe('planDayTotals', () => {
  const at = (iso: string) => new Date(iso);
  const pairs = (ranges: readonly { from: Date; to: Date }[]) =>
    ranges.map((r) => [r.from.toISOString(), r.to.toISOString()]);
  // 2026-11-01 in India began at 2026-10-31T18:30:00Z; 2026-11-05 at 2026-11-04T18:30:00Z.
  const LATER = '2026-12-31T00:00:00.000Z';
  it.each([
    [
      'whole days alone',
      '2026-10-31T18:30:00.000Z',
      '2026-11-02T18:29:59.999Z',
      LATER,
      ['2026-11-01', '2026-11-02'],
      [],
      [],
    ],
    [
      'a range that ends now: today whole, its empty rest counted off',
      '2026-10-31T18:30:00.000Z',
      '2026-11-05T06:00:00.000Z',
      '2026-11-05T06:00:00.000Z',
      ['2026-11-01', '2026-11-05'],
      [],
      [['2026-11-05T06:00:00.001Z', '2026-11-05T18:29:59.999Z']],
    ],
    [
      'a start late in its day is counted; an end late in its day is its day less the rest',
      '2026-10-31T17:00:00.000Z',
      '2026-11-02T16:00:00.000Z',
      LATER,
      ['2026-11-01', '2026-11-02'],
      [['2026-10-31T17:00:00.000Z', '2026-10-31T18:29:59.999Z']],
      [['2026-11-02T16:00:00.001Z', '2026-11-02T18:29:59.999Z']],
    ],
    [
      'a start early in its day is its day less the hours before it; an early end is counted',
      '2026-10-30T19:00:00.000Z',
      '2026-11-01T20:00:00.000Z',
      LATER,
      ['2026-10-31', '2026-11-01'],
      [['2026-11-01T18:30:00.000Z', '2026-11-01T20:00:00.000Z']],
      [['2026-10-30T18:30:00.000Z', '2026-10-30T18:59:59.999Z']],
    ],
    [
      'most of one day: the day less both ends',
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T17:00:00.000Z',
      LATER,
      ['2026-11-01', '2026-11-01'],
      [],
      [
        ['2026-10-31T18:30:00.000Z', '2026-10-31T23:59:59.999Z'],
        ['2026-11-01T17:00:00.001Z', '2026-11-01T18:29:59.999Z'],
      ],
    ],
    [
      'a little of one day is counted',
      '2026-11-01T06:00:00.000Z',
      '2026-11-01T08:00:00.000Z',
      LATER,
      null,
      [['2026-11-01T06:00:00.000Z', '2026-11-01T08:00:00.000Z']],
      [],
    ],
    [
      'across one midnight with no whole day: counted',
      '2026-11-01T12:00:00.000Z',
      '2026-11-02T12:00:00.000Z',
      LATER,
      null,
      [['2026-11-01T12:00:00.000Z', '2026-11-02T12:00:00.000Z']],
      [],
    ],
    [
      'wholly after now: counted (nothing to count either way)',
      '2027-01-01T00:00:00.000Z',
      '2027-01-01T01:00:00.000Z',
      LATER,
      null,
      [['2027-01-01T00:00:00.000Z', '2027-01-01T01:00:00.000Z']],
      [],
    ],
    ['from after to', '2026-11-02T00:00:00.000Z', '2026-11-01T00:00:00.000Z', LATER, null, [], []],
  ] as const)('%s', (_name, from, to, now, days, add, subtract) => {
    const plan = planDayTotals({ from: at(from), to: at(to) }, at(now));
    expect(plan.days && [formatDay(plan.days.first), formatDay(plan.days.last)]).toEqual(days && [...days]);
    expect(pairs(plan.add)).toEqual(add.map((r) => [...r]));
    expect(pairs(plan.subtract)).toEqual(subtract.map((r) => [...r]));
  });
});

describe('splitIntoMonths', () => {
  it('finds the first day of the month of every day from 2025 to 2028', () => {
    for (let d = day('2025-01-01'); d <= day('2028-12-31'); d++) {
      expect(formatDay(monthStartOf(d))).toBe(`${formatDay(d).slice(0, 8)}01`);
    }
  });

  const range = (first: string, last: string) => ({ first: day(first), last: day(last) });
  it.each([
    ['a 31-day month exactly', '2026-10-01', '2026-10-31', ['2026-10-01', '2026-10-01'], []],
    ['a 30-day month exactly', '2026-11-01', '2026-11-30', ['2026-11-01', '2026-11-01'], []],
    ['February of 28 days exactly', '2026-02-01', '2026-02-28', ['2026-02-01', '2026-02-01'], []],
    ['February 2026 less its last day', '2026-02-01', '2026-02-27', null, [['2026-02-01', '2026-02-27']]],
    ['February of the leap year 2028 exactly', '2028-02-01', '2028-02-29', ['2028-02-01', '2028-02-01'], []],
    ['February 2028 to its 28th: not whole', '2028-02-01', '2028-02-28', null, [['2028-02-01', '2028-02-28']]],
    ['April 2027 exactly', '2027-04-01', '2027-04-30', ['2027-04-01', '2027-04-01'], []],
    ['inside one month', '2026-11-03', '2026-11-20', null, [['2026-11-03', '2026-11-20']]],
    ['one day, the first of its month', '2026-11-01', '2026-11-01', null, [['2026-11-01', '2026-11-01']]],
    ['one day, the last of its month', '2026-10-31', '2026-10-31', null, [['2026-10-31', '2026-10-31']]],
    ['across a month end with neither month whole', '2026-10-02', '2026-11-29', null, [['2026-10-02', '2026-11-29']]],
    [
      'a year to today: eleven whole months, days at both ends',
      '2025-11-29',
      '2026-11-28',
      ['2025-12-01', '2026-10-01'],
      [
        ['2025-11-29', '2025-11-30'],
        ['2026-11-01', '2026-11-28'],
      ],
    ],
    ['a calendar year', '2026-01-01', '2026-12-31', ['2026-01-01', '2026-12-01'], []],
    [
      'first on a month start, last inside a month',
      '2026-09-01',
      '2026-11-15',
      ['2026-09-01', '2026-10-01'],
      [['2026-11-01', '2026-11-15']],
    ],
    [
      'first inside a month, last on a month end',
      '2026-09-15',
      '2026-11-30',
      ['2026-10-01', '2026-11-01'],
      [['2026-09-15', '2026-09-30']],
    ],
    [
      'a day either side of a month, across a year end',
      '2026-12-31',
      '2027-02-01',
      ['2027-01-01', '2027-01-01'],
      [
        ['2026-12-31', '2026-12-31'],
        ['2027-02-01', '2027-02-01'],
      ],
    ],
    [
      'a leap February among whole months',
      '2028-01-15',
      '2028-03-31',
      ['2028-02-01', '2028-03-01'],
      [['2028-01-15', '2028-01-31']],
    ],
    ['first after last', '2026-11-02', '2026-11-01', null, []],
  ] as const)('%s', (_name, first, last, months, days) => {
    const split = splitIntoMonths(range(first, last));
    expect(split.months && [formatDay(split.months.first), formatDay(split.months.last)]).toEqual(
      months && [...months],
    );
    expect(split.days.map((d) => [formatDay(d.first), formatDay(d.last)])).toEqual(days.map((d) => [...d]));
  });
});
