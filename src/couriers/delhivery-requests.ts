import { record, text } from './courier-answers.js';
import type { CourierRequest } from './courier-http.js';
import type { Instruction } from './connector.js';

/**
 * What the Delhivery connector sends and how it reads what comes back, where Delhivery's answers
 * are more than a JSON field: the edit call's XML, the queued NDR request and its UPL, the pickup
 * request that already exists, the WAF's 403. Sources as docs/couriers.md numbers them.
 */

export const TRACK_PATH = '/api/v1/packages/json/';

/** Words of an answer's field: a string, or a list of them. */
export const words = (value: unknown): string =>
  (Array.isArray(value) ? value : [value]).filter((w) => typeof w === 'string' && w.trim() !== '').join('; ');

/**
 * Past 750 tracking calls in 5 minutes from one address Delhivery's AWS WAF answers 403 Forbidden:
 * "wait for at least 30 seconds until the AWS WAF check runs again" (Delhivery_API_2.md, "TRACK
 * SHIPMENT API", source 6). Any 403 on the tracking call is that; elsewhere a 403 is the WAF's
 * when its body is not Delhivery's JSON (an HTML page), for the WAF stands before every path of
 * the host. Delhivery's own 403s ("Unauthorized client/user") are JSON.
 */
export const WAF_WAIT_MS = 30_000;
export function wafThrottled(request: CourierRequest, status: number, body: string): number | undefined {
  if (status !== 403) return undefined;
  if (request.path === TRACK_PATH) return WAF_WAIT_MS;
  try {
    JSON.parse(body);
    return undefined;
  } catch {
    return WAF_WAIT_MS;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** A tag's text in a flat XML answer (`<root><status>True</status>…</root>`), if it is there. */
function xmlTag(xml: string, tag: string): string | undefined {
  const found = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'i').exec(xml)?.[1];
  return found?.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!).trim();
}

const yes = (value: unknown) => value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
const no = (value: unknown) => value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false');

/**
 * What POST /api/p/edit answered: done, or refused in Delhivery's words, or undefined for an
 * answer that says neither. It answers JSON to a client that asks for it (source 3) and XML to
 * others (source 1, captures 5 and 7: `<status>True</status>…<remark>Shipment has been
 * cancelled.</remark>`; sources 9 and 11 parse it so). A second cancellation answers as the
 * first (capture 7), so a retried one is done too.
 */
export function readEditAnswer(answer: unknown): { done: true } | { refused: string } | undefined {
  const fields =
    typeof answer === 'string'
      ? { status: xmlTag(answer, 'status'), remark: xmlTag(answer, 'remark'), error: xmlTag(answer, 'error') }
      : record(answer);
  if (!fields) return undefined;
  if (yes(fields.status)) return { done: true };
  if (no(fields.status)) return { refused: words(fields.remark) || words(fields.error) || 'no reason given' };
  return undefined;
}

/**
 * The NSL codes after which Delhivery takes each NDR action, and the attempts a re-attempt may
 * follow: RE-ATTEMPT after EOD-74, -15, -104, -43, -86, -11, -69 or -6, on attempt 1 or 2
 * (Delhivery_API_2.md "NDR API", source 6); DEFER_DLV (a delivery on the merchant's date) after
 * EOD-74, -15, -11, -3, -16, -6 or ST-108 (Delhivery's API reference, delhivery-express-api-doc
 * .readme.io, "asynchronous NDR package action API"; source 3 sends it for a dated re-attempt).
 */
export const REATTEMPT_CODES = ['EOD-74', 'EOD-15', 'EOD-104', 'EOD-43', 'EOD-86', 'EOD-11', 'EOD-69', 'EOD-6'];
export const DEFER_CODES = ['EOD-74', 'EOD-15', 'EOD-11', 'EOD-3', 'EOD-16', 'EOD-6', 'ST-108'];
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

const list = (codes: readonly string[]) => `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}`;

export interface NdrItem {
  waybill: string;
  act: 'RE-ATTEMPT' | 'DEFER_DLV';
  action_data?: { deferred_date: string };
}

/** The NSL code of a Delhivery scan from the event id its table gave it (`dlv:<code>:<time>`). */
const nslOf = (scanId: string | null | undefined) => /^dlv:([^:]+):/.exec(scanId ?? '')?.[1]?.toUpperCase();

/**
 * The item of POST /api/p/update for a merchant's re-attempt, or why Delhivery would refuse it:
 * by the parcel's last failed attempt's NSL code (from its scan's id) and the attempt number, each
 * rule checked only when its fact is known.
 */
export function reattemptItem(awb: string, instruction: Instruction): NdrItem | { refused: string } {
  const date = text(instruction.payload.reattempt_date);
  const code = nslOf(instruction.ndrScanId);
  const attempt = instruction.attempt;
  if (date !== undefined && CALENDAR_DAY.test(date)) {
    if (code !== undefined && !DEFER_CODES.includes(code))
      return {
        refused: `it delivers on a chosen date only after a failed attempt coded ${list(DEFER_CODES)}, and this parcel's last was ${code}; ask for a reattempt without a date`,
      };
    return { waybill: awb, act: 'DEFER_DLV', action_data: { deferred_date: date } };
  }
  if (code !== undefined && !REATTEMPT_CODES.includes(code))
    return {
      refused: `it reattempts only after a failed attempt coded ${list(REATTEMPT_CODES)}, and this parcel's last was ${code}`,
    };
  if (attempt !== undefined && (attempt < 1 || attempt > 2))
    return {
      refused: `it reattempts only after a parcel's first or second failed attempt, and this parcel has had ${attempt}`,
    };
  return { waybill: awb, act: 'RE-ATTEMPT' };
}

/**
 * The UPL id POST /api/p/update answers (`{"message": "Request submitted successfully!",
 * "request_id": "UPL…"}`, index id 66350613124; ClickPost passes it on as `cp_response`, source 8).
 */
export const uplOf = (answer: unknown): string | undefined => {
  const id = text(record(answer)?.request_id);
  return id && /^UPL/i.test(id) ? id : undefined;
};

/**
 * What a UPL came to, from GET /api/cmu/get_bulk_upl/{UPL}?verbose=true (index id 66247945527):
 * `status` Success or Failure, `success_wbns[]` and `failed_wbns[]{waybill, action, message}`. A
 * request carries one waybill, so any failure is its own. Neither list nor a final status: still
 * queued.
 */
export function readUpl(answer: unknown): 'done' | 'pending' | { refused: string } | undefined {
  const fields = record(answer);
  if (!fields) return undefined;
  const failed = Array.isArray(fields.failed_wbns) ? fields.failed_wbns : [];
  const succeeded = Array.isArray(fields.success_wbns) ? fields.success_wbns : [];
  if (failed.length > 0)
    return {
      refused:
        failed
          .map((f) => words(record(f)?.message))
          .filter(Boolean)
          .join('; ') || 'refused',
    };
  if (succeeded.length > 0) return 'done';
  const status = text(fields.status)?.toLowerCase();
  if (status === 'success') return 'done';
  if (status === 'failure') return { refused: words(fields.remark) || 'no waybill was affected' };
  return 'pending';
}

/**
 * What POST /fm/request/new answered: the new request's id; the open one's when the location has
 * one ("A Pickup Request 319322489 for this Pickup Location Already Exist for 09 Sep in slot 14:00
 * - 18:00", with `pr_exist` and `pickup_id`, error code 669: index id 67326558670; Delhivery_API_2.md
 * lists it); `auto` for an account on auto pickup (no request needed: "Client is on auto pickup",
 * Delhivery_API_2.md); else its refusal in its words.
 */
export function readPickupAnswer(answer: unknown): { id: string } | { auto: true } | { refused: string } {
  const fields = record(answer);
  const error = record(fields?.error);
  const said = [
    words(record(fields?.data)?.message),
    words(error?.message),
    words(fields?.error),
    words(fields?.message),
    words(fields?.rmk),
    words(fields?.pickup_location),
    words(fields?.pickup_date),
  ].filter(Boolean);
  const id = fields?.pickup_id;
  const hasId = typeof id === 'number' || (typeof id === 'string' && id.trim() !== '');
  const exists = fields?.pr_exist === true || error?.code === 669 || said.some((w) => /already exist/i.test(w));
  if (exists) {
    const named = said.map((w) => /Pickup Request (\d+)/i.exec(w)?.[1]).find(Boolean);
    if (hasId || named) return { id: hasId ? String(id).trim() : named! };
  }
  if (hasId && fields?.success !== false) return { id: String(id).trim() };
  if (said.some((w) => /auto pickup/i.test(w))) return { auto: true };
  return { refused: [...new Set(said)].join('; ') || 'the pickup request was refused' };
}

/**
 * Delhivery's bulk waybill call, `GET /waybill/api/bulk/json/?count=N` with the token header: the
 * waybills a multi-piece booking passes one per box (docs/paperwork.md, "Multi-piece shipments").
 */
export const WAYBILL_PATH = '/waybill/api/bulk/json/';

/**
 * The waybills the bulk call answered. Delhivery answers a bare JSON string, the waybills
 * separated by commas ("a bare JSON string, comma-separated for multiples — verified against
 * production": index id 63406905940; a Java client strips the quotes and splits on commas, index
 * id 12211899403); clients also read a list and `{waybills: "…"}` (index ids 68289347037,
 * 54673145443), and one reads plain text a line each (index id 59170476702): all are taken. An
 * answer with anything that is not a waybill (letters and digits) in it reads as none.
 */
export function readWaybills(answer: unknown): string[] {
  const fields = record(answer);
  const value = fields ? (fields.waybills ?? fields.waybill ?? fields.data) : answer;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const waybills = items
    .map((item) => (typeof item === 'number' ? String(item) : typeof item === 'string' ? item : ''))
    .map((item) => item.trim().replace(/^"|"$/g, ''))
    .filter((item) => item !== '');
  // Anything but waybills (an error page, half an answer) is no answer at all.
  return waybills.every((waybill) => /^[A-Za-z0-9]{6,20}$/.test(waybill)) ? waybills : [];
}

/**
 * Whether a package of the tracking answer was cancelled: its status type CN or status
 * "Cancelled", or a pre-pickup cancellation's DTUP-210 scan (delhivery-codes.ts; tracking shows
 * such a cancellation as "Not Picked", never "Cancelled").
 */
export function cancelledShipment(shipment: Record<string, unknown>): boolean {
  const status = record(shipment.Status);
  if (text(status?.StatusType)?.toUpperCase() === 'CN' || /cancel/i.test(text(status?.Status) ?? '')) return true;
  const scans = Array.isArray(shipment.Scans) ? shipment.Scans : [];
  return scans.some((scan) => text(record(record(scan)?.ScanDetail)?.StatusCode)?.toUpperCase() === 'DTUP-210');
}
