import type { Clock } from '../base/clock.js';
import type { HealthReport } from './connector-health.js';
import {
  type BookedParcel,
  type BookingRequest,
  type Connector,
  courierRefused,
  type Instruction,
} from './connector.js';
import {
  errorWords,
  labelBarcodes,
  notFound,
  notRegistered,
  sameTokenRefused,
  unavailable,
  unregisteredAlias,
} from './ekart-answers.js';
import {
  CourierCallError,
  type CourierHttp,
  type CourierRequest,
  createCourierHttp,
  isTransient,
} from './courier-http.js';
import { type EkartTrackDetail, mapTrackDetails } from './ekart-scans.js';
import { ekartAddress, ekartNdrAction, ekartShipment } from './ekart-requests.js';
import { record, rupees, text } from './courier-answers.js';
import type { ParcelScans } from './carrier-event.js';

export interface EkartSettings {
  clientId: string;
  username: string;
  password: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** Pause before the one retry of a cancellation or an NDR action; tests shorten it. */
  retryDelayMs?: number;
  /** Where its calls' outcomes and its token's expiry are kept for GET /courier-connections. */
  health?: HealthReport;
}

const NAME = 'Ekart';
/** Ekart tracks one id a call; the poller hands over this many at a time. */
const BATCH = 20;
/** The most tracking ids one manifest call takes (its `label_ids` schema). */
const MANIFEST_MAX = 100;
/** A token is replaced this long before Ekart says it expires, so no call carries one that lapses on the way. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * Ekart's API as its OpenAPI description (v3.8.8) has it: a bearer token from
 * /integrations/v2/auth/token/{client_id}, each end of the lane checked at GET
 * /api/v2/serviceability/{pincode}, shipments created with PUT /api/v1/package/create (the
 * warehouse registered under its alias with POST /api/v2/address when Ekart knows no address by it) and
 * cancelled with DELETE /api/v1/package/cancel, a pickup's parcels manifested with POST
 * /data/v2/generate/manifest, tracking at GET /api/v1/track/{id} (an open call), NDR actions at
 * POST /api/v2/package/ndr.
 */
export function createEkartConnector(settings: EkartSettings, http: CourierHttp = defaultHttp(settings)): Connector {
  const retryDelayMs = settings.retryDelayMs ?? 1000;
  const pause = () => new Promise((resolve) => setTimeout(resolve, retryDelayMs));
  let token: { value: string; refreshAt: number } | undefined;
  // One token request at a time: callers that find the token stale wait on the same answer.
  let fetching: Promise<string> | undefined;
  /** Warehouse registrations under way, by alias. */
  const registering = new Map<string, Promise<void>>();

  async function fetchToken(): Promise<string> {
    const answer = record(
      await http.call({
        method: 'POST',
        path: `/integrations/v2/auth/token/${encodeURIComponent(settings.clientId)}`,
        json: { username: settings.username, password: settings.password },
      }),
    );
    const value = text(answer?.access_token);
    const seconds = answer?.expires_in;
    if (!value || typeof seconds !== 'number' || seconds <= 0)
      throw new CourierCallError('malformed', 'the token answer has no access_token or expires_in');
    const lifeMs = seconds * 1000;
    token = { value, refreshAt: settings.clock.now().getTime() + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 2) };
    settings.health?.tokenExpiry(new Date(settings.clock.now().getTime() + lifeMs));
    return value;
  }

  function currentToken(): Promise<string> {
    if (token && settings.clock.now().getTime() < token.refreshAt) return Promise.resolve(token.value);
    fetching ??= fetchToken().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  /**
   * A call with the bearer token; a 401 (a token Ekart dropped before its time) fetches a new one
   * and tries once more. Ekart's token call "is a caching API and will return the same token for a
   * period of 24h" (Ekart_API.yaml): when it hands back the token just refused, a second call would
   * meet the same 401, so the refusal is reported at once, naming the credentials.
   */
  async function authed(request: CourierRequest): Promise<unknown> {
    const used = await currentToken();
    try {
      return await http.call({ ...request, headers: { authorization: `Bearer ${used}` } });
    } catch (error) {
      if (!(error instanceof CourierCallError && error.kind === 'refused' && error.status === 401)) throw error;
      if (token?.value === used) token = undefined;
      const fresh = await currentToken();
      if (fresh === used) throw sameTokenRefused();
      return http.call({ ...request, headers: { authorization: `Bearer ${fresh}` } });
    }
  }

  /** Transient failures are tried once more: cancelling or instructing twice changes nothing. */
  async function twice(request: CourierRequest, what: string) {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const answer = record(await authed(request));
        const ack = record(Array.isArray(answer?.data) ? answer.data[0] : answer);
        if (ack?.status === true) return;
        throw courierRefused(NAME, `could not ${what}: ${text(ack?.remark) ?? 'no reason given'}`);
      } catch (error) {
        if (!isTransient(error)) throw unavailable(error);
        lastError = error;
        if (attempt === 0) await pause();
      }
    }
    throw unavailable(lastError);
  }

  /** A call that changes nothing at Ekart, tried once more after a transient failure. */
  async function read(request: CourierRequest): Promise<Record<string, unknown> | undefined> {
    try {
      return record(await authed(request));
    } catch (error) {
      if (!isTransient(error)) throw unavailable(error);
    }
    await pause();
    try {
      return record(await authed(request));
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Both ends of the lane, asked at once: a 422 naming the lane when Ekart does not collect at the
   * one end, deliver at the other, or take the cash on delivery asked. The V2 call is used rather
   * than V3's list of courier partners, whose answer for a lane nobody serves is not described.
   */
  async function checkLane(request: BookingRequest) {
    const reverse = request.journey === 'return';
    // Ekart's words for a reverse parcel are the forward ones turned round: it is collected from the customer.
    // The fields name the order's own: the customer's pincode is billing_pincode forward, pickup_pincode on a return.
    const from = {
      pin: request.pickup.pincode,
      flag: reverse ? 'reverse_drop' : 'forward_pickup',
      field: 'warehouse_id',
      missing: reverse ? 'takes no returns back' : 'collects nothing',
    };
    const to = {
      pin: request.consignee.pincode,
      flag: reverse ? 'reverse_pickup' : 'forward_drop',
      field: reverse ? 'pickup_pincode' : 'billing_pincode',
      missing: reverse ? 'collects no returns' : 'delivers nothing',
    };
    const lane = reverse ? `${to.pin} → ${from.pin}` : `${from.pin} → ${to.pin}`;
    const [origin, destination] = await Promise.all(
      [from, to].map((end) => read({ method: 'GET', path: `/api/v2/serviceability/${end.pin}` })),
    );
    for (const [end, answer] of [
      [to, destination],
      [from, origin],
    ] as const) {
      const details = record(answer?.details);
      if (answer?.status !== true)
        throw courierRefused(
          NAME,
          `the lane ${lane} is not serviceable: ${text(answer?.remark) ?? `pincode ${end.pin} is not served`}`,
          end.field,
        );
      if (details?.[end.flag] !== true)
        throw courierRefused(
          NAME,
          `the lane ${lane} is not serviceable: Ekart ${end.missing} at pincode ${end.pin}`,
          end.field,
        );
    }
    if (reverse || request.paymentMethod !== 'cod') return;
    const details = record(destination?.details);
    const limit = typeof details?.max_cod_amount === 'number' ? details.max_cod_amount : 0;
    if (details?.cod !== true || limit <= 0)
      throw courierRefused(NAME, `the lane ${lane} takes no cash on delivery at pincode ${to.pin}`, 'payment_method');
    if (rupees(request.codPaise) > limit) {
      throw courierRefused(
        NAME,
        `the lane ${lane} takes cash on delivery up to ₹${limit} at pincode ${to.pin}; this parcel asks ₹${rupees(request.codPaise)}`,
        'sub_total',
      );
    }
  }

  /**
   * PUT /api/v1/package/create, sent once. Ekart offers no look-up by order number, so after a
   * time-out or a 5xx nobody can tell whether it booked the parcel; a second create could book it
   * twice (decision 79). Only Ekart's 404 for an unknown alias, which books nothing, is sent again (book).
   */
  async function create(request: BookingRequest): Promise<BookedParcel> {
    const answer = record(
      await authed({ method: 'PUT', path: '/api/v1/package/create', json: ekartShipment(request) }),
    );
    const awb = text(answer?.tracking_id);
    if (answer?.status === true && awb) return { awb, routingCode: null, ...labelBarcodes(answer.barcodes, awb) };
    if (answer?.status === false) throw courierRefused(NAME, text(answer.remark) ?? 'the booking was refused');
    throw new CourierCallError('malformed', 'the booking answer has no tracking_id');
  }

  /**
   * Registers the warehouse as a pickup and return address under its alias (POST /api/v2/address);
   * concurrent bookings from one warehouse wait on one registration. A refusal is the merchant's
   * 422 naming the warehouse; an Ekart that cannot be reached, a 502 with nothing booked.
   */
  function registerWarehouse(warehouse: BookingRequest['pickup']): Promise<void> {
    const alias = warehouse.locationName;
    let pending = registering.get(alias);
    if (!pending) {
      pending = (async () => {
        let answer: Record<string, unknown> | undefined;
        try {
          answer = record(await authed({ method: 'POST', path: '/api/v2/address', json: ekartAddress(warehouse) }));
        } catch (error) {
          const words = error instanceof CourierCallError && error.kind === 'refused' ? errorWords(error.body) : '';
          if (words && error instanceof CourierCallError && error.status !== 401 && error.status !== 403)
            throw notRegistered(alias, `Ekart refused to register it: ${words}`);
          throw unavailable(error);
        }
        if (answer?.status !== true)
          throw notRegistered(alias, `Ekart refused to register it: ${text(answer?.remark) ?? 'no reason given'}`);
      })().finally(() => registering.delete(alias));
      registering.set(alias, pending);
    }
    return pending;
  }

  return {
    name: 'ekart',
    pulls: true,
    batchSize: BATCH,

    async book(_service, request) {
      await checkLane(request);
      try {
        return await create(request);
      } catch (error) {
        if (!unregisteredAlias(error)) throw unavailable(error);
      }
      // Nothing was booked: Ekart has no address under the warehouse's alias. Registered, and the
      // create sent once more, as a production client does (index id 71527861319).
      await registerWarehouse(request.pickup);
      try {
        return await create(request);
      } catch (error) {
        if (!unregisteredAlias(error)) throw unavailable(error);
        throw notRegistered(
          request.pickup.locationName,
          'Ekart still knows no address by that name after Dakiya registered it',
        );
      }
    },

    /**
     * Ekart collects what was created for the pickup address and has no pickup request; a pickup
     * the merchant makes has its parcels manifested at Ekart (100 a call), whose manifest numbers
     * are the pickup's reference. Sent once, like Delhivery's pickup request: a failure is the
     * merchant's to retry, and nothing is written meanwhile (decision 100).
     */
    async requestPickup(_service, pickup) {
      if (!pickup.awbs || pickup.awbs.length === 0) return null;
      const numbers: string[] = [];
      for (let i = 0; i < pickup.awbs.length; i += MANIFEST_MAX) {
        try {
          const answer = record(
            await authed({
              method: 'POST',
              path: '/data/v2/generate/manifest',
              json: { ids: pickup.awbs.slice(i, i + MANIFEST_MAX) },
            }),
          );
          const number = answer?.manifestNumber;
          if (typeof number !== 'number' && !text(number))
            throw new CourierCallError('malformed', 'the manifest answer has no manifestNumber');
          numbers.push(String(number));
        } catch (error) {
          throw unavailable(error);
        }
      }
      return numbers.join(', ');
    },

    async cancel(_service, awb) {
      await twice({ method: 'DELETE', path: '/api/v1/package/cancel', query: { tracking_id: awb } }, 'cancel it');
    },

    async instruct(_service, awb, instruction: Instruction) {
      await twice(
        { method: 'POST', path: '/api/v2/package/ndr', json: ekartNdrAction(awb, instruction) },
        instruction.action === 'rto' ? 'return it to origin' : 'attempt it again',
      );
    },

    async pull(_service, parcels) {
      const scans = new Map<string, ParcelScans>();
      for (const { awb, journey } of parcels) {
        let answer: Record<string, unknown> | undefined;
        try {
          answer = record(await http.call({ method: 'GET', path: `/api/v1/track/${encodeURIComponent(awb)}` }));
        } catch (error) {
          if (notFound(error)) continue;
          throw error;
        }
        const track = record(answer?.track);
        if (!track) throw new CourierCallError('malformed', 'the tracking answer has no track');
        const details = Array.isArray(track.details)
          ? track.details.map(record).filter((d) => d !== undefined)
          : [track];
        scans.set(awb, mapTrackDetails(awb, details as EkartTrackDetail[], journey));
      }
      return scans;
    },

    readScans: (parcel, raw) =>
      mapTrackDetails(parcel.awb, raw.map(record).filter((d) => d !== undefined) as EkartTrackDetail[], parcel.journey),
  };
}

function defaultHttp(settings: EkartSettings): CourierHttp {
  return createCourierHttp({
    baseUrl: settings.baseUrl,
    headers: {},
    timeoutMs: settings.timeoutMs,
    clock: settings.clock,
    health: settings.health,
  });
}
