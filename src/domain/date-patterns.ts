/**
 * The date forms the services read, as regular expressions for the published document's schemas
 * (http/stated-rules.ts): the services check real days with the calendar, and these say the same in
 * a pattern, so that a client's validator refuses what the server refuses. Years before 1000 are
 * left out: the calendar (parseDay) refuses them, and no shipment is dated then.
 */
const YEAR = '[1-9]\\d{3}';
const MONTH_AND_DAY =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
/** Leap years: divisible by 4, and by 400 where divisible by 100. */
const LEAP_DAY = '(?:[1-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[13579][26])00)-02-29';

/** A calendar day, YYYY-MM-DD: 2026-02-29 and 2026-04-31 are none. */
export const CALENDAR_DAY = `(?:${YEAR}-${MONTH_AND_DAY}|${LEAP_DAY})`;
export const CALENDAR_DAY_PATTERN = `^${CALENDAR_DAY}$`;

const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?';
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)';

/**
 * What parseOrderDate reads, white space aside: a day, and a time of day to the minute or finer
 * with or without an offset. (It reads an offset after a day alone too; the listings' date bounds
 * do not, and no client means one.)
 */
export const ORDER_DATE = `${CALENDAR_DAY}(?:[ T]${TIME}${ZONE}?)?`;
export const ORDER_DATE_PATTERN = `^\\s*${ORDER_DATE}\\s*$`;
