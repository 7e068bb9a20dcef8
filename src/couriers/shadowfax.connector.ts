import type { Clock } from '../base/clock.js';
import type { HealthReport } from './connector-health.js';
import { type BookingRequest, type Connector, courierRefused, type Instruction } from './connector.js';
import { record } from './courier-answers.js';
import {
  CourierCallError,
  type CourierHttp,
  type CourierRequest,
  createCourierHttp,
  isTransient,
} from './courier-http.js';
import type { ShadowfaxOrderType } from './couriers.settings.js';
import {
  bookedAwb,
  type CancelOutcome,
  errorWords,
  NAME,
  readCancelAnswer,
  readReverseCancelAnswer,
  unavailable,
  updateTaken,
} from './shadowfax-answers.js';
import {
  shadowfaxCancel,
  shadowfaxForwardOrder,
  shadowfaxReattempt,
  shadowfaxReverseCancel,
  shadowfaxReversePickup,
} from './shadowfax-requests.js';
import { readShadowfaxScans } from './shadowfax-return-scans.js';
import { pullShadowfax } from './shadowfax-tracking.js';

export { errorWords } from './shadowfax-answers.js';

export interface ShadowfaxSettings {
  token: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** The order type the client account is set up for (SHADOWFAX_ORDER_TYPE, or the account's own); warehouse unless given. */
  orderType?: ShadowfaxOrderType;
  /** Pause before the one retry of a cancellation or an NDR instruction; tests shorten it. */
  retryDelayMs?: number;
  /** Told of each call's outcome (the courier connections screen). */
  health?: HealthReport;
}

/** Shadowfax's bulk tracking answers up to 50 AWBs a call. */
const BATCH = 50;

/**
 * Shadowfax's client API as its documentation and public integrations show it (docs/couriers.md):
 * `Authorization: Token <key>` on every call; forward orders created at POST /api/v3/clients/orders/
 * (`order_type` the account's) and cancelled at POST /api/v3/clients/orders/cancel/; reverse
 * pickups (with QC) at POST /api/v3/clients/requests, cancelled at POST
 * /api/v2/clients/requests/mark_cancel and tracked at GET /api/v4/clients/requests/{id}; forward
 * tracking at GET /api/v4/clients/orders/{awb}/track/ and, for many, POST
 * /api/v4/clients/bulk_track/; re-attempts at POST /api/v3/clients/order_update/; the customer's
 * pincode checked first at GET /api/v1/clients/serviceability/.
 */
export function createShadowfaxConnector(
  settings: ShadowfaxSettings,
  http: CourierHttp = defaultHttp(settings),
): Connector {
  const retryDelayMs = settings.retryDelayMs ?? 1000;
  const orderType = settings.orderType ?? 'warehouse';
  const pause = () => new Promise((resolve) => setTimeout(resolve, retryDelayMs));

  /**
   * A call tried once more after a transient failure (cancelling or instructing twice changes
   * nothing), its answer read by `read`: an answer in an HTTP 4xx with Shadowfax's words in it
   * (its 400 "Invalid state") is read too.
   */
  async function twice<T>(request: CourierRequest, read: (body: unknown) => T): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return read(await http.call(request));
      } catch (error) {
        const answered = error instanceof CourierCallError && error.kind === 'refused' && error.status === 400;
        if (answered && record(error.body)) return read(error.body);
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

  /** Done, `{ queued }` when Shadowfax took it for later (its tracking confirms it), or a 422 in its words. */
  function settle(outcome: CancelOutcome, what: string) {
    if (outcome === 'cancelled') return;
    if ('queued' in outcome) return { queued: outcome.queued };
    throw courierRefused(NAME, `could not ${what}: ${outcome.refused}`);
  }

  const cancelForward = async (awb: string, remarks: string, what: string) =>
    settle(
      await twice(
        { method: 'POST', path: '/api/v3/clients/orders/cancel/', json: shadowfaxCancel(awb, remarks) },
        readCancelAnswer,
      ),
      what,
    );

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
        const answer = await http.call(
          reverse
            ? { method: 'POST', path: '/api/v3/clients/requests', json: shadowfaxReversePickup(request) }
            : { method: 'POST', path: '/api/v3/clients/orders/', json: shadowfaxForwardOrder(request, orderType) },
        );
        const booked = bookedAwb(answer, request.reference);
        if (booked) return booked;
        const words = errorWords(answer);
        if (words) throw courierRefused(NAME, words);
        throw new CourierCallError('malformed', 'the booking answer has no awb_number');
      } catch (error) {
        throw unavailable(error);
      }
    },

    // Shadowfax collects what was created for the pickup address; this API has no pickup request.
    requestPickup: async () => null,

    async cancel(_service, awb, _ex, journey) {
      if (journey === 'return') {
        return settle(
          await twice(
            { method: 'POST', path: '/api/v2/clients/requests/mark_cancel', json: shadowfaxReverseCancel(awb) },
            readReverseCancelAnswer,
          ),
          'cancel the pickup',
        );
      }
      return cancelForward(awb, 'Cancelled by the merchant', 'cancel it');
    },

    async instruct(_service, awb, instruction: Instruction) {
      // Shadowfax returns a parcel it has picked up when it is cancelled; a cancellation queued while
      // the parcel moves is still the return asked for, which its tracking shows.
      if (instruction.action === 'rto') {
        await cancelForward(awb, 'Return to seller requested by the merchant', 'return it to the seller');
        return;
      }
      const body = shadowfaxReattempt(awb, instruction);
      const taken = await twice({ method: 'POST', path: '/api/v3/clients/order_update/', json: body }, updateTaken);
      if (taken !== true) throw courierRefused(NAME, `could not attempt it again: ${taken.refused}`);
    },

    pull: (_service, parcels) => pullShadowfax(http, parcels),

    readScans: (parcel, raw) => readShadowfaxScans(parcel.awb, parcel.journey, raw),
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
