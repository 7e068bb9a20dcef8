import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a GST Suvidha Provider's e-way bill API (NIC's v1.03 behind it), what the
 * gateway's tests generate against. Its calls and shapes, each from public client code:
 *
 * - `GET /ewaybillapi/v1.03/authenticate?email=&username=&password=` with the headers `client_id`,
 *   `client_secret`, `gstin`: a WhiteBooks client in Python (index id 6292649478; the route lists of
 *   index ids 56659603112 and 54969273994); the token under `data.authtoken` as that client reads it.
 * - `POST /ewaybillapi/v1.03/ewayapi/genewaybill?email=` with those headers and `authtoken`, NIC's
 *   request as plain JSON: the fields of Odoo's `_l10n_in_edi_ewaybill_generate_json` (odoo/odoo
 *   addons/l10n_in_edi_ewaybill/models/account_edi_format.py) and TaxPro's request classes
 *   (ROHIT0JANGRA/TMS_MLPL, `TaxProEwayBillGenerationRequest`, `TaxProEwayItemList`: pincodes, state
 *   codes and hsnCode as numbers, transDistance as text).
 * - A bill: `{status_cd: "1", status_desc: "EWAYBILL request succeeds", data: {ewayBillNo,
 *   ewayBillDate: "dd/mm/yyyy hh:mm:ss AM", validUpto, alert}}` (Odoo's test of its gateway,
 *   addons/l10n_in_edi_ewaybill/tests/test_edi_ewaybill_json.py).
 * - A refusal: `{status_cd: "0", status_desc, error: {message: "{\"errorCodes\":\"214,\"}"}}` (a
 *   WhiteBooks client's shape B, index id 52904273696; the trailing comma as a Go client parses
 *   "219,702,", index id 58217446000), with NIC's codes and words (developerkdc/topl_backend,
 *   controllers/dispatch/errorCodeMapForEwayBill.js).
 *
 * It checks what the codes name: the required fields, 15-character GSTINs (or URP), 6-digit
 * pincodes, state codes 1–38 (99 other country, as Odoo sends for an overseas party), a docNo of 16 characters, a
 * dd/mm/yyyy docDate, a non-empty itemList with HSN codes of 4–8 digits, totInvValue not under the
 * taxable value and taxes, fromGstin the user's own (359), one bill per document (604). Validity as
 * rule 138(10) counts it: a day per 200 km or part, to 11:59 PM.
 */

export const GSP_CLIENT_ID = 'EWB-SIM-CLIENT';
export const GSP_CLIENT_SECRET = 'ewb-sim-secret-7f3a';
export const GSP_USERNAME = 'acme_api_07';
export const GSP_PASSWORD = 'ewb-sim-pass-91c2';
export const GSP_EMAIL = 'ops@acme.example';
/** The GSTIN registered with the simulated GSP: Delhi's, the test warehouse's State. */
export const GSP_GSTIN = '07AAACR5055K1Z9';

export interface GspSimRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** What the next generate call answers instead of judging the request. */
export type GspOverride =
  | { codes: string[]; description?: string }
  | { status: number; text: string }
  | { raw: unknown };

const WORDS: Record<string, string> = {
  '108': 'Invalid login credentials.',
  '110': 'Invalid Client-ID/Client-Secret',
  '111': 'GSTIN is not registerd to this GSP',
  '201': 'Invalid Supply Type',
  '202': 'Invalid Sub-supply Type',
  '204': 'Invalid Document type',
  '206': 'Invaild Invoice Number',
  '207': 'Invalid Invoice Date',
  '208': 'Invalid Supplier GSTIN / Enrolled URP',
  '209': 'Blank Supplier Address',
  '210': 'Invalid or Blank Supplier PIN Code',
  '211': 'Invalid or Blank Supplier state Code',
  '212': 'Invalid Consignee GSTIN / Enrolled URP',
  '214': 'Invalid Consignee PIN Code',
  '215': 'Invalid Consignee State Code',
  '216': 'Invalid HSN Code',
  '221': 'Invalid Approximate Distance',
  '229': 'Supplier name is required',
  '230': 'Supplier place is required',
  '232': 'Consignee place is required',
  '233': 'Eway bill does not contains any items',
  '238': 'Invalid auth token',
  '282': 'At least 4 digit HSN code is mandatory for taxpayers with turnover less than 5Cr.',
  '359': 'User GSTIN should match to GSTIN(from) for outward transactions',
  '604':
    'E-way bill(s) are already generated for the same document number, you cannot generate again on same document number',
  '620': 'Total invoice value cannot be less than the sum of total assessible value and tax values',
  '640': 'Tolal Invoice value is mandatory',
  '822': 'Both supplier and recipient cannot be URP',
};

const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const isGstinOrUrp = (value: unknown) => value === 'URP' || (typeof value === 'string' && GSTIN.test(value));
const isPincode = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100000 && value <= 999999;
const isStateCode = (value: unknown) => typeof value === 'number' && ((value >= 1 && value <= 38) || value === 99);
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
const money = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);

function validDate(text: unknown): boolean {
  const match = typeof text === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text) : null;
  if (!match) return false;
  const [, dd, mm, yyyy] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(yyyy, mm - 1, dd));
  return date.getUTCDate() === dd && date.getUTCMonth() === mm - 1;
}

/** The codes NIC would answer this request with, in its order; empty when it generates. */
export function judgeRequest(body: Record<string, unknown>, userGstin: string): string[] {
  const codes: string[] = [];
  const check = (ok: boolean, code: string) => {
    if (!ok && !codes.includes(code)) codes.push(code);
  };
  check(body.supplyType === 'O' || body.supplyType === 'I', '201');
  check(typeof body.subSupplyType === 'string' && /^([1-9]|1[0-2])$/.test(body.subSupplyType), '202');
  check(['INV', 'BIL', 'BOE', 'CHL', 'OTH'].includes(String(body.docType)), '204');
  check(typeof body.docNo === 'string' && /^[A-Za-z0-9/-]{1,16}$/.test(body.docNo), '206');
  check(validDate(body.docDate), '207');
  check(isGstinOrUrp(body.fromGstin), '208');
  check(!blank(body.fromAddr1), '209');
  check(isPincode(body.fromPincode), '210');
  check(isStateCode(body.fromStateCode) && isStateCode(body.actFromStateCode), '211');
  check(isGstinOrUrp(body.toGstin), '212');
  check(isPincode(body.toPincode), '214');
  check(isStateCode(body.toStateCode) && isStateCode(body.actToStateCode), '215');
  check(!blank(body.fromTrdName), '229');
  check(!blank(body.fromPlace), '230');
  check(!blank(body.toPlace), '232');
  check(typeof body.transDistance === 'string' && /^\d{1,4}$/.test(body.transDistance), '221');
  const items = Array.isArray(body.itemList) ? (body.itemList as Record<string, unknown>[]) : [];
  check(items.length > 0, '233');
  for (const item of items) {
    const hsn = typeof item.hsnCode === 'number' ? String(item.hsnCode) : '';
    check(/^\d{4,8}$/.test(hsn) || hsn.length < 4, '216');
    check(hsn.length >= 4, '282');
  }
  check(body.totInvValue !== undefined, '640');
  const taxes = ['totalValue', 'cgstValue', 'sgstValue', 'igstValue', 'cessValue', 'cessNonAdvolValue'];
  const sum = taxes.reduce((total, field) => total + (money(body[field]) || 0), 0);
  // Compared in paise: the request's rupees carry two decimals.
  check(Math.round(money(body.totInvValue) * 100) >= Math.round(sum * 100), '620');
  check(!(body.fromGstin === 'URP' && body.toGstin === 'URP'), '822');
  check(body.supplyType !== 'O' || body.fromGstin === userGstin, '359');
  return codes;
}

const IST_MS = 330 * 60 * 1000;
const two = (n: number) => String(n).padStart(2, '0');
/** dd/mm/yyyy hh:mm:ss AM in India time, as the portal writes its times. */
function portalTime(at: Date): string {
  const d = new Date(at.getTime() + IST_MS);
  const hours = d.getUTCHours();
  const half = hours >= 12 ? 'PM' : 'AM';
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(hours % 12 || 12)}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${half}`;
}

export async function startEwayBillGspSimulator(options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  const requests: GspSimRequest[] = [];
  const tokens = new Set<string>();
  const generated = new Map<string, string>();
  const overrides: GspOverride[] = [];
  let nextNumber = 331_000_000_001;
  let issued = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, codes: string[], description?: string) =>
    send(res, 200, {
      status_cd: '0',
      status_desc: description ?? codes.map((code) => WORDS[code] ?? 'Error').join(', '),
      error: { message: JSON.stringify({ errorCodes: `${codes.join(',')},` }) },
    });

  function authenticate(res: ServerResponse, query: Record<string, string>, headers: GspSimRequest['headers']) {
    if (headers.client_id !== GSP_CLIENT_ID || headers.client_secret !== GSP_CLIENT_SECRET) return refuse(res, ['110']);
    if (headers.gstin !== GSP_GSTIN) return refuse(res, ['111']);
    if (query.username !== GSP_USERNAME || query.password !== GSP_PASSWORD || query.email !== GSP_EMAIL)
      return refuse(res, ['108']);
    const token = `sim-token-${++issued}-${Math.random().toString(36).slice(2, 10)}`;
    tokens.add(token);
    return send(res, 200, { status_cd: '1', status_desc: 'Authentication succeeds', data: { authtoken: token } });
  }

  function generate(res: ServerResponse, headers: GspSimRequest['headers'], body: unknown) {
    if (headers.client_id !== GSP_CLIENT_ID || headers.client_secret !== GSP_CLIENT_SECRET) return refuse(res, ['110']);
    if (!headers.authtoken || !tokens.has(headers.authtoken)) return refuse(res, ['238']);
    const override = overrides.shift();
    if (override && 'status' in override) {
      res.writeHead(override.status, { 'content-type': 'text/html' });
      return void res.end(override.text);
    }
    if (override && 'raw' in override) return send(res, 200, override.raw);
    if (override) return refuse(res, override.codes, override.description);
    if (typeof body !== 'object' || body === null) return refuse(res, ['100'], 'Invalid Json');
    const request = body as Record<string, unknown>;
    const codes = judgeRequest(request, headers.gstin ?? '');
    const key = `${String(request.fromGstin)}|${String(request.docType)}|${String(request.docNo)}`;
    if (codes.length === 0 && generated.has(key)) codes.push('604');
    if (codes.length > 0) return refuse(res, codes);
    const number = String(nextNumber++);
    generated.set(key, number);
    const at = now();
    const days = Math.max(1, Math.ceil(Number(request.transDistance) / 200));
    const last = new Date(at.getTime() + IST_MS);
    const lastDay = new Date(
      Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate() + days, 23, 59) - IST_MS,
    );
    return send(res, 200, {
      status_cd: '1',
      status_desc: 'EWAYBILL request succeeds',
      data: { ewayBillNo: Number(number), ewayBillDate: portalTime(at), validUpto: portalTime(lastDay), alert: '' },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const headers = {
      client_id: req.headers.client_id as string | undefined,
      client_secret: req.headers.client_secret as string | undefined,
      gstin: req.headers.gstin as string | undefined,
      authtoken: req.headers.authtoken as string | undefined,
    };
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? '', path: url.pathname, query, headers, body });
    if (req.method === 'GET' && url.pathname === '/ewaybillapi/v1.03/authenticate')
      return authenticate(res, query, headers);
    if (req.method === 'POST' && url.pathname === '/ewaybillapi/v1.03/ewayapi/genewaybill')
      return generate(res, headers, body);
    return send(res, 404, { status_cd: '0', status_desc: `${req.method} ${url.pathname} not found` });
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    /** The generate calls received, their bodies as sent. */
    generateCalls: () => requests.filter((r) => r.path.endsWith('/genewaybill')),
    /** The next generate call answers this instead of judging its request. */
    answerNext: (override: GspOverride) => overrides.push(override),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type EwayBillGspSimulator = Awaited<ReturnType<typeof startEwayBillGspSimulator>>;
