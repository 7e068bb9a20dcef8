import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';
import {
  afterScan,
  cancelAnswer,
  createdAnswer,
  duplicateCreate,
  markCancelAnswer,
  record,
  refusedCreate,
  requestAnswer,
  type ShadowfaxSimOrder,
  type ShadowfaxSimOrderType,
  type ShadowfaxSimScan,
  type ShadowfaxSimState,
  trackAnswer,
  unserviceable,
  updateAnswer,
} from './shadowfax-sim-rules.js';

export type { ShadowfaxSimOrder, ShadowfaxSimScan, ShadowfaxSimState } from './shadowfax-sim-rules.js';

/**
 * A local stand-in for Shadowfax's client API in the shapes its documentation and public client
 * code show (docs/couriers.md; what it decides is in shadowfax-sim-rules.ts, each rule with its
 * source): `Authorization: Token <key>` (a Django REST answer, 401 {"detail": "Invalid token."},
 * otherwise); POST /api/v3/clients/orders/ (forward, `order_type` warehouse or marketplace, each with
 * its lifecycle and its way back), POST /api/v3/clients/requests (reverse pickups, with QC per SKU),
 * POST /api/v3/clients/orders/cancel/ (200, 304 queued while moving, 400 once delivered), POST
 * /api/v2/clients/requests/mark_cancel (reverse), GET /api/v4/clients/orders/{awb}/track/, POST
 * /api/v4/clients/bulk_track/ (at most 50), GET /api/v4/clients/requests/{id} (a reverse request's
 * history), POST /api/v3/clients/order_update/ (`status_update.reopen_ndr`, `delivery_details`),
 * GET /api/v1/clients/serviceability/ (pincodes of a service, answered as a list of the
 * serviceable ones). Errors come as {message: "Failure", errors: ...}, a string or fields with lists
 * of messages. It limits each token's calls (Django REST's throttle: 429 {"detail": "Request was
 * throttled. Expected available in N seconds."} with Retry-After) and can fail the next calls of a
 * path.
 */
export interface ShadowfaxSimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | '429';

export const SHADOWFAX_TOKEN = 'sfx-4c9e1d7a20b35f68';

/** The services Shadowfax's serviceability call answers for, each a list of pincodes. */
const SERVICES = new Set([
  'seller_pickup',
  'customer_delivery',
  'customer_pickup',
  'seller_delivery',
  'warehouse_pickup',
  'warehouse_return',
]);

export async function startShadowfaxSimulator(
  options: { rateLimit?: Partial<SimRateLimit>; orderTypes?: readonly ShadowfaxSimOrderType[] } = {},
) {
  const limiter = createSimRateLimiter(options.rateLimit);
  const orderTypes = options.orderTypes ?? ['warehouse', 'marketplace'];
  const orders = new Map<string, ShadowfaxSimOrder>();
  const byClientId = new Map<string, string>();
  const requests: ShadowfaxSimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const updates: Record<string, unknown>[] = [];
  const hanging = new Set<ServerResponse>();
  let nextId = 1;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const failure = (res: ServerResponse, status: number, errors: unknown) =>
    send(res, status, { message: 'Failure', errors });

  function create(kind: 'forward' | 'reverse', body: Record<string, unknown>): { status: number; body: unknown } {
    const refused = refusedCreate(kind, body, orderTypes);
    if (refused) return refused;
    const clientId = String(
      kind === 'forward' ? record(body.order_details)!.client_order_id : body.client_order_number,
    );
    const existing = byClientId.get(clientId);
    if (existing !== undefined) {
      if (kind === 'forward') return duplicateCreate(clientId, existing);
      return {
        status: 400,
        body: { message: 'Failure', errors: `Request with client_order_number ${clientId} already exists` },
      };
    }
    const awb = kind === 'forward' ? `SF${String(704_210_000 + nextId++)}FPL` : `R${String(88_120_000 + nextId++)}SFX`;
    const order: ShadowfaxSimOrder = {
      awb,
      kind,
      ...(kind === 'forward' && { orderType: body.order_type as ShadowfaxSimOrderType }),
      body,
      scans: [],
      states: [],
      cancelled: false,
      cancelQueued: false,
    };
    orders.set(awb, order);
    byClientId.set(clientId, awb);
    return createdAnswer(order, clientId);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = url.pathname;
    requests.push({
      method: req.method ?? '',
      path,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    });
    const failing = failures.get(path)?.shift();
    if (failing === 'timeout') return void hanging.add(res);
    if (failing === '500')
      return send(res, 500, '<html><body><h1>Server Error (500)</h1></body></html>', { 'content-type': 'text/html' });
    if (failing === 'malformed') return send(res, 200, '{"message": "Success", "data": {"awb_num');
    if (failing === '429')
      return send(
        res,
        429,
        { detail: 'Request was throttled. Expected available in 7 seconds.' },
        { 'retry-after': '7' },
      );

    const auth = req.headers.authorization;
    if (!auth) return send(res, 401, { detail: 'Authentication credentials were not provided.' });
    if (auth !== `Token ${SHADOWFAX_TOKEN}`) return send(res, 401, { detail: 'Invalid token.' });
    const wait = limiter.take(auth);
    if (wait !== undefined)
      return send(
        res,
        429,
        { detail: `Request was throttled. Expected available in ${wait} seconds.` },
        { 'retry-after': String(wait) },
      );

    if (req.method === 'GET' && path === '/api/v1/clients/serviceability/') {
      const service = url.searchParams.get('service') ?? '';
      const pincodes = (url.searchParams.get('pincodes') ?? '').split(',').filter((p) => p !== '');
      if (!SERVICES.has(service) || pincodes.length === 0 || pincodes.some((p) => !/^\d{6}$/.test(p)))
        return send(res, 400, { message: 'Invalid Request' });
      return send(
        res,
        200,
        pincodes.filter((p) => !unserviceable(p)).map((p) => ({ code: Number(p), services: ['Regular', 'Surface'] })),
      );
    }

    if (req.method === 'POST' && (path === '/api/v3/clients/orders/' || path === '/api/v3/clients/requests')) {
      const answer = create(
        path === '/api/v3/clients/orders/' ? 'forward' : 'reverse',
        JSON.parse(body) as Record<string, unknown>,
      );
      if (failing === 'book-then-timeout') return void hanging.add(res);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'POST' && path === '/api/v3/clients/orders/cancel/') {
      const { request_id: id } = JSON.parse(body) as { request_id?: string };
      const order = orders.get(String(id));
      if (order?.kind !== 'forward') return failure(res, 404, `No order with AWB ${String(id)}`);
      const answer = cancelAnswer(order);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'POST' && path === '/api/v2/clients/requests/mark_cancel') {
      const { request_id: id } = JSON.parse(body) as { request_id?: string };
      const order = orders.get(String(id));
      if (order?.kind !== 'reverse')
        return send(res, 200, { responseCode: 404, responseMsg: `No request with id ${String(id)}` });
      const answer = markCancelAnswer(order);
      return send(res, answer.status, answer.body);
    }
    const request = /^\/api\/v4\/clients\/requests\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && request) {
      const order = orders.get(decodeURIComponent(request[1]!));
      if (order?.kind !== 'reverse') return send(res, 404, { message: 'Invalid AWB' });
      return send(res, 200, requestAnswer(order));
    }
    const track = /^\/api\/v4\/clients\/orders\/([^/]+)\/track\/$/.exec(path);
    if (req.method === 'GET' && track) {
      const order = orders.get(decodeURIComponent(track[1]!));
      if (!order) return failure(res, 404, 'Order not found');
      return send(res, 200, { message: 'Success', ...trackAnswer(order) });
    }
    if (req.method === 'POST' && path === '/api/v4/clients/bulk_track/') {
      const { awb_numbers: awbs } = JSON.parse(body) as { awb_numbers?: string[] };
      if (!Array.isArray(awbs) || awbs.length === 0)
        return failure(res, 400, { awb_numbers: ['This field is required.'] });
      if (awbs.length > 50)
        return failure(res, 400, { awb_numbers: ['Ensure this field has no more than 50 elements.'] });
      return send(res, 200, {
        message: 'Success',
        data: awbs.flatMap((awb) => (orders.has(awb) ? [trackAnswer(orders.get(awb)!)] : [])),
      });
    }
    if (req.method === 'POST' && path === '/api/v3/clients/order_update/') {
      const update = JSON.parse(body) as Record<string, unknown>;
      const order = orders.get(String(update.awb_number));
      if (!order) return failure(res, 404, `No order with AWB ${String(update.awb_number)}`);
      const answer = updateAnswer(order, update);
      if (answer.status === 200 && record(answer.body)?.responseCode === 200) updates.push(update);
      return send(res, answer.status, answer.body);
    }
    return send(res, 404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    orders,
    requests,
    updates,
    /** The next `count` calls to `path` fail this way. */
    failNext(path: string, failure: Failure, count = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array<Failure>(count).fill(failure)]);
    },
    /** Scans a forward order (or a return's R… AWB on the v4 tracking); a queued cancellation takes effect at a check-in. */
    scan(awb: string, ...scans: ShadowfaxSimScan[]) {
      const order = orders.get(awb)!;
      for (const scan of scans) {
        order.scans.push(scan);
        afterScan(order, scan);
      }
    },
    /** Adds to a reverse request's history (GET /api/v4/clients/requests/{id}). */
    state(awb: string, ...states: ShadowfaxSimState[]) {
      orders.get(awb)!.states.push(...states);
    },
    callsTo: (path: string) => requests.filter((r) => r.path === path),
    /** Limits each token's calls from now on (the default limit for what is not given). */
    limitRate: (limit?: Partial<SimRateLimit>) => limiter.set(limit),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ShadowfaxSimulator = Awaited<ReturnType<typeof startShadowfaxSimulator>>;
