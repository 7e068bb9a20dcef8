import { Type } from 'typebox';
import { isStorableInstant } from '../../base/clock.js';
import { invalid } from '../errors.js';
import { parseOrderDate } from './order-dates.js';
import { ORDER_DATE } from '../date-patterns.js';

// Velocity's date pairs (`<field>__gte`/`__lte`) and start_time/end_time, for the shipments and the
// returns listings alike: each listing passes its own date fields, so both read and refuse the same way.

export const INSTANT_ERROR = 'must be an instant in the years 1 to 9999';

/** An instant the database can take (clock.ts), or a 400 naming the field. */
export function storable(at: Date, field: string): Date {
  if (!isStorableInstant(at)) throw invalid(`${field} ${INSTANT_ERROR}`, field);
  return at;
}

/** Unix seconds, or milliseconds for values of 10^12 and more (no date in seconds is that large). */
export const fromUnix = (value: number, field: string) =>
  storable(new Date(value >= 1e12 ? value : value * 1000), field);

export const DATE_BOUND_ERROR =
  'must be an ISO 8601 timestamp (2026-11-20T14:30:00+05:30; India time without an offset), a date (YYYY-MM-DD, ' +
  'the whole India day) or a Unix timestamp (seconds, or milliseconds when 10^12 or more)';
/**
 * The shapes dateBound reads; the calendar (no 30 February) is checked there.
 * Digits alone are a Unix timestamp written as text, which Velocity's clients send.
 */
const DATE_BOUND_PATTERN =
  '^(?:\\d{1,14}|\\d{4}-\\d{2}-\\d{2}(?:[ T]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?)$';
// The same message on the union and its branches: the error formatter then says it once.
const DateBound = (field: string, bound: 'gte' | 'lte') =>
  Type.Optional(
    Type.Union(
      [
        Type.Integer({ minimum: 0, maximum: 99_999_999_999_999, 'x-error': DATE_BOUND_ERROR }),
        Type.String({
          pattern: DATE_BOUND_PATTERN,
          'x-error': DATE_BOUND_ERROR,
          // The calendar dateBound checks, stated for clients (http/stated-rules.ts's keyword, spelt
          // here: the domain does not import the HTTP kit).
          'x-stated-rule': { pattern: `^(?:\\d{1,14}|${ORDER_DATE})$` },
        }),
      ],
      {
        'x-error': DATE_BOUND_ERROR,
        description:
          `${field} ${bound === 'gte' ? 'at or after' : 'at or before'} this instant (Velocity's date pairs). ISO 8601, ` +
          `India time without an offset; a date alone is the whole India day (${bound === 'gte' ? 'from its start' : 'to its end'}); ` +
          'or Unix seconds (milliseconds when 10^12 or more). Narrows start_time/end_time further.',
      },
    ),
  );

export type DateBoundName<F extends string> = `${F}__${'gte' | 'lte'}`;

/** The body properties `<field>__gte` and `<field>__lte` for each of a listing's date fields. */
export const dateBoundParams = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(
    fields.flatMap((field) => [
      [`${field}__gte`, DateBound(field, 'gte')],
      [`${field}__lte`, DateBound(field, 'lte')],
    ]),
  ) as { [K in DateBoundName<F>]: ReturnType<typeof DateBound> };

/** Inclusive bounds on one date column. */
export interface DateRange {
  from?: Date;
  to?: Date;
}

/** What dateRanges reads of a listing's body. */
export type DateInput<F extends string> = {
  start_time?: number;
  end_time?: number;
  date_field?: F;
} & { [K in DateBoundName<F>]?: number | string };

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const UNIX_DIGITS = /^\d+$/;
const DAY_MS = 86_400_000;

/** A `<field>__gte`/`__lte` value: a day alone reaches to its end when it is the upper bound. */
function dateBound(value: number | string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' || UNIX_DIGITS.test(value)) return fromUnix(Number(value), name);
  const at = parseOrderDate(value);
  if (!at) throw invalid(`${name} ${DATE_BOUND_ERROR}`, name);
  return name.endsWith('__lte') && DAY_ONLY.test(value) ? new Date(at.getTime() + DAY_MS - 1) : at;
}

/**
 * Each date column's bounds: start_time/end_time on date_field (created_at when absent) and every
 * `<field>__gte`/`__lte` pair, each narrowing the others (the latest lower bound, the earliest upper one).
 */
export function dateRanges<F extends string>(
  body: DateInput<F>,
  fields: readonly F[],
): Partial<Record<F, DateRange>> | undefined {
  const start = body.start_time === undefined ? undefined : fromUnix(body.start_time, 'start_time');
  const end = body.end_time === undefined ? undefined : fromUnix(body.end_time, 'end_time');
  if (start && end && start > end) throw invalid('start_time must not be after end_time', 'start_time');
  const ranges: Partial<Record<F, DateRange>> = {};
  const narrow = (field: F, from: Date | undefined, to: Date | undefined) => {
    if (!from && !to) return;
    const range: DateRange = ranges[field] ?? {};
    if (from && !(range.from && range.from >= from)) range.from = from;
    if (to && !(range.to && range.to <= to)) range.to = to;
    ranges[field] = range;
  };
  narrow(body.date_field ?? ('created_at' as F), start, end);
  const bounds = body as Partial<Record<DateBoundName<F>, number | string>>;
  for (const field of fields) {
    const from = dateBound(bounds[`${field}__gte`], `${field}__gte`);
    const to = dateBound(bounds[`${field}__lte`], `${field}__lte`);
    if (from && to && from > to) throw invalid(`${field}__gte must not be after ${field}__lte`, `${field}__gte`);
    narrow(field, from, to);
  }
  return Object.keys(ranges).length > 0 ? ranges : undefined;
}
