import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AUTO_PICKUP,
  editAnswer,
  type NdrItem,
  ndrOutcome,
  pickupExists,
  uplAnswer,
  WAF_FORBIDDEN,
} from './delhivery-sim-answers.js';
import { createSimRateLimiter, type SimRateLimit } from './rate-limit.js';
import { createSimBookingDesk, type SimPackage, type SimScan } from './delhivery-sim-booking.js';

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

type Failure = 'timeout' | 'book-then-timeout' | '500' | 'malformed' | 'waf';

/** An NDR request Delhivery queued: its UPL id and what became of each waybill. */
interface Upl {
  results: { waybill: string; act: string; failure: string | null }[];
}

export const SIM_TOKEN = 'dlv-test-token-5f1c9e27a8b34d06';

/** India time without an offset, as Delhivery stamps its scans. */
const indiaLocal = (ms: number) => new Date(ms + 330 * 60_000).toISOString().slice(0, 23);

/**
 * A local stand-in for Delhivery's B2C API, in the request and answer shapes its documentation and
 * public integrations show (docs/couriers.md; delhivery-sim-answers.ts cites each odd one). It
 * checks what it is sent (the token, the form fields, the JSON inside `data`) and can be told to
 * fail the next calls of a path: time out, 500, malformed JSON, or the WAF's 403. It limits each
 * token's calls as Delhivery's documentation describes its limit on tracking: so many requests a
 * window, past which its AWS WAF answers 403 until the window ends (no Retry-After).
 */
export async function startDelhiverySimulator(options: { rateLimit?: Partial<SimRateLimit>; now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const limiter = createSimRateLimiter(options.rateLimit);
  const packages = new Map<string, SimPackage>();
  const requests: SimRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const updates: NdrItem[] = [];
  const upls = new Map<string, Upl>();
  const pickups: Record<string, unknown>[] = [];
  /** Pickup requests still open, by location and day, when the simulator is told to keep them so. */
  const openPickups = new Map<string, number>();
  const behaviour = { xmlEdits: false, pickupsStayOpen: false, autoPickup: false };
  const hanging = new Set<ServerResponse>();
  const desk = createSimBookingDesk(packages);
  let nextUpl = 17_749_083_484_755_923_441n;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const sendEdit = (res: ServerResponse, req: IncomingMessage, fields: Record<string, string | boolean>) => {
    const asJson = !behaviour.xmlEdits && (req.headers.accept ?? '').includes('application/json');
    const answer = editAnswer(fields, !asJson);
    res.writeHead(200, { 'content-type': answer.contentType });
    res.end(answer.body);
  };
  const waf = (res: ServerResponse) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end(WAF_FORBIDDEN);
  };
  /** A scan of Delhivery's own making, stamped now. */
  const scanNow = (pkg: SimPackage, scan: Omit<SimScan, 'ScanDateTime'>, laterMs = 0) =>
    pkg.scans.push({ ...scan, ScanDateTime: indiaLocal(now() + laterMs), ScannedLocation: 'Delhi_Airport_GW (Delhi)' });

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
    if (limiter.take(req.headers.authorization) !== undefined) return waf(res);

    const failure = failures.get(path)?.shift();
    if (failure === 'timeout') return void hanging.add(res);
    if (failure === '500')
      return send(res, 500, '<html><body>Internal Server Error</body></html>', { 'content-type': 'text/html' });
    if (failure === 'malformed') return send(res, 200, '{"packages": [{"status": "Succ');
    if (failure === 'waf') return waf(res);

    if (req.method === 'POST' && path === '/api/cmu/create.json') {
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
        return send(res, 415, { error: 'form expected' });
      const answer = desk.create(new URLSearchParams(body));
      if (failure === 'book-then-timeout') return void hanging.add(res);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && path === '/waybill/api/bulk/json') {
      const answer = desk.issueWaybills(Number(url.searchParams.get('count')));
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
      if (!pkg) return sendEdit(res, req, { status: false, error: `Waybill ${waybill} not found` });
      // An address or phone edit, as Delhivery's edit API takes it: only before pickup.
      if (cancellation === undefined && (add !== undefined || phone !== undefined)) {
        if (pkg.pickedUp || pkg.cancelled)
          return sendEdit(res, req, { status: false, error: 'Edit not allowed in current status' });
        if (add !== undefined) pkg.shipment.add = add;
        if (phone !== undefined) pkg.shipment.phone = phone;
        return sendEdit(res, req, { status: true, waybill, remark: 'Shipment details updated' });
      }
      if (cancellation !== 'true') return sendEdit(res, req, { status: false, error: 'Nothing to edit' });
      // No source shows a refused cancellation; these words are the simulator's own.
      if (pkg.scans.some((scan) => scan.ScanType === 'DL'))
        return sendEdit(res, req, { status: false, waybill, remark: 'Shipment is already delivered' });
      if (!pkg.cancelled && !pkg.pickedUp) {
        // What tracking shows of a cancellation before pickup (capture 6, then capture 8 a minute
        // and a half later): "Not Picked" twice, never "Cancelled".
        scanNow(pkg, {
          ScanType: 'UD',
          Scan: 'Not Picked',
          StatusCode: 'X-PNP',
          Instructions: 'Shipment not received from client',
        });
        scanNow(
          pkg,
          { ScanType: 'UD', Scan: 'Not Picked', StatusCode: 'DTUP-210', Instructions: 'Seller cancelled the order' },
          99_000,
        );
      }
      pkg.cancelled = true;
      // A second cancel answers as the first did (capture 7): "no already cancelled distinction".
      return sendEdit(res, req, {
        status: true,
        waybill,
        order_id: pkg.order,
        remark: pkg.pickedUp ? 'Shipment marked for RTO' : 'Shipment has been cancelled.',
      });
    }
    if (req.method === 'POST' && path === '/api/p/update') {
      // Delhivery_API_2.md "NDR API" and the Update NDR API's specification (index id 66350613124):
      // queued, answered with its UPL id; the outcome is asked for at get_bulk_upl.
      const { data } = JSON.parse(body) as { data?: NdrItem[] };
      // Its errors are JSON strings.
      if (!Array.isArray(data)) return send(res, 400, JSON.stringify('Invalid data provided'));
      if (data.some((item) => typeof item.waybill !== 'string'))
        return send(res, 400, JSON.stringify('"waybill" is missing'));
      const requestId = `UPL${nextUpl++}`;
      upls.set(requestId, {
        results: data.map((item) => {
          updates.push(item);
          const pkg = packages.get(String(item.waybill));
          const attempts =
            pkg?.scans.filter((scan) => scan.Scan === 'Pending' && scan.StatusCode.startsWith('EOD-')).length ?? 0;
          return {
            waybill: String(item.waybill),
            act: String(item.act),
            failure: pkg ? ndrOutcome(item, pkg.scans.at(-1), attempts) : 'Incorrect waybill',
          };
        }),
      });
      return send(res, 200, { message: 'Request submitted successfully!', request_id: requestId });
    }
    if (req.method === 'GET' && path.startsWith('/api/cmu/get_bulk_upl/')) {
      const requestId = decodeURIComponent(path.slice('/api/cmu/get_bulk_upl/'.length));
      const upl = upls.get(requestId);
      if (!upl)
        return send(
          res,
          404,
          'There has been an error but we were asked to not let you see that. Please contact the dev team.',
        );
      return send(res, 200, uplAnswer(requestId, upl.results));
    }
    if (req.method === 'POST' && path === '/fm/request/new') {
      const request = JSON.parse(body) as Record<string, unknown>;
      pickups.push(request);
      if (behaviour.autoPickup) return send(res, 400, AUTO_PICKUP);
      const key = `${String(request.pickup_location)}|${String(request.pickup_date)}`;
      const open = openPickups.get(key);
      if (open !== undefined) return send(res, 400, pickupExists(open, String(request.pickup_date)));
      const pickupId = 7_000_000 + pickups.length;
      if (behaviour.pickupsStayOpen) openPickups.set(key, pickupId);
      return send(res, 201, {
        pickup_id: pickupId,
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
    /** The waybills the bulk call issued that no package uses yet. */
    unusedWaybills: desk.unusedWaybills,
    /** Limits each token's calls from now on (the default limit for what is not given). */
    limitRate: (limit?: Partial<SimRateLimit>) => limiter.set(limit),
    /** Edits answered in XML even to a client that asks for JSON (what a Delhivery deployment may do). */
    answerEditsInXml: (xml = true) => {
      behaviour.xmlEdits = xml;
    },
    /**
     * A pickup request stays open, so a second one for its location and day is refused with the
     * first's id, as Delhivery does until its field executive closes it (Delhivery_API_2.md). Off
     * by default: the features' tests book and ask pickups of one warehouse many times a day.
     */
    keepPickupsOpen: (open = true) => {
      behaviour.pickupsStayOpen = open;
      if (!open) openPickups.clear();
    },
    /** Answers every pickup request as for an account on auto pickup. */
    autoPickup: (on = true) => {
      behaviour.autoPickup = on;
    },
    /** The UPL ids the NDR requests got, in order. */
    uplIds: () => [...upls.keys()],
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type DelhiverySimulator = Awaited<ReturnType<typeof startDelhiverySimulator>>;
