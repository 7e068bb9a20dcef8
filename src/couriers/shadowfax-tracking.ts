import type { ParcelScans } from './carrier-event.js';
import type { PolledParcel } from './connector.js';
import { record, text } from './courier-answers.js';
import { CourierCallError, type CourierHttp } from './courier-http.js';
import { mapReturnScans } from './shadowfax-return-scans.js';
import { mapTrackingDetails } from './shadowfax-scans.js';

/**
 * Asking Shadowfax where parcels are. Forward ones on the v4 tracking: GET
 * /api/v4/clients/orders/{awb}/track/ for one, POST /api/v4/clients/bulk_track/ (at most 50) for
 * more (index id 54543910210; WareIQ's worker, index ids 35046236656, 35094509233). A return's
 * reverse request at GET /api/v4/clients/requests/{awb} (index id 56079360066), one call each.
 */

const entries = (list: unknown) => (Array.isArray(list) ? list.filter((d) => record(d) !== undefined) : []);

async function pullForward(http: CourierHttp, awbs: string[], scans: Map<string, ParcelScans>) {
  if (awbs.length === 1) {
    const awb = awbs[0]!;
    let answer: Record<string, unknown> | undefined;
    try {
      answer = record(
        await http.call({
          method: 'GET',
          path: `/api/v4/clients/orders/${encodeURIComponent(awb)}/track/`,
          query: { format: 'json' },
        }),
      );
    } catch (error) {
      if (error instanceof CourierCallError && error.status === 404) return;
      throw error;
    }
    if (!answer || !Array.isArray(answer.tracking_details))
      throw new CourierCallError('malformed', 'the tracking answer has no tracking_details');
    scans.set(awb, mapTrackingDetails(awb, entries(answer.tracking_details)));
    return;
  }
  const answer = record(
    await http.call({
      method: 'POST',
      path: '/api/v4/clients/bulk_track/',
      query: { format: 'json' },
      json: { awb_numbers: awbs },
    }),
  );
  if (!answer || !Array.isArray(answer.data))
    throw new CourierCallError('malformed', 'the bulk tracking answer has no data');
  const asked = new Set(awbs);
  for (const entry of answer.data) {
    const shipment = record(entry);
    const awb = text(shipment?.awb_number) ?? text(record(shipment?.order_details)?.awb_number);
    // An AWB Shadowfax does not know comes back without tracking_details, or not at all.
    if (!awb || !asked.has(awb) || !Array.isArray(shipment?.tracking_details)) continue;
    scans.set(awb, mapTrackingDetails(awb, entries(shipment.tracking_details)));
  }
}

/**
 * A reverse request's record: at the top of the answer (a capture, index id 5990078441), under
 * `data` as some clients read it, or keyed by its id in a list as the bulk answer gives it. Its
 * history is null until the first scan. Undefined when the answer is about no request.
 */
export function requestRecord(body: unknown, awb: string): Record<string, unknown> | undefined {
  const answer = record(body);
  const keyed = Array.isArray(answer?.[awb]) ? record((answer[awb] as unknown[])[0]) : undefined;
  const found = keyed ?? record(answer?.data) ?? answer;
  const known =
    found !== undefined &&
    ('pickup_request_state_histories' in found || text(found.client_request_id) || text(found.awb_number));
  return known ? found : undefined;
}

async function pullReturn(http: CourierHttp, awb: string, scans: Map<string, ParcelScans>) {
  let body: unknown;
  try {
    body = await http.call({ method: 'GET', path: `/api/v4/clients/requests/${encodeURIComponent(awb)}` });
  } catch (error) {
    if (error instanceof CourierCallError && error.status === 404) return;
    throw error;
  }
  if (record(body) === undefined)
    throw new CourierCallError('malformed', 'the reverse request answer is not an object');
  const request = requestRecord(body, awb);
  if (!request) return;
  const history = request.pickup_request_state_histories;
  if (history !== null && history !== undefined && !Array.isArray(history))
    throw new CourierCallError('malformed', 'pickup_request_state_histories is not a list');
  scans.set(awb, mapReturnScans(awb, entries(history)));
}

/** Scans per AWB, forward and return alike; an AWB Shadowfax does not know is left out. */
export async function pullShadowfax(
  http: CourierHttp,
  parcels: readonly PolledParcel[],
): Promise<Map<string, ParcelScans>> {
  const scans = new Map<string, ParcelScans>();
  const forward = parcels.filter((p) => p.journey === 'forward').map((p) => p.awb);
  if (forward.length > 0) await pullForward(http, forward, scans);
  for (const parcel of parcels) if (parcel.journey === 'return') await pullReturn(http, parcel.awb, scans);
  return scans;
}
