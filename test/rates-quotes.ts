import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { authed, RATES } from './kit/http.js';

// What the rates-*.test.ts files and serviceability-and-carriers.once.test.ts share: the clock they quote
// at, the catalogue typed out by hand, request builders, expected entries, and the app they ask.

export const MISSING = 'Missing Authorization header: send "Authorization: Bearer <API key or access token>"';
export const MALFORMED =
  'Malformed Authorization header: expected "Bearer <credential>", "Token <credential>" or the bare credential';
export const INVALID = 'Invalid, revoked or expired credential';
export const PASSWORD = 'correct horse battery';

// Friday 20 November 2026, 09:00 India time: a working day, before every service's cut-off (the
// earliest is Blue Dart Air's 11:30). Working days from there: Sat 21, Mon 23 (Sun 22 is not),
// Wed 25 (Tue 24 is Guru Nanak's Birthday in data/holidays.json), Thu 26, Fri 27, Sat 28, Mon 30.
export const FRI_0900_IST = '2026-11-20T03:30:00.000Z';

// The catalogue as data/couriers.json has it, typed out by hand so the test does not read the
// code under test: [name, code, service_level, is_fast, is_prime, platform_fee].
export type Meta = [string, string, 'surface' | 'air', boolean, boolean, number];
export const CATALOGUE: Record<string, Meta> = {
  CARDELHSURF01: ['Delhivery Surface', 'delhivery-surface', 'surface', false, false, 0],
  CARDELHAIR001: ['Delhivery Air', 'delhivery-air', 'air', true, false, 2],
  CARDELH5KG001: ['Delhivery Surface 5 kg', 'delhivery-surface-5kg', 'surface', false, false, 0],
  CARDELH10KG01: ['Delhivery Surface 10 kg', 'delhivery-surface-10kg', 'surface', false, false, 0],
  CARXPBSSTD001: ['Xpressbees Standard', 'xpressbees-standard', 'surface', false, false, 0],
  CARXPBS250G01: ['Xpressbees 250 g', 'xpressbees-250g', 'surface', false, false, 0],
  CAREKRTSTD001: ['Ekart Standard', 'ekart-standard', 'surface', false, false, 0],
  CARDTDCSTD001: ['DTDC Standard', 'dtdc-standard', 'surface', false, false, 0],
  CARBLDTAIR001: ['Blue Dart Air', 'bluedart-air', 'air', true, true, 5],
  CARBLDTSURF01: ['Blue Dart Surface', 'bluedart-surface', 'surface', false, true, 3],
  CARSHFXSTD001: ['Shadowfax Standard', 'shadowfax-standard', 'surface', false, false, 0],
  CARAMZNSTD001: ['Amazon Shipping', 'amazon-shipping', 'surface', false, false, 0],
  CARINPOSPD001: ['India Post Speed Post', 'indiapost-speedpost', 'surface', false, false, 0],
};
export const ALL_IDS = Object.keys(CATALOGUE);

export function meta(id: string): Meta {
  const found = CATALOGUE[id];
  if (found === undefined) throw new Error(`unknown carrier ${id} in the test`);
  return found;
}

/** A forward entry: charges [freight, cod, rto, total] in rupees, dates [pickup, delivery]. */
export function fwd(id: string, charges: [number, number, number, number], dates: [string, string]) {
  const [name, code, level, fast, prime, fee] = meta(id);
  return {
    carrier_id: id,
    carrier_name: name,
    carrier_code: code,
    service_level: level,
    status: 'active',
    is_fast: fast,
    is_prime: prime,
    platform_fee: fee,
    expected_delivery: { pickup: dates[0], delivery: dates[1] },
    charges: {
      forward_freight_charges: charges[0],
      cod_charges: charges[1],
      rto_charges: charges[2],
      total_forward_charges: charges[3],
    },
  };
}

/** A return entry: charges [freight, qc, total] in rupees, dates [pickup, delivery]. */
export function ret(id: string, charges: [number, number, number], dates: [string, string]) {
  const [name, code, level] = meta(id);
  return {
    carrier_id: id,
    carrier_name: name,
    carrier_code: code,
    service_level: level,
    status: 'active',
    expected_delivery: { pickup: dates[0], delivery: dates[1] },
    charges: { return_freight_charges: charges[0], qc_charges: charges[1], total_return_charges: charges[2] },
  };
}

export const d = (day: string) => `2026-${day}`;

export interface RatesBody {
  journey_type?: unknown;
  origin_pincode?: unknown;
  destination_pincode?: unknown;
  dead_weight?: unknown;
  length?: unknown;
  width?: unknown;
  height?: unknown;
  payment_method?: unknown;
  shipment_value?: unknown;
  qc_applicable?: unknown;
}

export const forward = (fields: RatesBody = {}): RatesBody => ({
  journey_type: 'forward',
  origin_pincode: '110001',
  destination_pincode: '400001',
  dead_weight: 400,
  length: 10,
  width: 10,
  height: 10,
  payment_method: 'prepaid',
  ...fields,
});

export const returning = (fields: RatesBody = {}): RatesBody => ({
  journey_type: 'return',
  origin_pincode: '682001',
  destination_pincode: '110001',
  dead_weight: 700,
  length: 10,
  width: 10,
  height: 10,
  ...fields,
});

/**
 * The file's app (made before its first test, closed after its last) with an account of
 * PASSWORD, the clock at FRI_0900_IST before every test, and the requests the tests send it.
 * `ready` receives the app and the account, for tests that use them directly.
 */
export function useRatesApp(ready: (ctx: TestContext, account: { id: string; apiKey: string }) => void = () => {}) {
  let ctx: TestContext;
  let apiKey: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const account = await ctx.createAccount('Rates', { username: 'rates.user', password: PASSWORD });
    apiKey = account.apiKey;
    ready(ctx, account);
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(() => {
    ctx.clock.set(FRI_0900_IST);
  });

  /** `authorization` null sends no Authorization header at all. */
  function post(url: string, body: unknown, authorization: string | null = apiKey) {
    return ctx.app.inject({
      method: 'POST',
      url,
      headers: authorization === null ? {} : authed(authorization),
      payload: body as object,
    });
  }

  async function quote(body: RatesBody) {
    const response = await post(RATES, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return response.json();
  }

  return { post, quote };
}

export const ids = (body: { result: { serviceable_couriers: { carrier_id: string }[] } }) =>
  body.result.serviceable_couriers.map((c) => c.carrier_id);
