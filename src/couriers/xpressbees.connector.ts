import { callFailure } from './call-failure.js';
import type { Clock } from '../base/clock.js';
import type { CourierService } from '../domain/rates/catalogue.js';
import {
  type BookingRequest,
  type Connector,
  courierRefused,
  courierCredentialsRejected,
  type Instruction,
  type ParcelAddress,
} from './connector.js';
import type { HealthReport } from './connector-health.js';
import {
  CourierCallError,
  type CourierHttp,
  type CourierRequest,
  createCourierHttp,
  isTransient,
} from './courier-http.js';
import { chooseXpressbeesProduct } from './xpressbees-products.js';
import { mapHistory, type XpressbeesHistoryItem } from './xpressbees-scans.js';
import type { ParcelScans } from './carrier-event.js';

export interface XpressbeesSettings {
  email: string;
  password: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  health?: HealthReport;
  /** Pause before the one retry of a read, a cancellation or an NDR action; tests shorten it. */
  retryDelayMs?: number;
}

const NAME = 'Xpressbees';
/** Xpressbees tracks one AWB a call; the poller hands over this many at a time. */
const BATCH = 20;
/** A token is replaced this long before it lapses, so no call carries one that lapses on the way. */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** The life assumed for a token whose expiry cannot be read (not a JWT): short, as a login is cheap. */
const UNKNOWN_TOKEN_LIFE_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
const IST_MS = 330 * 60_000;

const rupees = (paise: number) => Math.round(paise) / 100;
const whole = (value: number) => Math.max(1, Math.ceil(value));
const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** Xpressbees answers {status, message, data}; its failures say why in `message`. */
const words = (body: unknown) => text(record(body)?.message);

function unavailable(error: unknown) {
  // Xpressbees trades an e-mail and password for its token: a refusal is of that login.
  if (error instanceof CourierCallError && error.kind === 'refused' && (error.status === 401 || error.status === 403))
    return refusedLogin(error.status);
  return callFailure(error, { name: NAME, credentials: 'XPRESSBEES_EMAIL and XPRESSBEES_PASSWORD', reasons: words });
}

const refusedLogin = (status: number | string) =>
  courierCredentialsRejected(
    NAME,
    `it refused our login (${typeof status === 'number' ? `HTTP ${status}` : status}); the operator must check XPRESSBEES_EMAIL and XPRESSBEES_PASSWORD`,
  );

/** When a JWT says it lapses (its `exp`), in milliseconds; undefined for a token that is not one. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && exp > 0 ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Xpressbees' shipping API, which it does not document publicly: built from the shapes its public
 * client code uses (docs/couriers.md). A bearer token from POST /api/users/login; the product (the
 * slab for the parcel's weight) from POST /api/courier/serviceability; shipments created with POST
 * /api/shipments2, cancelled with POST /api/shipments2/cancel, tracked at GET
 * /api/shipments2/track/{awb}; NDR actions at POST /api/ndr/create.
 */
export function createXpressbeesConnector(
  settings: XpressbeesSettings,
  http: CourierHttp = defaultHttp(settings),
): Connector {
  const retryDelayMs = settings.retryDelayMs ?? 1000;
  const pause = () => new Promise((resolve) => setTimeout(resolve, retryDelayMs));
  const now = () => settings.clock.now().getTime();
  let token: { value: string; refreshAt: number } | undefined;
  // One login at a time: callers that find the token stale wait on the same answer.
  let fetching: Promise<string> | undefined;

  async function login(): Promise<string> {
    let answer: Record<string, unknown> | undefined;
    try {
      answer = record(
        await http.call({
          method: 'POST',
          path: '/api/users/login',
          json: { email: settings.email, password: settings.password },
        }),
      );
    } catch (error) {
      if (
        error instanceof CourierCallError &&
        error.kind === 'refused' &&
        (error.status === 401 || error.status === 403 || error.status === 422)
      ) {
        throw refusedLogin(error.status);
      }
      throw error;
    }
    if (answer?.status === false) throw refusedLogin(words(answer) ?? 'no reason given');
    const value = text(answer?.data);
    if (answer?.status !== true || !value) throw new CourierCallError('malformed', 'the login answer has no token');
    const expiresAt = jwtExpiry(value) ?? now() + UNKNOWN_TOKEN_LIFE_MS;
    const lifeMs = Math.max(0, expiresAt - now());
    token = { value, refreshAt: expiresAt - Math.min(TOKEN_MARGIN_MS, lifeMs / 2) };
    settings.health?.tokenExpiry(new Date(expiresAt));
    return value;
  }

  function currentToken(): Promise<string> {
    if (token && now() < token.refreshAt) return Promise.resolve(token.value);
    fetching ??= login().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  /** A call with the bearer token; a 401 (a token Xpressbees dropped before its time) logs in again and tries once more. */
  async function authed(request: CourierRequest): Promise<unknown> {
    const used = await currentToken();
    try {
      return await http.call({ ...request, headers: { authorization: `Bearer ${used}` } });
    } catch (error) {
      if (!(error instanceof CourierCallError && error.kind === 'refused' && error.status === 401)) throw error;
      if (token?.value === used) token = undefined;
      return http.call({ ...request, headers: { authorization: `Bearer ${await currentToken()}` } });
    }
  }

  /** Transient failures are tried once more: for calls that change nothing when repeated. */
  async function twice<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransient(error)) throw unavailable(error);
    }
    await pause();
    try {
      return await attempt();
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * The product to book for the lane, the service's level (air or surface) and the parcel's weight
   * (xpressbees-products.ts), or a 422.
   */
  async function courierFor(service: CourierService, request: BookingRequest): Promise<string> {
    const answer = record(
      await twice(() =>
        authed({ method: 'POST', path: '/api/courier/serviceability', json: serviceabilityQuery(request) }),
      ),
    );
    const offered = Array.isArray(answer?.data) ? answer.data : [];
    const pin = request.consignee.pincode;
    if (answer?.status !== true || offered.length === 0)
      throw courierRefused(
        NAME,
        words(answer) ?? `pincode ${pin} is not serviceable from ${request.pickup.pincode}`,
        'billing_pincode',
      );
    const chosen = chooseXpressbeesProduct(offered, service.serviceLevel, whole(request.weightGrams));
    if ('none' in chosen) throw courierRefused(NAME, `${chosen.none} to pincode ${pin}`, 'billing_pincode');
    return chosen.id;
  }

  return {
    name: 'xpressbees',
    pulls: true,
    batchSize: BATCH,

    async book(service, request) {
      // Xpressbees books reverse pickups at POST /api/reverseshipments with another body, on its
      // "Express Reverse" product (index ids 70550452990, 52338113957): not connected yet.
      if (request.journey === 'return')
        throw courierRefused(
          NAME,
          'reverse pickups are not connected in Dakiya yet; book the return with another courier',
          'carrier_id',
        );
      const courierId = await courierFor(service, request);
      // Sent once: with no look-up by order number, nobody can tell after a time-out or a 5xx
      // whether Xpressbees booked the parcel, and a second create could book it twice (decision 88).
      try {
        const answer = record(
          await authed({ method: 'POST', path: '/api/shipments2', json: shipment(request, courierId) }),
        );
        const data = record(answer?.data);
        const awb = text(data?.awb_number);
        if (answer?.status === true && awb) return { awb, routingCode: text(data?.fwd_destination_code) ?? null };
        if (answer?.status === false) throw courierRefused(NAME, words(answer) ?? 'the booking was refused');
        throw new CourierCallError('malformed', 'the booking answer has no awb_number');
      } catch (error) {
        throw unavailable(error);
      }
    },

    // Bookings go with request_auto_pickup: Xpressbees schedules the pickup itself.
    requestPickup: async () => null,

    async cancel(_service, awb) {
      const answer = record(
        await twice(() => authed({ method: 'POST', path: '/api/shipments2/cancel', json: { awb } })),
      );
      if (answer?.status !== true)
        throw courierRefused(NAME, `could not cancel it: ${words(answer) ?? 'no reason given'}`);
    },

    async instruct(_service, awb, instruction: Instruction) {
      // Xpressbees' NDR API has no RTO action: a parcel nobody asks to re-attempt goes back to the
      // seller after its failed attempts, so an RTO is acknowledged without a call (decision 89).
      if (instruction.action === 'rto') return;
      const actions = ndrActions(awb, instruction);
      const answer = await twice(() => authed({ method: 'POST', path: '/api/ndr/create', json: actions }));
      const results = (Array.isArray(answer) ? answer : [answer]).map(record);
      const failed = results.find((r) => r?.status !== true);
      if (results.length === 0 || failed)
        throw courierRefused(NAME, `could not attempt it again: ${words(failed) ?? 'no reason given'}`);
    },

    async pull(_service, parcels) {
      const scans = new Map<string, ParcelScans>();
      for (const { awb, journey } of parcels) {
        let answer: Record<string, unknown> | undefined;
        try {
          answer = record(await authed({ method: 'GET', path: `/api/shipments2/track/${encodeURIComponent(awb)}` }));
        } catch (error) {
          if (error instanceof CourierCallError && error.status === 404) continue;
          throw error;
        }
        // An AWB Xpressbees does not know is {status: false, message: "No record found"}.
        if (answer?.status === false) continue;
        const history = record(answer?.data)?.history;
        if (!Array.isArray(history)) throw new CourierCallError('malformed', 'the tracking answer has no history');
        scans.set(
          awb,
          mapHistory(awb, history.map(record).filter((h) => h !== undefined) as XpressbeesHistoryItem[], journey),
        );
      }
      return scans;
    },

    readScans: (parcel, raw) =>
      mapHistory(parcel.awb, raw.map(record).filter((h) => h !== undefined) as XpressbeesHistoryItem[], parcel.journey),
  };
}

function serviceabilityQuery(request: BookingRequest) {
  return {
    origin: request.pickup.pincode,
    destination: request.consignee.pincode,
    payment_type: request.paymentMethod,
    order_amount: String(rupees(request.totalPaise)),
    weight: String(whole(request.weightGrams)),
    length: String(whole(request.lengthCm)),
    breadth: String(whole(request.breadthCm)),
    height: String(whole(request.heightCm)),
  };
}

const party = (address: ParcelAddress) => ({
  name: address.name,
  address: address.address,
  address_2: '',
  city: address.city,
  state: address.state,
  pincode: address.pincode,
  phone: address.phone.slice(-10),
});

/**
 * The create body: our shipment id as the order number, marked unique so Xpressbees itself refuses
 * a second parcel for it; amounts in rupees, weight in grams, sizes in whole centimetres.
 */
function shipment(request: BookingRequest, courierId: string) {
  const cod = request.paymentMethod === 'cod';
  const quantity = Math.max(1, request.quantity);
  return {
    order_number: request.reference,
    unique_order_number: 'yes',
    shipping_charges: 0,
    discount: 0,
    cod_charges: 0,
    payment_type: cod ? 'cod' : 'prepaid',
    order_amount: rupees(request.totalPaise),
    package_weight: whole(request.weightGrams),
    package_length: whole(request.lengthCm),
    package_breadth: whole(request.breadthCm),
    package_height: whole(request.heightCm),
    request_auto_pickup: 'yes',
    consignee: party(request.consignee),
    pickup: { warehouse_name: request.pickup.locationName, ...party(request.pickup) },
    order_items: [
      {
        name: request.productsDescription,
        qty: String(quantity),
        price: String(rupees(request.totalPaise / quantity)),
        sku: request.merchantOrderId,
      },
    ],
    courier_id: courierId,
    collectable_amount: cod ? rupees(request.codPaise) : 0,
  };
}

/**
 * An instruction as the dispatcher may hand it: with the consignee's name, which Xpressbees'
 * address change carries (below). Until the dispatcher passes it, the change goes without it.
 */

/**
 * A reattempt on the merchant's date, else the day after the instruction (India time); a new phone
 * or address goes as its own action in the same call. The address change names the consignee, as
 * Xpressbees' own sample has it: `{"action": "change_address", "action_data": {"name": …,
 * "address_1": …, "address_2": …}}` (fixtures/xpressbees.fixtures.ts, index id 52338113957).
 */
function ndrActions(awb: string, instruction: Instruction) {
  const p = instruction.payload;
  const nextDay = new Date(Math.floor((instruction.at.getTime() + IST_MS) / DAY_MS) * DAY_MS + DAY_MS)
    .toISOString()
    .slice(0, 10);
  // The merchant's corrected street address (same pincode) and landmark, as the NDR route takes them.
  const address = record(p.updated_address) as { address_line?: string; landmark?: string } | undefined;
  const name = text(instruction.consigneeName);
  const date =
    typeof p.reattempt_date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(p.reattempt_date)
      ? p.reattempt_date.slice(0, 10)
      : nextDay;
  return [
    {
      awb,
      action: 're-attempt',
      action_data: { re_attempt_date: date, ...(typeof p.comments === 'string' && { remarks: p.comments }) },
    },
    ...(address?.address_line
      ? [
          {
            awb,
            action: 'change_address',
            action_data: {
              ...(name && { name }),
              address_1: address.address_line,
              address_2: address.landmark ?? '',
            },
          },
        ]
      : []),
    ...(typeof p.updated_phone_number === 'string'
      ? [{ awb, action: 'change_phone', action_data: { phone: p.updated_phone_number.slice(-10) } }]
      : []),
  ];
}

function defaultHttp(settings: XpressbeesSettings): CourierHttp {
  return createCourierHttp({
    baseUrl: settings.baseUrl,
    headers: {},
    timeoutMs: settings.timeoutMs,
    clock: settings.clock,
    health: settings.health,
  });
}
