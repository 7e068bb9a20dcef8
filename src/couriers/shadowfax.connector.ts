import type { Clock } from '../base/clock.js';
import {
  type BookingRequest,
  type Connector,
  courierRefused,
  courierUnavailable,
  type Instruction,
} from './connector.js';
import {
  CourierCallError,
  type CourierHttp,
  type CourierRequest,
  createCourierHttp,
  isTransient,
} from './courier-http.js';
import { mapTrackingDetails, type ShadowfaxTrackDetail } from './shadowfax-scans.js';
import { shadowfaxForwardOrder, shadowfaxReattempt, shadowfaxReversePickup } from './shadowfax-requests.js';
import { record, text } from './courier-answers.js';
import type { ParcelScans } from './carrier-event.js';
import type { HealthReport } from './connector-health.js';

export interface ShadowfaxSettings {
  token: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** Pause before the one retry of a cancellation or an NDR instruction; tests shorten it. */
  retryDelayMs?: number;
  /** Told of each call's outcome (the courier connections screen). */
  health?: HealthReport;
}

const NAME = 'Shadowfax';
/** Shadowfax's bulk tracking answers up to 50 AWBs a call. */
const BATCH = 50;

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

function unavailable(error: unknown) {
  if (!(error instanceof CourierCallError)) return error;
  if (error.kind === 'circuit_open' || error.kind === 'rate_limited') {
    return courierUnavailable(
      NAME,
      error.kind === 'rate_limited' ? 'it is limiting our requests' : 'it failed repeatedly just now',
      503,
      Math.ceil((error.retryAfterMs ?? 1000) / 1000),
    );
  }
  if (error.kind === 'refused') {
    if (error.status === 401 || error.status === 403) {
      return courierUnavailable(
        NAME,
        `it refused our credentials (HTTP ${error.status}); the operator must check SHADOWFAX_TOKEN`,
      );
    }
    // A 4xx with Shadowfax's reasons is its answer about this parcel; without one it is a fault of ours or its.
    const words = errorWords(error.body);
    return words && error.status !== 404
      ? courierRefused(NAME, words)
      : courierUnavailable(NAME, `it answered HTTP ${error.status}`);
  }
  return courierUnavailable(NAME, error.kind === 'malformed' ? 'its answer could not be read' : error.message);
}

/**
 * Shadowfax's client API as its documentation and public integrations show it (docs/couriers.md):
 * `Authorization: Token <key>` on every call; forward orders created at POST /api/v3/clients/orders/
 * and cancelled at POST /api/v3/clients/orders/cancel/; reverse pickups (with QC) at POST
 * /api/v3/clients/requests; tracking at GET /api/v4/clients/orders/{awb}/track/ and, for many,
 * POST /api/v4/clients/bulk_track/; reattempts at POST /api/v3/clients/order_update/; the
 * customer's pincode checked first at GET /api/v1/clients/serviceability/.
 */
export function createShadowfaxConnector(
  settings: ShadowfaxSettings,
  http: CourierHttp = defaultHttp(settings),
): Connector {
  const retryDelayMs = settings.retryDelayMs ?? 1000;
  const pause = () => new Promise((resolve) => setTimeout(resolve, retryDelayMs));

  /** Transient failures are tried once more: cancelling or instructing twice changes nothing. */
  async function twice(request: CourierRequest, what: string) {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const answer = record(await http.call(request));
        const code = answer?.responseCode ?? answer?.status_code;
        if (code === 200 || code === '200' || answer?.success === true || answer?.message === 'Success') return;
        throw courierRefused(NAME, `could not ${what}: ${errorWords(answer) || 'no reason given'}`);
      } catch (error) {
        if (!isTransient(error)) throw unavailable(error);
        lastError = error;
        if (attempt === 0) await pause();
      }
    }
    throw unavailable(lastError);
  }

  /** A read, tried once more after a transient failure: asking twice changes nothing. */
  async function read(request: CourierRequest): Promise<unknown> {
    try {
      return await http.call(request);
    } catch (error) {
      if (!isTransient(error)) throw unavailable(error);
    }
    await pause();
    try {
      return await http.call(request);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Whether Shadowfax reaches the customer's pincode (to deliver, or to collect a return), asked
   * before the create as Xpressbees' lane is: a 422 naming the pincode, and nothing booked, when it
   * does not. The warehouse's side is not asked: it is registered with Shadowfax as a pickup
   * location, and a create from an unserviceable one is refused in Shadowfax's words anyway.
   */
  async function checkServiceable(request: BookingRequest) {
    const reverse = request.journey === 'return';
    const pincode = request.consignee.pincode;
    const service = reverse ? 'customer_pickup' : 'customer_delivery';
    const answer = await read({
      method: 'GET',
      path: '/api/v1/clients/serviceability/',
      query: { service, pincodes: pincode, page: '1', count: '1' },
    });
    if (!Array.isArray(answer))
      throw unavailable(new CourierCallError('malformed', 'the serviceability answer is not a list'));
    if (!answer.some((entry) => String(record(entry)?.code) === pincode)) {
      throw courierRefused(
        NAME,
        `pincode ${pincode} is not serviceable for ${reverse ? 'a pickup' : 'delivery'}`,
        reverse ? 'pickup_pincode' : 'billing_pincode',
      );
    }
  }

  async function cancel(awb: string, remarks: string, what: string) {
    await twice(
      { method: 'POST', path: '/api/v3/clients/orders/cancel/', json: { request_id: awb, cancel_remarks: remarks } },
      what,
    );
  }

  return {
    name: 'shadowfax',
    pulls: true,
    batchSize: BATCH,

    async book(_service, request) {
      // Sent once. Shadowfax offers no look-up by client_order_id, so after a time-out or a 5xx
      // nobody can tell whether it created the order; a second create could book it twice (decision 84).
      const reverse = request.journey === 'return';
      await checkServiceable(request);
      try {
        const answer = record(
          await http.call(
            reverse
              ? { method: 'POST', path: '/api/v3/clients/requests', json: shadowfaxReversePickup(request) }
              : { method: 'POST', path: '/api/v3/clients/orders/', json: shadowfaxForwardOrder(request) },
          ),
        );
        const data = record(answer?.data) ?? answer;
        const awb = text(data?.awb_number);
        if (awb) return { awb, routingCode: text(data?.sort_code) ?? null };
        const words = errorWords(answer);
        if (words) throw courierRefused(NAME, words);
        throw new CourierCallError('malformed', 'the booking answer has no awb_number');
      } catch (error) {
        throw unavailable(error);
      }
    },

    // Shadowfax collects what was created for the pickup address; this API has no pickup request.
    requestPickup: async () => null,

    async cancel(_service, awb) {
      await cancel(awb, 'Cancelled by the merchant', 'cancel it');
    },

    async instruct(_service, awb, instruction: Instruction) {
      // Shadowfax returns a parcel to the seller when it is cancelled after pickup.
      if (instruction.action === 'rto')
        return cancel(awb, 'Return to seller requested by the merchant', 'return it to the seller');
      await twice(
        { method: 'POST', path: '/api/v3/clients/order_update/', json: shadowfaxReattempt(awb, instruction) },
        'attempt it again',
      );
    },

    async pull(_service, parcels) {
      const scans = new Map<string, ParcelScans>();
      const awbs = parcels.map((parcel) => parcel.awb);
      const journeys = new Map(parcels.map((parcel) => [parcel.awb, parcel.journey]));
      if (awbs.length === 1) {
        let answer: Record<string, unknown> | undefined;
        try {
          answer = record(
            await http.call({
              method: 'GET',
              path: `/api/v4/clients/orders/${encodeURIComponent(awbs[0]!)}/track/`,
              query: { format: 'json' },
            }),
          );
        } catch (error) {
          if (error instanceof CourierCallError && error.status === 404) return scans;
          throw error;
        }
        if (!answer || !Array.isArray(answer.tracking_details))
          throw new CourierCallError('malformed', 'the tracking answer has no tracking_details');
        scans.set(
          awbs[0]!,
          mapTrackingDetails(
            awbs[0]!,
            answer.tracking_details.map(record).filter((d) => d !== undefined) as ShadowfaxTrackDetail[],
            parcels[0]!.journey,
          ),
        );
        return scans;
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
      for (const entry of answer.data) {
        const shipment = record(entry);
        const awb = text(shipment?.awb_number) ?? text(record(shipment?.order_details)?.awb_number);
        // An AWB Shadowfax does not know comes back without tracking_details, or not at all.
        const journey = awb === undefined ? undefined : journeys.get(awb);
        if (!awb || !journey || !Array.isArray(shipment?.tracking_details)) continue;
        scans.set(
          awb,
          mapTrackingDetails(
            awb,
            shipment.tracking_details.map(record).filter((d) => d !== undefined) as ShadowfaxTrackDetail[],
            journey,
          ),
        );
      }
      return scans;
    },

    readScans: (parcel, raw) =>
      mapTrackingDetails(
        parcel.awb,
        raw.map(record).filter((d) => d !== undefined) as ShadowfaxTrackDetail[],
        parcel.journey,
      ),
  };
}

function defaultHttp(settings: ShadowfaxSettings): CourierHttp {
  return createCourierHttp({
    baseUrl: settings.baseUrl,
    headers: { authorization: `Token ${settings.token}` },
    timeoutMs: settings.timeoutMs,
    clock: settings.clock,
    ...(settings.health && { health: settings.health }),
  });
}
