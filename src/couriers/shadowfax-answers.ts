import { callFailure } from './call-failure.js';
import { record, text } from './courier-answers.js';

/** How Shadowfax's answers read: its reasons, its cancellations, its bookings. */

export const NAME = 'Shadowfax';

/**
 * Shadowfax's reasons in one line: `errors` comes as a string, a list, or fields with lists of
 * messages ({"customer_details": {"pincode": ["..."]}}), and `message`/`responseMsg` beside it.
 */
export function errorWords(body: unknown): string {
  const words: string[] = [];
  const walk = (value: unknown, field?: string) => {
    if (typeof value === 'string' && value.trim() !== '')
      words.push(field ? `${field}: ${value.trim()}` : value.trim());
    else if (Array.isArray(value)) for (const item of value) walk(item, field);
    else if (record(value))
      for (const [key, inner] of Object.entries(value as Record<string, unknown>))
        walk(inner, field ? `${field}.${key}` : key);
  };
  const answer = record(body);
  walk(answer?.errors);
  if (words.length === 0) walk(answer?.responseMsg ?? answer?.message);
  return [...new Set(words)].filter((w) => !/^(failure|error)$/i.test(w)).join('; ');
}

/** A failed call as the API answers it: 422 with Shadowfax's words, else 502/503. */
export const unavailable = (error: unknown) =>
  callFailure(error, { name: NAME, credentials: 'SHADOWFAX_TOKEN', reasons: errorWords });

/** What a cancellation answer says: done, taken for later while the parcel moves, or refused in words. */
export type CancelOutcome = 'cancelled' | { queued: string } | { refused: string };

const code = (answer: Record<string, unknown> | undefined) => Number(answer?.responseCode ?? Number.NaN);
/** A 200 beside words saying it did not happen is no confirmation (index id 69389638682). */
const saysNo = (words: string | undefined) =>
  words !== undefined && /\b(cannot|can't|could not|unable|not allowed|failed|invalid|denied|rejected)\b/i.test(words);

/**
 * A forward cancellation's answer (index ids 54543910210, 60839310414): `responseCode` 200 when
 * the parcel was at rest, and "The request is already in its cancellation phase" for one already
 * being cancelled; 304 while it moves (`ofp`, `ofd`, a bag in transit…): Shadowfax cancels it at
 * its next scan, which tracking then shows; anything else, 400 "Order cannot be cancelled. Invalid
 * state." once delivered among them, is a refusal. The words alone never make a success, and a 200
 * beside words of refusal is none (index id 69389638682), save the words Shadowfax uses for a
 * cancellation already under way.
 */
export function readCancelAnswer(body: unknown): CancelOutcome {
  const answer = record(body);
  const words = text(answer?.responseMsg) ?? text(answer?.message);
  if ((code(answer) === 200 && !saysNo(words)) || (words && /already in its cancellation phase/i.test(words)))
    return 'cancelled';
  if (code(answer) === 304) return { queued: words ?? 'the parcel is moving: Shadowfax cancels it at its next scan' };
  return { refused: errorWords(answer) || 'no reason given' };
}

/** A reverse request's cancellation succeeds only on `responseCode` 200 (index id 46763779103). */
export function readReverseCancelAnswer(body: unknown): CancelOutcome {
  const answer = record(body);
  const words = text(answer?.responseMsg) ?? text(answer?.message);
  return code(answer) === 200 && !saysNo(words) ? 'cancelled' : { refused: errorWords(answer) || 'no reason given' };
}

/**
 * Whether an `order_update` was taken. Its answer is documented nowhere; the API's convention
 * holds: HTTP 200 with `message` "Success" (index id 62563502289), or `responseCode` 200 as its
 * cancellations answer. A "Failure" with its errors is a refusal.
 */
export function updateTaken(body: unknown): true | { refused: string } {
  const answer = record(body);
  if (code(answer) === 200 || /^success$/i.test(text(answer?.message) ?? '')) return true;
  return { refused: errorWords(answer) || 'no reason given' };
}

/**
 * The AWB a create answered: `data.awb_number` (a reverse request's at the top), or, for an order
 * already created under our reference, the existing one: Shadowfax answers HTTP 200 "Failure …
 * already created with AWB …" with it as a top-level `AWB` beside `COID` (index ids 54543910210,
 * 60839310414). An AWB named for another reference is not ours to take.
 */
export function bookedAwb(body: unknown, reference: string): { awb: string; routingCode: string | null } | undefined {
  const answer = record(body);
  const data = record(answer?.data) ?? answer;
  const awb = text(data?.awb_number);
  if (awb) return { awb, routingCode: text(data?.sort_code) ?? null };
  const existing = text(answer?.AWB);
  const coid = answer?.COID === undefined || answer.COID === null ? undefined : String(answer.COID).trim();
  if (existing && (coid === undefined || coid === reference)) return { awb: existing, routingCode: null };
  return undefined;
}
