import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XPRESSBEES_ACCOUNT_PRODUCTS } from '../../couriers/fixtures/xpressbees.fixtures.js';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';

/**
 * A local stand-in for Xpressbees' shipping API, which Xpressbees does not document publicly: the
 * shapes its public client code uses. POST /api/users/login ({email, password} → {status, data:
 * token}, a JWT whose exp lapses on the simulator's clock), POST /api/courier/serviceability (the
 * account's real products, below), POST /api/shipments2 (order numbers unique when asked), POST
 * /api/shipments2/cancel, GET /api/shipments2/track/{awb}, POST /api/ndr/create (an array of
 * actions, answered per action; an address change `{name, address_1, address_2}` as Xpressbees' own
 * sample has it, index id 52338113957), and its failure answer {status: false, message}. It checks
 * what it is sent, can drop every token (a 401 on the next call) and fail the next calls of a path.
 * It limits the signed-in user's calls as the Laravel application the answers show it to be does
 * (its throttle: 429 {"message": "Too Many Attempts."} with Retry-After and
 * X-RateLimit-Limit/Remaining/Reset).
 */
export interface XpressbeesSimScan {
  status_code: string;
  event_time: string;
  message: string;
  location?: string;
}

export interface XpressbeesSimShipment {
  awb: string;
  body: Record<string, unknown>;
  history: XpressbeesSimScan[];
  cancelled: boolean;
}

export interface XpressbeesSimRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

/** `book-then-timeout` books the parcel and never answers: the outcome the caller cannot know. */
type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | '429';

export const XPRESSBEES_EMAIL = 'ops@dakiya.test';
export const XPRESSBEES_PASSWORD = 'xb-pass-3f9a1c';

/**
 * The products of a self-serve account on every lane the simulator serves, with their courier ids,
 * in the order a real account lists them (fixtures/xpressbees.fixtures.ts: names and ids as
 * production clients captured them). Alphabetical, so "the first name without Air" is the reverse
 * product: a connector that books by that rule is caught.
 */
export const XPRESSBEES_COURIERS = XPRESSBEES_ACCOUNT_PRODUCTS;

/**
 * What the serviceability answer says of one product for a parcel (its fields as clients read them:
 * id, name, freight_charges, cod_charges, total_charges, min_weight, chargeable_weight; index ids
 * 9217601558, 8949145748). No captured answer gives the weights' values, so the simulator's are a
 * reading to verify on a live account: `min_weight` is the slab its name states (grams), and
 * `chargeable_weight` the parcel's weight in 500 g steps, never below the slab.
 */
function quote(product: { id: string; name: string }, weight: number, cod: boolean) {
  const slab = Math.round(Number(/(\d+(?:\.\d+)?)\s*K\.G/.exec(product.name)?.[1] ?? 0.5) * 1000);
  const chargeable = Math.max(slab, Math.ceil(Math.max(1, weight) / 500) * 500);
  // Heavier slabs cost more for their first kilograms and less per extra 500 g; air costs most.
  const freight = Math.round((/\bAir\b/.test(product.name) ? 60 : 30) + slab / 100 + (chargeable - slab) / 25);
  const codCharges = cod ? 30 : 0;
  return {
    ...product,
    freight_charges: freight,
    cod_charges: codCharges,
    total_charges: freight + codCharges,
    min_weight: slab,
    chargeable_weight: chargeable,
  };
}

const REQUIRED = [
  'order_number',
  'payment_type',
  'order_amount',
  'package_weight',
  'package_length',
  'package_breadth',
  'package_height',
  'consignee',
  'pickup',
  'order_items',
  'courier_id',
];
const PARTY = ['name', 'address', 'city', 'state', 'pincode', 'phone'];
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startXpressbeesSimulator(
  options: { tokenSeconds?: number; now?: () => Date; jwt?: boolean; rateLimit?: Partial<SimRateLimit> } = {},
) {
  const now = () => (options.now ?? (() => new Date()))().getTime();
  const limiter = createSimRateLimiter({ now, ...options.rateLimit });
  const shipments = new Map<string, XpressbeesSimShipment>();
  const requests: XpressbeesSimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const ndrActions: Record<string, unknown>[] = [];
  const tokens = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let issued = 0;
  let nextAwb = 1;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const no = (res: ServerResponse, message: string, status = 200) => send(res, status, { status: false, message });

  function issueToken(): string {
    const exp = Math.floor(now() / 1000) + (options.tokenSeconds ?? 86_400);
    const n = ++issued;
    const token =
      options.jwt === false
        ? `xbt-${n}-${Math.random().toString(36).slice(2)}`
        : `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: XPRESSBEES_EMAIL, n, exp })}.sim${n}`;
    tokens.set(token, exp * 1000);
    return token;
  }

  function create(res: ServerResponse, body: Record<string, unknown>, failure: Failure | undefined) {
    const missing = REQUIRED.filter((field) => body[field] === undefined || body[field] === null || body[field] === '');
    for (const side of ['consignee', 'pickup'] as const) {
      const party = (body[side] ?? {}) as Record<string, unknown>;
      missing.push(...PARTY.filter((field) => !party[field]).map((field) => `${side}.${field}`));
    }
    if (missing.length > 0) return no(res, `The ${missing[0]} field is required.`, 422);
    if (!XPRESSBEES_COURIERS.some((c) => c.id === body.courier_id)) return no(res, 'Invalid courier id');
    const reused = [...shipments.values()].find((s) => s.body.order_number === body.order_number);
    if (reused && body.unique_order_number === 'yes')
      return no(res, `Order number ${String(body.order_number)} already exists`);
    if (body.payment_type === 'cod' && Number(body.collectable_amount) > 50_000)
      return no(res, 'Collectable amount can not be more than 50000');
    const awb = `1412${String(81_000_000 + nextAwb++).padStart(10, '0')}`;
    shipments.set(awb, { awb, body, history: [], cancelled: false });
    if (failure === 'book-then-timeout') return void hanging.add(res);
    return send(res, 200, {
      status: true,
      data: {
        order_id: 4_340_000 + nextAwb,
        shipment_id: 2_482_000 + nextAwb,
        awb_number: awb,
        courier_id: body.courier_id,
        courier_name: XPRESSBEES_COURIERS.find((c) => c.id === body.courier_id)!.name,
        status: 'booked',
        payment_type: body.payment_type,
        fwd_destination_code: 'BOM/MRD',
        label: `https://xpressbees.test/labels/${awb}.pdf`,
      },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = url.pathname;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const failure = failures.get(path)?.shift();
    if (failure === 'timeout') return void hanging.add(res);
    if (failure === '500')
      return send(res, 500, '<html><body>500 Internal Server Error</body></html>', { 'content-type': 'text/html' });
    if (failure === 'malformed') return send(res, 200, '{"status": true, "data": {"awb_number": "1412');
    if (failure === '429')
      return send(res, 429, { status: false, message: 'Too Many Attempts.' }, { 'retry-after': '7' });

    if (req.method === 'POST' && path === '/api/users/login') {
      const { email, password } = JSON.parse(body || '{}') as { email?: string; password?: string };
      if (email !== XPRESSBEES_EMAIL || password !== XPRESSBEES_PASSWORD)
        return no(res, 'Invalid email or password', 401);
      return send(res, 200, { status: true, data: issueToken() });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    const expiresAt = tokens.get(token);
    if (expiresAt === undefined) return no(res, 'Unauthenticated.', 401);
    if (now() >= expiresAt) return no(res, 'Token has expired', 401);
    // Every token is the one shipping account's: Laravel counts the user's calls, whichever token.
    const wait = limiter.take(XPRESSBEES_EMAIL);
    if (wait !== undefined) {
      const { requests: most } = limiter.limit;
      const reset = String(Math.ceil(limiter.limit.now() / 1000) + wait);
      return send(
        res,
        429,
        { status: false, message: 'Too Many Attempts.' },
        {
          'retry-after': String(wait),
          'x-ratelimit-limit': String(most),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': reset,
        },
      );
    }
    const json = JSON.parse(body || 'null') as unknown;

    if (req.method === 'POST' && path === '/api/courier/serviceability') {
      const query = json as Record<string, unknown>;
      for (const field of ['origin', 'destination'] as const) {
        if (!/^[1-9]\d{5}$/.test(String(query[field] ?? '')))
          return no(
            res,
            `The ${field === 'origin' ? 'Origin' : 'Destination'} field must be exactly 6 characters in length.`,
            422,
          );
      }
      if (String(query.destination).startsWith('79')) return send(res, 200, { status: true, data: [] });
      const onlySurface = String(query.destination).startsWith('18');
      const offered = XPRESSBEES_COURIERS.filter((c) => !onlySurface || !/\bAir\b/.test(c.name));
      return send(res, 200, {
        status: true,
        data: offered.map((c) => quote(c, Number(query.weight), query.payment_type === 'cod')),
      });
    }
    if (req.method === 'POST' && path === '/api/shipments2')
      return create(res, json as Record<string, unknown>, failure);
    if (req.method === 'POST' && path === '/api/shipments2/cancel') {
      const awb = String((json as Record<string, unknown>).awb ?? '');
      const shipment = shipments.get(awb);
      if (!shipment) return no(res, `AWB ${awb} not found`);
      if (shipment.cancelled) return no(res, 'Shipment already cancelled');
      if (shipment.history.some((s) => s.status_code !== 'PP'))
        return no(res, 'Shipment already picked up, can not be cancelled');
      shipment.cancelled = true;
      return send(res, 200, { status: true, message: 'Shipment cancelled successfully' });
    }
    const track = /^\/api\/shipments2\/track\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && track) {
      const shipment = shipments.get(decodeURIComponent(track[1]!));
      if (!shipment) return no(res, 'No record found');
      const status = shipment.cancelled ? 'cancelled' : (shipment.history.at(-1)?.message.toLowerCase() ?? 'booked');
      return send(res, 200, {
        status: true,
        data: { awb_number: shipment.awb, order_number: shipment.body.order_number, status, history: shipment.history },
      });
    }
    if (req.method === 'POST' && path === '/api/ndr/create') {
      if (!Array.isArray(json)) return no(res, 'The given data was invalid.', 422);
      return send(
        res,
        200,
        json.map((item: Record<string, unknown>) => {
          const data = (item.action_data ?? {}) as Record<string, unknown>;
          if (!shipments.has(String(item.awb))) return { status: false, message: `AWB ${String(item.awb)} not found` };
          if (item.action === 're-attempt' && !/^\d{4}-\d{2}-\d{2}$/.test(String(data.re_attempt_date ?? '')))
            return { status: false, message: 're_attempt_date is required' };
          if (item.action === 'change_phone' && !/^\d{10}$/.test(String(data.phone ?? '')))
            return { status: false, message: 'phone must be 10 digits' };
          if (item.action === 'change_address' && !data.address_1)
            return { status: false, message: 'address_1 is required' };
          if (!['re-attempt', 'change_address', 'change_phone'].includes(String(item.action)))
            return { status: false, message: 'Invalid action' };
          ndrActions.push(item);
          return { status: true, message: 'NDR action submitted' };
        }),
      );
    }
    return no(res, `${req.method} ${path} not found`, 404);
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    shipments,
    requests,
    ndrActions,
    /** Logins answered with a token so far. */
    tokensIssued: () => issued,
    /** Xpressbees forgets every token it issued: the next authorised call answers 401. */
    dropTokens: () => tokens.clear(),
    /** The next `count` calls to `path` fail this way. */
    failNext(path: string, failure: Failure, count = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array<Failure>(count).fill(failure)]);
    },
    scan(awb: string, ...history: XpressbeesSimScan[]) {
      shipments.get(awb)!.history.push(...history);
    },
    callsTo: (path: string) => requests.filter((r) => r.path === path),
    /** Limits the account's calls from now on (the default limit for what is not given). */
    limitRate: (limit?: Partial<SimRateLimit>) => limiter.set(limit),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type XpressbeesSimulator = Awaited<ReturnType<typeof startXpressbeesSimulator>>;
