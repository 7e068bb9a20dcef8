import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';

/**
 * A local stand-in for Shadowfax's client API in the shapes its documentation and public client
 * code show (docs/couriers.md): `Authorization: Token <key>` (a Django REST answer, 401
 * {"detail": "Invalid token."}, otherwise); POST /api/v3/clients/orders/ (forward),
 * POST /api/v3/clients/requests (reverse pickups, with QC per SKU), POST /api/v3/clients/orders/cancel/,
 * GET /api/v4/clients/orders/{awb}/track/, POST /api/v4/clients/bulk_track/ (at most 50),
 * POST /api/v3/clients/order_update/, GET /api/v1/clients/serviceability/ (pincodes of a service,
 * answered as a list of the serviceable ones). Errors come as {message: "Failure", errors: ...}, a
 * string or fields with lists of messages. It limits each token's calls (Django REST's throttle:
 * 429 {"detail": "Request was throttled. Expected available in N seconds."} with Retry-After) and can
 * fail the next calls of a path.
 */
export interface ShadowfaxSimScan {
  status_id: string;
  status: string;
  remarks: string;
  location?: string;
  created: string;
}

export interface ShadowfaxSimOrder {
  awb: string;
  kind: 'forward' | 'reverse';
  body: Record<string, unknown>;
  scans: ShadowfaxSimScan[];
  cancelled: boolean;
}

export interface ShadowfaxSimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | '429';

export const SHADOWFAX_TOKEN = 'sfx-4c9e1d7a20b35f68';

const record = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Django REST's field errors: each missing field named with its path. */
function missing(body: Record<string, unknown>, fields: Record<string, string[]>) {
  const errors: Record<string, Record<string, string[]> | string[]> = {};
  for (const [group, names] of Object.entries(fields)) {
    const part = group === '' ? body : record(body[group]);
    if (!part) {
      errors[group] = ['This field is required.'];
      continue;
    }
    for (const name of names) {
      if (part[name] === undefined || part[name] === null || part[name] === '') {
        if (group === '') errors[name] = ['This field is required.'];
        else errors[group] = { ...(errors[group] as Record<string, string[]>), [name]: ['This field is required.'] };
      }
    }
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

const PARTY = ['name', 'contact', 'address_line_1', 'city', 'state', 'pincode'];
const FORWARD = {
  '': ['order_type', 'product_details'],
  order_details: ['client_order_id', 'actual_weight', 'product_value', 'payment_mode', 'total_amount'],
  customer_details: PARTY,
  pickup_details: PARTY,
  rto_details: PARTY,
};
const REVERSE = {
  '': ['client_order_number', 'total_amount', 'skus_attributes'],
  address_attributes: ['name', 'phone_number', 'address_line', 'city', 'pincode'],
  seller_attributes: ['name', 'phone', 'address_line', 'city', 'pincode'],
};

/** The services Shadowfax's serviceability call answers for, each a list of pincodes. */
const SERVICES = new Set([
  'seller_pickup',
  'customer_delivery',
  'customer_pickup',
  'seller_delivery',
  'warehouse_pickup',
  'warehouse_return',
]);
/** Pincodes no service reaches here: the North-East's 79xxxx, as the create refuses them too. */
const unserviceable = (pincode: string) => pincode.startsWith('79');

export async function startShadowfaxSimulator(options: { rateLimit?: Partial<SimRateLimit> } = {}) {
  const limiter = createSimRateLimiter(options.rateLimit);
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
    const errors = missing(body, kind === 'forward' ? FORWARD : REVERSE);
    if (errors) return { status: 400, body: { message: 'Failure', errors } };
    const clientId = String(
      kind === 'forward' ? record(body.order_details)!.client_order_id : body.client_order_number,
    );
    if (byClientId.has(clientId))
      return {
        status: 400,
        body: { message: 'Failure', errors: `Order with client_order_id ${clientId} already exists` },
      };
    const destination = kind === 'forward' ? record(body.customer_details)! : record(body.address_attributes)!;
    if (unserviceable(String(destination.pincode))) {
      return {
        status: 200,
        body: { message: 'Failure', errors: `Pincode ${String(destination.pincode)} is not serviceable` },
      };
    }
    if (kind === 'forward') {
      const details = record(body.order_details)!;
      if (details.payment_mode === 'COD' && Number(details.cod_amount) > 40_000) {
        return {
          status: 400,
          body: {
            message: 'Failure',
            errors: { order_details: { cod_amount: ['COD amount cannot be more than 40000.'] } },
          },
        };
      }
    } else {
      const bad = (body.skus_attributes as Record<string, unknown>[]).findIndex(
        (sku) =>
          sku.qc_required === true && (!sku.image_url || !Array.isArray(sku.qc_rules) || sku.qc_rules.length === 0),
      );
      if (bad >= 0)
        return {
          status: 400,
          body: {
            message: 'Failure',
            errors: { skus_attributes: { [bad]: ['image_url and qc_rules are required when qc_required is true.'] } },
          },
        };
    }
    const awb = kind === 'forward' ? `SF${String(704_210_000 + nextId++)}FPL` : `R${String(88_120_000 + nextId++)}SFX`;
    orders.set(awb, { awb, kind, body, scans: [], cancelled: false });
    byClientId.set(clientId, awb);
    if (kind === 'reverse')
      return {
        status: 200,
        body: { message: 'Request added successfully', client_request_id: clientId, awb_number: awb },
      };
    return {
      status: 200,
      body: {
        message: 'Success',
        data: {
          awb_number: awb,
          client_order_id: clientId,
          status: 'new',
          status_display: 'New',
          sort_code: 'BOM/ANR',
        },
      },
    };
  }

  const trackAnswer = (order: ShadowfaxSimOrder) => ({
    awb_number: order.awb,
    order_details: {
      awb_number: order.awb,
      client_order_id: record(order.body.order_details)?.client_order_id,
      status: order.scans.at(-1)?.status_id ?? 'new',
    },
    tracking_details: order.scans.map((scan) => ({ ...scan, awb_number: order.awb })),
  });

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
      if (!order) return failure(res, 404, `No order with AWB ${String(id)}`);
      if (order.cancelled || order.scans.some((s) => s.status_id === 'delivered')) {
        return send(res, 200, {
          responseCode: 400,
          responseMsg: order.cancelled ? 'Order is already cancelled' : 'Order is already delivered',
        });
      }
      const picked = order.scans.some((s) => s.status_id === 'picked');
      if (picked && order.scans.at(-1)?.status_id === 'picked') {
        return send(res, 200, {
          responseCode: 400,
          responseMsg: 'Order cannot be cancelled once picked up; try after it reaches the hub',
        });
      }
      order.cancelled = true;
      return send(res, 200, {
        responseCode: 200,
        responseMsg: picked ? 'Order has been marked for RTS' : 'Request has been marked as cancelled',
      });
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
      if (!orders.has(String(update.awb_number)))
        return failure(res, 404, `No order with AWB ${String(update.awb_number)}`);
      if (update.request_type === 're-attempt' && !/^\d{4}-\d{2}-\d{2}$/.test(String(update.next_attempt_date))) {
        return failure(res, 400, {
          next_attempt_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
        });
      }
      updates.push(update);
      return send(res, 200, { responseCode: 200, responseMsg: 'Order updated successfully' });
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
    scan(awb: string, ...scans: ShadowfaxSimScan[]) {
      orders.get(awb)!.scans.push(...scans);
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
