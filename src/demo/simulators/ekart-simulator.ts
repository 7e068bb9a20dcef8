import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEkartSimWebhooks } from './ekart-sim-webhooks.js';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';

/**
 * A local stand-in for Ekart's API in the shapes of its OpenAPI description (v3.8.8): a bearer
 * token from /integrations/v2/auth/token/{client_id}, GET /api/v2/serviceability/{pincode}, PUT
 * /api/v1/package/create, DELETE /api/v1/package/cancel, POST /data/v2/generate/manifest, GET
 * /api/v1/track/{id} (open), POST /api/v2/package/ndr, and its error answer {statusCode, code,
 * message, description, severity}. Pincodes starting 79 are not serviceable unless `pincodes`
 * says otherwise; `pincodes` also changes what is served at one (no COD, a lower COD limit). It
 * checks what it is sent, can drop every token it issued (a 401 on the next call) and fail the next
 * calls of a path. Each scan of a parcel is posted to every `track_updated` webhook in the documented
 * shape ({ctime, status, location, desc, attempts, pickupTime, wbn, id, orderNumber, edd}), signed as
 * ekart-sim-webhooks.ts says.
 */
export interface EkartSimDetail {
  status: string;
  ctime: number;
  desc: string;
  location?: string;
  ndrStatus?: string;
}

export interface EkartSimPackage {
  trackingId: string;
  body: Record<string, unknown>;
  details: EkartSimDetail[];
  cancelled: boolean;
}

export interface EkartSimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | '429';

/** What Ekart's V2 serviceability answers about a pincode (its `Pincode` schema). */
export interface EkartSimPincode {
  cod: boolean;
  max_cod_amount: number;
  forward_pickup: boolean;
  forward_drop: boolean;
  reverse_pickup: boolean;
  reverse_drop: boolean;
}

const SERVED: EkartSimPincode = {
  cod: true,
  max_cod_amount: 25_000,
  forward_pickup: true,
  forward_drop: true,
  reverse_pickup: true,
  reverse_drop: true,
};

/** The waybill of the vendor partner Ekart "chose" for a parcel: digits, unlike the Ekart tracking id. */
export const vendorWaybill = (trackingId: string) => `3180${trackingId.slice('500999A'.length)}`;

/**
 * The create answer's `barcodes`, the plain text of the barcodes on Ekart's label: the vendor
 * waybill, the order number and, as some vendors do, a COD waybill on a cash-on-delivery parcel.
 */
function barcodesOf(trackingId: string, body: Record<string, unknown>) {
  const wbn = vendorWaybill(trackingId);
  return { wbn, order: String(body.order_number), ...(body.payment_mode === 'COD' && { cod: `C${wbn}` }) };
}

export const EKART_CLIENT = 'EKART_68a1f2c3';
export const EKART_USER = 'dakiya-test';
export const EKART_PASSWORD = 'ek-pass-7c21d9e04b';

const REQUIRED = [
  'seller_name',
  'seller_address',
  'order_number',
  'invoice_number',
  'invoice_date',
  'consignee_name',
  'consignee_alternate_phone',
  'payment_mode',
  'category_of_goods',
  'products_desc',
  'total_amount',
  'cod_amount',
  'taxable_amount',
  'commodity_value',
  'quantity',
  'weight',
  'drop_location',
  'pickup_location',
  'return_location',
  'length',
  'height',
  'width',
];

/** `logins`: the Ekart accounts it knows besides EKART_CLIENT's (a merchant with a contract of its own). */
export async function startEkartSimulator(
  options: {
    tokenSeconds?: number;
    logins?: { clientId: string; username: string; password: string }[];
    rateLimit?: Partial<SimRateLimit>;
  } = {},
) {
  // Each client id's authorised calls are counted, whichever of its tokens they carry; past the
  // limit Ekart's error answer comes with 429 TOO_MANY_REQUESTS and Retry-After.
  const limiter = createSimRateLimiter(options.rateLimit);
  const logins = [
    { clientId: EKART_CLIENT, username: EKART_USER, password: EKART_PASSWORD },
    ...(options.logins ?? []),
  ];
  /** Which client id each token was issued to. */
  const tokenOwners = new Map<string, string>();
  const packages = new Map<string, EkartSimPackage>();
  const requests: EkartSimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const ndrActions: Record<string, unknown>[] = [];
  const tokens = new Set<string>();
  const hanging = new Set<ServerResponse>();
  const hooks = createEkartSimWebhooks();
  /** Pincodes served otherwise than by default: their answer's details, or null for not serviceable. */
  const pincodes = new Map<string, Partial<EkartSimPincode> | null>();
  const manifests: { manifestNumber: number; ids: string[] }[] = [];
  let issued = 0;
  let nextId = 1;

  /** Posts one scan to every active track_updated webhook in the documented shape, as Ekart does after each scan. */
  async function push(pkg: EkartSimPackage, detail: EkartSimDetail) {
    const pickedUp = pkg.details.find((d) => d.status === 'Picked Up');
    await hooks.post('track_updated', {
      ctime: detail.ctime,
      status: detail.status,
      location: detail.location ?? '',
      desc: detail.desc,
      attempts: String(pkg.details.filter((d) => d.status === 'Undelivered').length),
      pickupTime: pickedUp?.ctime ?? 0,
      wbn: vendorWaybill(pkg.trackingId),
      id: pkg.trackingId,
      orderNumber: String(pkg.body.order_number),
      edd: detail.ctime + 2 * 86_400_000,
      ...(detail.ndrStatus && { ndrStatus: detail.ndrStatus }),
    });
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const error = (res: ServerResponse, statusCode: number, code: string, message: string, description: string) =>
    send(res, statusCode, { statusCode, code, message, description, severity: 'ERROR' });

  const tooMany = (res: ServerResponse, description: string, retryAfter: number) =>
    send(
      res,
      429,
      { statusCode: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many requests', description, severity: 'ERROR' },
      { 'retry-after': String(retryAfter) },
    );

  function create(body: Record<string, unknown>): { status: number; body: unknown } {
    const missing = REQUIRED.filter((field) => body[field] === undefined || body[field] === null);
    if (missing.length > 0) {
      return {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_EXCEPTION',
          message: 'Invalid request',
          description: `Missing ${missing.join(', ')}`,
          severity: 'ERROR',
        },
      };
    }
    const drop = body.drop_location as Record<string, unknown>;
    if (String(drop.pin).startsWith('79'))
      return {
        status: 200,
        body: { status: false, remark: `Pincode ${String(drop.pin)} is not serviceable`, tracking_id: '' },
      };
    if (body.payment_mode === 'COD' && Number(body.cod_amount) > 49_999) {
      return {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_EXCEPTION',
          message: 'Invalid request',
          description: 'cod_amount must be at most 49999',
          severity: 'ERROR',
        },
      };
    }
    const trackingId = `500999A${String(3_408_000 + nextId++)}`;
    packages.set(trackingId, { trackingId, body, details: [], cancelled: false });
    return {
      status: 200,
      body: {
        status: true,
        remark: 'Successfully created shipment',
        tracking_id: trackingId,
        vendor: 'EKART',
        barcodes: barcodesOf(trackingId, body),
      },
    };
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
    const failure = failures.get(path)?.shift();
    if (failure === 'timeout') return void hanging.add(res);
    if (failure === '500')
      return send(res, 500, '<html><body>Internal Server Error</body></html>', { 'content-type': 'text/html' });
    if (failure === 'malformed') return send(res, 200, '{"status": true, "tracking_id": "5009');
    if (failure === '429') return tooMany(res, 'Rate limit exceeded', 7);

    if (req.method === 'POST' && path.startsWith('/integrations/v2/auth/token/')) {
      const { username, password } = JSON.parse(body || '{}') as { username?: string; password?: string };
      const clientId = decodeURIComponent(path.split('/').at(-1)!);
      if (
        !logins.some(
          (login) => login.clientId === clientId && login.username === username && login.password === password,
        )
      ) {
        return error(res, 401, 'UNAUTHORIZED', 'Invalid credentials', 'The client id, username or password is wrong');
      }
      const token = `ekt-${++issued}-${Math.random().toString(36).slice(2)}`;
      tokens.add(token);
      tokenOwners.set(token, clientId);
      return send(res, 200, {
        access_token: token,
        scope: 'core:all',
        expires_in: options.tokenSeconds ?? 86_400,
        token_type: 'Bearer',
      });
    }
    const track = /^\/api\/v1\/track\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && track) {
      const pkg = packages.get(decodeURIComponent(track[1]!));
      if (!pkg)
        return error(res, 404, 'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION', 'Resource not found', `No shipment ${track[1]}`);
      const last = pkg.details.at(-1) ?? { status: 'Order Placed', ctime: 0, desc: 'Order placed' };
      return send(res, 200, {
        _id: pkg.trackingId,
        order_number: pkg.body.order_number,
        track: { ...last, details: [...pkg.details].reverse() },
      });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    if (!token || !tokens.has(token))
      return error(res, 401, 'UNAUTHORIZED', 'Unauthorized', 'Access token is missing, invalid or expired');
    const wait = limiter.take(tokenOwners.get(token)!);
    if (wait !== undefined) return tooMany(res, `Rate limit exceeded; retry in ${wait} seconds`, wait);

    const serviceability = /^\/api\/v2\/serviceability\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && serviceability) {
      const pin = decodeURIComponent(serviceability[1]!);
      if (!/^[1-9]\d{5}$/.test(pin))
        return error(res, 400, 'VALIDATION_EXCEPTION', 'Invalid request', `pincode ${pin} is not a valid pincode`);
      const served = pincodes.has(pin) ? pincodes.get(pin) : pin.startsWith('79') ? null : {};
      if (!served)
        return send(res, 200, { status: false, pincode: Number(pin), remark: `Pincode ${pin} is not serviceable` });
      return send(res, 200, {
        status: true,
        pincode: Number(pin),
        remark: 'Pincode is serviceable',
        details: { ...SERVED, ...served, city: '', state: '' },
      });
    }
    if (req.method === 'POST' && path === '/data/v2/generate/manifest') {
      const ids = (JSON.parse(body || '{}') as { ids?: unknown }).ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((id) => typeof id === 'string')) {
        return error(res, 400, 'VALIDATION_EXCEPTION', 'Invalid request', 'ids must list 1 to 100 tracking ids');
      }
      const unfit = ids.filter((id) => !packages.has(id) || packages.get(id)!.cancelled);
      if (unfit.length > 0)
        return error(res, 400, 'VALIDATION_EXCEPTION', 'Invalid request', `No open shipment for ${unfit.join(', ')}`);
      const manifestNumber = 41_000_000 + manifests.length + 1;
      manifests.push({ manifestNumber, ids });
      return send(res, 200, {
        ctime: Date.now(),
        manifestNumber,
        manifestDownloadUrl: `https://ekart.example/manifests/${manifestNumber}.pdf`,
      });
    }
    if (req.method === 'PUT' && path === '/api/v1/package/create') {
      const answer = create(JSON.parse(body) as Record<string, unknown>);
      if (failure === 'book-then-timeout') return void hanging.add(res);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'DELETE' && path === '/api/v1/package/cancel') {
      const id = url.searchParams.get('tracking_id') ?? '';
      const pkg = packages.get(id);
      if (!pkg) return error(res, 404, 'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION', 'Resource not found', `No shipment ${id}`);
      if (pkg.cancelled || pkg.details.some((d) => d.status === 'Picked Up')) {
        return send(res, 200, {
          data: [
            {
              status: false,
              tracking_id: id,
              remark: pkg.cancelled ? 'Shipment already cancelled' : 'Shipment already picked up',
            },
          ],
        });
      }
      pkg.cancelled = true;
      return send(res, 200, { data: [{ status: true, tracking_id: id, remark: 'Shipment cancelled' }] });
    }
    if (req.method === 'POST' && path === '/api/v2/webhook') {
      const registered = hooks.register(JSON.parse(body));
      if (!registered)
        return error(
          res,
          400,
          'VALIDATION_EXCEPTION',
          'Invalid request',
          'url, secret (6 to 30 characters) and topics are required',
        );
      return send(res, 200, registered);
    }
    if (req.method === 'POST' && path === '/api/v2/package/ndr') {
      const action = JSON.parse(body) as Record<string, unknown>;
      if (!packages.has(String(action.wbn)))
        return error(
          res,
          404,
          'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION',
          'Resource not found',
          `No shipment ${String(action.wbn)}`,
        );
      if (action.action === 'Re-Attempt' && typeof action.date !== 'number') {
        return error(res, 400, 'VALIDATION_EXCEPTION', 'Invalid request', 'date is required for Re-Attempt');
      }
      ndrActions.push(action);
      return send(res, 200, { status: true, tracking_id: action.wbn, remark: 'NDR action recorded' });
    }
    return error(res, 404, 'PATH_NOT_IMPLEMENTED', 'PATH_NOT_IMPLEMENTED', `${req.method} ${path}`);
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    packages,
    requests,
    ndrActions,
    pincodes,
    /** The manifests generated, with the tracking ids each was asked for. */
    manifests,
    /** The client id a call's `Authorization: Bearer <token>` was issued to. */
    ownerOf: (authorization: string | undefined) => tokenOwners.get(authorization?.replace(/^Bearer /, '') ?? ''),
    /** Tokens fetched so far. */
    tokensIssued: () => issued,
    /** Ekart forgets every token it issued: the next authorised call answers 401. */
    dropTokens: () => tokens.clear(),
    /** The next `count` calls to `path` fail this way. */
    failNext(path: string, failure: Failure, count = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array<Failure>(count).fill(failure)]);
    },
    webhooks: hooks.webhooks,
    pushes: hooks.pushes,
    /** Records scans of a parcel; each is posted to the registered webhooks, one after another. */
    async scan(trackingId: string, ...details: EkartSimDetail[]) {
      const pkg = packages.get(trackingId)!;
      for (const detail of details) {
        pkg.details.push(detail);
        await push(pkg, detail);
      }
    },
    callsTo: (path: string) => requests.filter((r) => r.path === path),
    /** Limits each client id's calls from now on (the default limit for what is not given). */
    limitRate: (limit?: Partial<SimRateLimit>) => limiter.set(limit),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type EkartSimulator = Awaited<ReturnType<typeof startEkartSimulator>>;
