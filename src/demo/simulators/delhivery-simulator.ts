import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';

/**
 * A local stand-in for Delhivery's B2C API, in the request and answer shapes its documentation and
 * public integrations show. It checks what it is sent (the token, the form fields, the JSON inside
 * `data`) and can be told to fail the next calls of a path: time out, 500, malformed JSON, 429.
 * It limits each token's calls as Delhivery's API documentation describes its limits: so many
 * requests a window, past which the caller is throttled until the window ends (429, Retry-After).
 */
export interface SimScan {
  ScanDateTime: string;
  ScanType: string;
  Scan: string;
  StatusCode: string;
  ScannedLocation?: string;
  Instructions?: string;
}

export interface SimPackage {
  waybill: string;
  order: string;
  shipment: Record<string, unknown>;
  pickupLocation: string;
  scans: SimScan[];
  cancelled: boolean;
  pickedUp: boolean;
}

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | '429';

export const SIM_TOKEN = 'dlv-test-token-5f1c9e27a8b34d06';

export async function startDelhiverySimulator(options: { rateLimit?: Partial<SimRateLimit> } = {}) {
  const limiter = createSimRateLimiter(options.rateLimit);
  const packages = new Map<string, SimPackage>();
  const requests: SimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const updates: { waybill: string; act: string }[] = [];
  const pickups: Record<string, unknown>[] = [];
  const hanging = new Set<ServerResponse>();
  let nextWaybill = 1_490_000_000_001;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const shipmentData = (pkg: SimPackage) => {
    const last = pkg.scans.at(-1);
    return {
      Shipment: {
        AWB: pkg.waybill,
        ReferenceNo: pkg.order,
        Status: last
          ? {
              Status: last.Scan,
              StatusType: last.ScanType,
              StatusDateTime: last.ScanDateTime,
              StatusLocation: last.ScannedLocation ?? '',
              Instructions: last.Instructions ?? '',
            }
          : { Status: 'Manifested', StatusType: 'UD', StatusDateTime: null, StatusLocation: '', Instructions: '' },
        Scans: pkg.scans.map((scan) => ({ ScanDetail: { ...scan, StatusDateTime: scan.ScanDateTime } })),
      },
    };
  };

  function create(form: URLSearchParams): { status: number; body: unknown } {
    if (form.get('format') !== 'json') return { status: 400, body: { error: 'format=json is required' } };
    let data: { shipments?: Record<string, unknown>[]; pickup_location?: { name?: string } };
    try {
      data = JSON.parse(form.get('data') ?? '');
    } catch {
      return { status: 400, body: { error: 'data must be JSON' } };
    }
    if (!Array.isArray(data.shipments) || typeof data.pickup_location?.name !== 'string') {
      return { status: 400, body: { error: 'data needs shipments[] and pickup_location.name' } };
    }
    const answered = data.shipments.map((shipment) => {
      const missing = ['name', 'add', 'pin', 'phone', 'order', 'payment_mode'].filter(
        (field) => !shipment[field] && shipment[field] !== 0,
      );
      if (missing.length > 0)
        return { status: 'Fail', remarks: [`Missing ${missing.join(', ')}`], waybill: '', refnum: shipment.order };
      if (String(shipment.pin).startsWith('79'))
        return { status: 'Fail', remarks: ['Non serviceable pincode'], waybill: '', refnum: shipment.order };
      if ([...packages.values()].some((p) => p.order === shipment.order)) {
        return {
          status: 'Fail',
          remarks: [`Duplicate order id ${String(shipment.order)}`],
          waybill: '',
          refnum: shipment.order,
        };
      }
      const waybill = String(nextWaybill++);
      packages.set(waybill, {
        waybill,
        order: String(shipment.order),
        shipment,
        pickupLocation: data.pickup_location!.name!,
        scans: [],
        cancelled: false,
        pickedUp: false,
      });
      return {
        status: 'Success',
        client: 'DAKIYATEST',
        sort_code: 'BOM/ANR',
        remarks: [],
        waybill,
        cod_amount: shipment.cod_amount,
        payment: shipment.payment_mode,
        serviceable: true,
        refnum: shipment.order,
      };
    });
    const ok = answered.every((p) => p.status === 'Success');
    return {
      status: 200,
      body: {
        cash_pickups_count: 0,
        package_count: answered.length,
        upload_wbn: `UPL${Date.now()}`,
        replacement_count: 0,
        rmk: ok ? undefined : 'An internal Error has occurred, Please get in touch with client.support@delhivery.com',
        pickups_count: 0,
        packages: answered,
        cash_pickups: 0,
        cod_count: 0,
        success: ok,
        prepaid_count: answered.length,
        cod_amount: 0,
      },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = url.pathname.replace(/\/+$/, '');
    requests.push({
      method: req.method ?? '',
      path,
      query: url.searchParams,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    if (req.headers.authorization !== `Token ${SIM_TOKEN}`)
      return send(res, 401, { detail: 'Authentication credentials were not provided.' });
    const wait = limiter.take(req.headers.authorization);
    if (wait !== undefined)
      return send(
        res,
        429,
        { detail: `Request was throttled. Expected available in ${wait} seconds.` },
        { 'retry-after': String(wait) },
      );

    const failure = failures.get(path)?.shift();
    if (failure === 'timeout') return void hanging.add(res);
    if (failure === '500')
      return send(res, 500, '<html><body>Internal Server Error</body></html>', { 'content-type': 'text/html' });
    if (failure === 'malformed') return send(res, 200, '{"packages": [{"status": "Succ');
    if (failure === '429') return send(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '7' });

    if (req.method === 'POST' && path === '/api/cmu/create.json') {
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
        return send(res, 415, { error: 'form expected' });
      const answer = create(new URLSearchParams(body));
      if (failure === 'book-then-timeout') return void hanging.add(res);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && path === '/api/v1/packages/json') {
      const waybills = url.searchParams.get('waybill')?.split(',').filter(Boolean) ?? [];
      const refs = url.searchParams.get('ref_ids')?.split(',').filter(Boolean) ?? [];
      if (waybills.length > 50 || refs.length > 50) return send(res, 400, { Error: 'At most 50 waybills per request' });
      const found = [
        ...waybills.map((w) => packages.get(w)),
        ...[...packages.values()].filter((p) => refs.includes(p.order)),
      ].filter((p): p is SimPackage => p !== undefined);
      if (found.length === 0) return send(res, 200, { Error: 'No such waybill or Order Id found' });
      return send(res, 200, { ShipmentData: found.map(shipmentData) });
    }
    if (req.method === 'POST' && path === '/api/p/edit') {
      const { waybill, cancellation, add, phone } = JSON.parse(body) as {
        waybill: string;
        cancellation?: string;
        add?: string;
        phone?: string;
      };
      const pkg = packages.get(waybill);
      if (!pkg) return send(res, 200, { status: false, error: `Waybill ${waybill} not found` });
      // An address or phone edit, as Delhivery's edit API takes it: only before pickup.
      if (cancellation === undefined && (add !== undefined || phone !== undefined)) {
        if (pkg.pickedUp || pkg.cancelled)
          return send(res, 200, { status: false, error: 'Edit not allowed in current status' });
        if (add !== undefined) pkg.shipment.add = add;
        if (phone !== undefined) pkg.shipment.phone = phone;
        return send(res, 200, { status: true, waybill, remark: 'Shipment details updated' });
      }
      if (cancellation !== 'true') return send(res, 200, { status: false, error: 'Nothing to edit' });
      if (pkg.cancelled) return send(res, 200, { status: false, remark: 'Shipment is already cancelled' });
      pkg.cancelled = true;
      return send(res, 200, {
        status: true,
        waybill,
        order_id: pkg.order,
        remark: pkg.pickedUp ? 'Shipment marked for RTO' : 'Shipment has been cancelled',
      });
    }
    if (req.method === 'POST' && path === '/api/p/update') {
      const { data } = JSON.parse(body) as { data: { waybill: string; act: string }[] };
      for (const entry of data) updates.push(entry);
      return send(res, 200, { request_id: `req-${updates.length}` });
    }
    if (req.method === 'POST' && path === '/fm/request/new') {
      const request = JSON.parse(body) as Record<string, unknown>;
      pickups.push(request);
      return send(res, 201, {
        pickup_id: 7_000_000 + pickups.length,
        pickup_date: request.pickup_date,
        pickup_location_name: request.pickup_location,
        expected_package_count: request.expected_package_count,
      });
    }
    return send(res, 404, { error: 'not found' });
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    packages,
    requests,
    updates,
    pickups,
    /** The next `count` calls to `path` fail this way. */
    failNext(path: string, failure: Failure, count = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array<Failure>(count).fill(failure)]);
    },
    scan(waybill: string, ...scans: SimScan[]) {
      const pkg = packages.get(waybill)!;
      pkg.scans.push(...scans);
      if (scans.some((s) => s.StatusCode === 'X-PPOM')) pkg.pickedUp = true;
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

export type DelhiverySimulator = Awaited<ReturnType<typeof startDelhiverySimulator>>;
