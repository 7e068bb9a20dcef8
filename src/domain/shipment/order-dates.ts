import { isCalendarDay, isStorableInstant } from '../../base/clock.js';
import { invalid } from '../errors.js';

const IST_OFFSET = '+05:30';

/**
 * `YYYY-MM-DD HH:MM` or `YYYY-MM-DD` are India time (as SPEC 4.5's example reads); a full ISO 8601
 * timestamp carries its own offset (one without an offset is India time too). Impossible dates
 * such as 2026-02-30 are refused rather than rolled over.
 */
export function parseOrderDate(text: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    text.trim(),
  );
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = match;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = zone === undefined ? IST_OFFSET : zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  if (Number.isNaN(date.getTime())) return undefined;
  return isCalendarDay(Number(y), Number(mo), Number(d)) && isStorableInstant(date) ? date : undefined;
}

/** `order_date` as parseOrderDate reads it; anything else is a 400 naming the field. */
export function readOrderDate(text: string): Date {
  const date = parseOrderDate(text);
  if (!date) throw invalid('order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp', 'order_date');
  return date;
}
