import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEkartSimAccounts } from './ekart-sim-accounts.js';
import { barcodesOf, createRefusal, vendorWaybill } from './ekart-sim-create.js';
import { createEkartSimWebhooks } from './ekart-sim-webhooks.js';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';

export { vendorWaybill };

/**
 * A local stand-in for Ekart's API in the shapes of its OpenAPI description (v3.8.8): a bearer
 * token from /integrations/v2/auth/token/{client_id}, GET /api/v2/serviceability/{pincode}, PUT
 * /api/v1/package/create, DELETE /api/v1/package/cancel, POST /data/v2/generate/manifest, GET
 * /api/v1/track/{id} (open), POST /api/v2/package/ndr, POST /api/v2/address and GET
 * /api/v2/addresses, and its error answer {statusCode, code, message, description, severity}. Its
 * tokens are cached per client id and its pickup aliases registered per client id, as
 * ekart-sim-accounts.ts says: a create naming an alias the client id has not registered answers 404
 * SWIFT_RESOURCE_NOT_FOUND_EXCEPTION. Pincodes starting 79 are not serviceable unless `pincodes`
 * says otherwise; `pincodes` also changes what is served at one (no COD, a lower COD limit). It
 * checks what it is sent, can drop every token it issued (a 401 on the next call) and fail the next
 * calls of a path. Each scan of a parcel is posted to every `track_updated` webhook in the documented
 * shape ({ctime, status, location, desc, attempts, pickupTime, wbn, id, orderNumber, edd}), signed as
 * ekart-sim-webhooks.ts says (any header and encoding a test chooses).
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

export const EKART_CLIENT = 'EKART_68a1f2c3';
export const EKART_USER = 'dakiya-test';
export const EKART_PASSWORD = 'ek-pass-7c21d9e04b';

/**
 * `logins`: the Ekart accounts it knows besides EKART_CLIENT's (a merchant with a contract of its
 * own); `aliases`: the pickup addresses every account registered beforehand, the others answering
 * 404 (by default every alias is registered); `now`: the clock its tokens lapse by.
 */
export async function startEkartSimulator(
  options: {
    tokenSeconds?: number;
    logins?: { clientId: string; username: string; password: string }[];
    rateLimit?: Partial<SimRateLimit>;
    aliases?: string[];
    now?: () => Date;
  } = {},
) {
  // Each client id's authorised calls are counted, whichever of its tokens they carry; past the
  // limit Ekart's error answer comes with 429 TOO_MANY_REQUESTS and Retry-After.
  const limiter = createSimRateLimiter(options.rateLimit);
  const accounts = createEkartSimAccounts({
    logins: [{ clientId: EKART_CLIENT, username: EKART_USER, password: EKART_PASSWORD }, ...(options.logins ?? [])],
    tokenSeconds: options.tokenSeconds ?? 86_400,
    now: () => (options.now ?? (() => new Date()))().getTime(),
    ...(options.aliases && { aliases: options.aliases }),
  });
  const packages = new Map<string, EkartSimPackage>();
  const requests: EkartSimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const ndrActions: Record<string, unknown>[] = [];
  const hanging = new Set<ServerResponse>();
  const hooks = createEkartSimWebhooks();
  /** Pincodes served otherwise than by default: their answer's details, or null for not serviceable. */
  const pincodes = new Map<string, Partial<EkartSimPincode> | null>();
  const manifests: { manifestNumber: number; ids: string[] }[] = [];
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

  function create(clientId: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const refusal = createRefusal(body, (alias) => accounts.hasAlias(clientId, alias));
    if (refusal) return refusal;
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
      const answer = accounts.token(decodeURIComponent(path.split('/').at(-1)!), username, password);
      if (!answer)
        return error(res, 401, 'UNAUTHORIZED', 'Invalid credentials', 'The client id, username or password is wrong');
      return send(res, 200, answer);
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
    const owner = accounts.ownerOf(req.headers.authorization?.replace(/^Bearer /, ''));
    if (!owner) return error(res, 401, 'UNAUTHORIZED', 'Unauthorized', 'Access token is missing, invalid or expired');
    const wait = limiter.take(owner);
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
      const answer = create(owner, JSON.parse(body) as Record<string, unknown>);
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
    if (req.method === 'POST' && path === '/api/v2/address') {
      const registered = accounts.register(owner, JSON.parse(body || '{}') as Record<string, unknown>);
      if ('problem' in registered)
        return error(res, 400, 'VALIDATION_EXCEPTION', 'Invalid request', registered.problem);
      return send(res, 200, registered.answer);
    }
    if (req.method === 'GET' && path === '/api/v2/addresses')
      return send(res, 200, [...accounts.addressesOf(owner).values()]);
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
    ownerOf: (authorization: string | undefined) => accounts.issuedTo(authorization?.replace(/^Bearer /, '')),
    /** Tokens issued so far (one handed out again from Ekart's cache is not a new one). */
    tokensIssued: accounts.issued,
    /** Ekart forgets every token it issued, and its token cache: the next authorised call answers 401, a new token cures it. */
    dropTokens: accounts.drop,
    /** Ekart refuses a client id's calls with 401 while its token call still hands out the cached token (or stops). */
    refuseCalls: (clientId = EKART_CLIENT, refuse = true) => accounts.refuse(clientId, refuse),
    /** The pickup addresses a client id registered, by alias. */
    addressesOf: accounts.addressesOf,
    /** The next `count` calls to `path` fail this way. */
    failNext(path: string, failure: Failure, count = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array<Failure>(count).fill(failure)]);
    },
    webhooks: hooks.webhooks,
    pushes: hooks.pushes,
    /** How the webhook posts are signed from now on (ekart-sim-webhooks.ts). */
    signWith: hooks.signWith,
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
