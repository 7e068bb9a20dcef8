import { Type } from 'typebox';
import { type IndiaDay, type WorkingCalendar, weekdayOf } from '../calendar.js';

/**
 * When a courier pays out the cash it collected on delivery. Couriers state it two ways: "D+7",
 * a number of working days after delivery, or fixed payout weekdays ("Tuesdays and Fridays, for
 * parcels delivered at least 2 working days before"). Sundays and the calendar's bank holidays are
 * not working days: banks make no transfers on them.
 */
export type RemittanceCycle =
  | { readonly kind: 'days_after_delivery'; readonly days: number }
  | { readonly kind: 'payout_weekdays'; readonly weekdays: readonly number[]; readonly minDays: number };

/** What a service has when the catalogue gives it no cycle: the common "D+7". */
export const DEFAULT_REMITTANCE_CYCLE: RemittanceCycle = { kind: 'days_after_delivery', days: 7 };

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** The catalogue's `remittance` field of a service (data/couriers.json). Sunday is no payout day. */
export const RemittanceCycleSchema = Type.Union([
  Type.Object({ days_after_delivery: Type.Integer({ minimum: 1, maximum: 60 }) }, { additionalProperties: false }),
  Type.Object(
    {
      payout_weekdays: Type.Array(Type.Union(WEEKDAYS.slice(1).map((day) => Type.Literal(day))), {
        minItems: 1,
        maxItems: 6,
        uniqueItems: true,
      }),
      min_days_after_delivery: Type.Integer({ minimum: 0, maximum: 60 }),
    },
    { additionalProperties: false },
  ),
]);

export type RemittanceCycleEntry =
  | { days_after_delivery: number }
  | { payout_weekdays: string[]; min_days_after_delivery: number };

export function compileRemittanceCycle(entry: RemittanceCycleEntry | undefined): RemittanceCycle {
  if (entry === undefined) return DEFAULT_REMITTANCE_CYCLE;
  if ('days_after_delivery' in entry) return { kind: 'days_after_delivery', days: entry.days_after_delivery };
  const weekdays = entry.payout_weekdays
    .map((day) => WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]))
    .sort((a, b) => a - b);
  return { kind: 'payout_weekdays', weekdays, minDays: entry.min_days_after_delivery };
}

/**
 * The day a delivered parcel's cash is due from the courier. Days after delivery count working
 * days. On payout weekdays: the first payout weekday on or after `minDays` working days past
 * delivery (never the delivery day itself); a payout weekday that is a bank holiday pays on the
 * next working day.
 */
export function expectedRemittanceDay(
  cycle: RemittanceCycle,
  delivered: IndiaDay,
  calendar: WorkingCalendar,
): IndiaDay {
  if (cycle.kind === 'days_after_delivery') return calendar.addWorkingDays(delivered, cycle.days);
  let day = cycle.minDays === 0 ? delivered + 1 : calendar.addWorkingDays(delivered, cycle.minDays);
  while (!cycle.weekdays.includes(weekdayOf(day))) day++;
  return calendar.isWorkingDay(day) ? day : calendar.nextWorkingDay(day);
}
