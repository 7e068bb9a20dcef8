import { Type } from 'typebox';
import { DataFileError, formatIssues, pointerToField, schemaIssues } from './data-file-issues.js';

/**
 * A calendar date in India, as whole days since 1970-01-01. India has kept UTC+05:30 with no
 * daylight saving since 1945, so a fixed offset is exact and needs no Intl or tz database.
 */
export type IndiaDay = number;

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;

export function indiaDayOf(instant: Date): IndiaDay {
  return Math.floor((instant.getTime() + IST_OFFSET_MS) / DAY_MS);
}

/** Minutes since midnight, India time. */
export function indiaMinuteOfDay(instant: Date): number {
  const ms = instant.getTime() + IST_OFFSET_MS;
  return Math.floor((ms - Math.floor(ms / DAY_MS) * DAY_MS) / 60_000);
}

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
export function weekdayOf(day: IndiaDay): number {
  return (((day + 4) % 7) + 7) % 7;
}

/**
 * The calendar date of a day as one number, year * 10000 + month * 100 + day of month, by Howard
 * Hinnant's civil-from-days algorithm (a number, so no allocation per call: quotes format dates).
 */
function civil(day: IndiaDay): number {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return y * 10000 + m * 100 + d;
}

/** `YYYY-MM-DD`. */
export function formatDay(day: IndiaDay): string {
  const date = civil(day);
  const m = Math.floor(date / 100) % 100;
  const d = date % 100;
  return `${Math.floor(date / 10000)}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** The first day of the calendar month `day` is in. */
export const monthStartOf = (day: IndiaDay): IndiaDay => day - (civil(day) % 100) + 1;

/** The first day of the calendar month after the one `day` is in (31 days on is always in it). */
const nextMonthStartOf = (day: IndiaDay): IndiaDay => monthStartOf(monthStartOf(day) + 31);

/** An inclusive range of India days. */
export interface DayRange {
  first: IndiaDay;
  last: IndiaDay;
}

/**
 * An inclusive range of days cut at the starts of calendar months: the months wholly inside it,
 * named by their first days (first to last; none when null), and the days left before and after
 * them, for totals kept per month above totals kept per day (whole months summed, the rest by day).
 * Without a whole month the range is all days.
 */
export function splitIntoMonths({ first, last }: DayRange): { months: DayRange | null; days: DayRange[] } {
  if (first > last) return { months: null, days: [] };
  const monthsStart = monthStartOf(first) === first ? first : nextMonthStartOf(first);
  // The months end where the month of the day after `last` begins.
  const monthsEnd = monthStartOf(last + 1);
  if (monthsStart >= monthsEnd) return { months: null, days: [{ first, last }] };
  const days: DayRange[] = [];
  if (first < monthsStart) days.push({ first, last: monthsStart - 1 });
  if (monthsEnd <= last) days.push({ first: monthsEnd, last });
  return { months: { first: monthsStart, last: monthStartOf(monthsEnd - 1) }, days };
}

/** The instant an India calendar day begins. */
export const indiaDayStartOf = (day: IndiaDay): Date => new Date(day * DAY_MS - IST_OFFSET_MS);

/** An inclusive range of instants, to the millisecond. */
export interface InstantRange {
  from: Date;
  to: Date;
}

/**
 * An inclusive range cut at India's midnights: the whole calendar days inside it (first to last,
 * none when `days` is null) and the parts left at its ends, for totals kept per day (whole days
 * summed, the edges counted).
 */
export function splitIntoIndiaDays({ from, to }: InstantRange): {
  days: { first: IndiaDay; last: IndiaDay } | null;
  edges: InstantRange[];
} {
  const fromDay = indiaDayOf(from);
  const first = indiaDayStartOf(fromDay).getTime() === from.getTime() ? fromDay : fromDay + 1;
  // A day is inside when its last millisecond is: the day before the one that begins after `to`.
  const last = indiaDayOf(new Date(to.getTime() + 1)) - 1;
  if (first > last) return { days: null, edges: from.getTime() <= to.getTime() ? [{ from, to }] : [] };
  const edges: InstantRange[] = [];
  const daysStart = indiaDayStartOf(first);
  const daysEnd = indiaDayStartOf(last + 1);
  if (from.getTime() < daysStart.getTime()) edges.push({ from, to: new Date(daysStart.getTime() - 1) });
  if (daysEnd.getTime() <= to.getTime()) edges.push({ from: daysEnd, to });
  return { days: { first, last }, edges };
}

/**
 * How to total an inclusive range of creation times from totals kept per India day: the whole days
 * to sum (none when null), plus the rows counted in `add`, less those counted in `subtract`. A
 * part of a day at either end is counted as it is, or, when its complement in that day holds less
 * time in which rows can exist (none after `now`), the whole day is summed and the complement
 * counted off: a range that ends now subtracts the empty rest of today instead of counting today.
 */
export function planDayTotals(
  range: InstantRange,
  now: Date,
): { days: { first: IndiaDay; last: IndiaDay } | null; add: InstantRange[]; subtract: InstantRange[] } {
  const split = splitIntoIndiaDays(range);
  let days = split.days;
  const add: InstantRange[] = [];
  const subtract: InstantRange[] = [];
  // Milliseconds of a range in which a row may have been created.
  const span = (r: InstantRange) => Math.max(0, Math.min(r.to.getTime(), now.getTime()) - r.from.getTime() + 1);
  for (const edge of split.edges) {
    const day = indiaDayOf(edge.from);
    const joins = days === null || day === days.first - 1 || day === days.last + 1;
    if (indiaDayOf(edge.to) !== day || !joins) {
      add.push(edge);
      continue;
    }
    const start = indiaDayStartOf(day).getTime();
    const end = indiaDayStartOf(day + 1).getTime() - 1;
    const rest: InstantRange[] = [];
    if (edge.from.getTime() > start) rest.push({ from: new Date(start), to: new Date(edge.from.getTime() - 1) });
    if (edge.to.getTime() < end) rest.push({ from: new Date(edge.to.getTime() + 1), to: new Date(end) });
    const restSpan = rest.reduce((sum, r) => sum + span(r), 0);
    if (restSpan >= span(edge)) {
      add.push(edge);
      continue;
    }
    subtract.push(...rest);
    days =
      days === null ? { first: day, last: day } : { first: Math.min(days.first, day), last: Math.max(days.last, day) };
  }
  return { days, add, subtract };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseDay(text: string): IndiaDay {
  const match = DATE_PATTERN.exec(text);
  const day = match === null ? Number.NaN : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
  // Date.UTC rolls 2026-02-30 over to March; the round trip catches it.
  if (!Number.isInteger(day) || formatDay(day) !== text) throw new RangeError(`Not a calendar date: "${text}"`);
  return day;
}

export interface Holiday {
  readonly date: string;
  readonly name: string;
}

export interface WorkingCalendar {
  readonly holidays: ReadonlyMap<IndiaDay, string>;
  /** Years whose holidays the data lists; outside them only Sundays are non-working. */
  readonly coveredYears: readonly number[];
  isWorkingDay(day: IndiaDay): boolean;
  /** The first working day strictly after `day`. */
  nextWorkingDay(day: IndiaDay): IndiaDay;
  /** `days` working days after `day`; `day` itself when `days` is 0. */
  addWorkingDays(day: IndiaDay, days: number): IndiaDay;
  /** Today if `now` is before the cut-off on a working day, else the next working day. */
  pickupDay(now: Date, cutoffMinutes: number): IndiaDay;
}

/** Spans of working days below this are remembered by `addWorkingDays`. */
const MAX_REMEMBERED_SPAN = 1_000;

export function createCalendar(holidays: Iterable<Holiday>, coveredYears: readonly number[] = []): WorkingCalendar {
  const byDay = new Map<IndiaDay, string>();
  for (const holiday of holidays) byDay.set(parseDay(holiday.date), holiday.name);

  const isWorkingDay = (day: IndiaDay) => weekdayOf(day) !== 0 && !byDay.has(day);
  const workingDaysAfter = new Map<number, IndiaDay>();
  const nextWorkingDay = (day: IndiaDay) => {
    let next = day + 1;
    while (!isWorkingDay(next)) next++;
    return next;
  };
  return {
    holidays: byDay,
    coveredYears,
    isWorkingDay,
    nextWorkingDay,
    addWorkingDays(day, days) {
      // Every quote asks this for each service, and the answers repeat all day: remember them.
      const key = day * MAX_REMEMBERED_SPAN + days;
      const remembered = days < MAX_REMEMBERED_SPAN ? workingDaysAfter.get(key) : undefined;
      if (remembered !== undefined) return remembered;
      let result = day;
      for (let i = 0; i < days; i++) result = nextWorkingDay(result);
      if (days < MAX_REMEMBERED_SPAN) {
        if (workingDaysAfter.size >= 10_000) workingDaysAfter.clear();
        workingDaysAfter.set(key, result);
      }
      return result;
    },
    pickupDay(now, cutoffMinutes) {
      const today = indiaDayOf(now);
      return isWorkingDay(today) && indiaMinuteOfDay(now) < cutoffMinutes ? today : nextWorkingDay(today);
    },
  };
}

export const HolidaysFileSchema = Type.Object(
  {
    source: Type.String(),
    years: Type.Array(Type.Integer({ minimum: 2000, maximum: 2100 }), { minItems: 1 }),
    holidays: Type.Array(
      Type.Object(
        {
          date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
          name: Type.String({ minLength: 1 }),
          provisional: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export function parseHolidaysFile(json: unknown, source = 'holidays.json'): WorkingCalendar {
  const header = `Invalid holiday file ${source}:`;
  const issues = schemaIssues(HolidaysFileSchema, json);
  if (issues.length > 0) {
    throw new DataFileError(
      formatIssues(
        header,
        issues.map((i) => `field "${pointerToField(i.path) || '(root)'}": ${i.message}`),
      ),
    );
  }
  const file = json as { years: number[]; holidays: Holiday[] };
  const problems: string[] = [];
  const seen = new Set<string>();
  file.holidays.forEach((holiday, index) => {
    const field = `field "holidays.${index}.date"`;
    try {
      parseDay(holiday.date);
    } catch {
      problems.push(`${field}: "${holiday.date}" is not a calendar date`);
    }
    if (seen.has(holiday.date)) problems.push(`${field}: ${holiday.date} is listed twice`);
    seen.add(holiday.date);
    if (!file.years.includes(Number(holiday.date.slice(0, 4)))) {
      problems.push(`${field}: ${holiday.date} is outside the listed years ${file.years.join(', ')}`);
    }
  });
  if (problems.length > 0) throw new DataFileError(formatIssues(header, problems));
  return createCalendar(
    file.holidays,
    [...file.years].sort((a, b) => a - b),
  );
}
