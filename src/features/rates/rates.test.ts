import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { buildApp } from '../../app.js';
import { CREDENTIAL_CACHE_TTL_MS } from '../../tenancy/accounts/accounts.service.js';
import { accessToken, admin, authed, RATES, SERVICEABILITY, V1 } from '../../../test/kit/http.js';

const CARRIERS = `${V1}/carriers`;

const MISSING = 'Missing Authorization header: send "Authorization: Bearer <API key or access token>"';
const MALFORMED = 'Malformed Authorization header: expected "Bearer <credential>" or the bare credential';
const INVALID = 'Invalid, revoked or expired credential';
const PASSWORD = 'correct horse battery';

// Friday 20 November 2026, 09:00 India time: a working day, before every service's cut-off (the
// earliest is Blue Dart Air's 11:30). Working days from there: Sat 21, Mon 23 (Sun 22 is not),
// Wed 25 (Tue 24 is Guru Nanak's Birthday in data/holidays.json), Thu 26, Fri 27, Sat 28, Mon 30.
const FRI_0900_IST = '2026-11-20T03:30:00.000Z';

// The catalogue as data/couriers.json has it, typed out by hand so the test does not read the
// code under test: [name, code, service_level, is_fast, is_prime, platform_fee].
type Meta = [string, string, 'surface' | 'air', boolean, boolean, number];
const CATALOGUE: Record<string, Meta> = {
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
const ALL_IDS = Object.keys(CATALOGUE);

function meta(id: string): Meta {
  const found = CATALOGUE[id];
  if (found === undefined) throw new Error(`unknown carrier ${id} in the test`);
  return found;
}

/** A forward entry: charges [freight, cod, rto, total] in rupees, dates [pickup, delivery]. */
function fwd(id: string, charges: [number, number, number, number], dates: [string, string]) {
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
function ret(id: string, charges: [number, number, number], dates: [string, string]) {
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

const d = (day: string) => `2026-${day}`;

interface RatesBody {
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

const forward = (fields: RatesBody = {}): RatesBody => ({
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

const returning = (fields: RatesBody = {}): RatesBody => ({
  journey_type: 'return',
  origin_pincode: '682001',
  destination_pincode: '110001',
  dead_weight: 700,
  length: 10,
  width: 10,
  height: 10,
  ...fields,
});

let ctx: TestContext;
let apiKey: string;
let accountId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const account = await ctx.createAccount('Rates', { username: 'rates.user', password: PASSWORD });
  apiKey = account.apiKey;
  accountId = account.id;
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

const ids = (body: { result: { serviceable_couriers: { carrier_id: string }[] } }) =>
  body.result.serviceable_couriers.map((c) => c.carrier_id);

describe('POST /rates: forward journeys, hand-checked against data/couriers.json', () => {
  it('lane 1, Delhi → Mumbai (zone C), prepaid 400 g: every service that carries it, cheapest first', async () => {
    // 110001 New Delhi → 400001 Mumbai: two metro clusters in different states → C.
    // Volumetric 10 × 10 × 10 / 5 = 200 g; applicable max(400, 200) = 400 g, inside every 500 g first
    // slab, so freight = the zone-C first-slab price and RTO the RTO first-slab price. Xpressbees
    // 250 g has 250 g slabs: 250 + ceil(150 / 250) = 1 extra → 30 + 24 = 54. Prepaid: COD 0, total =
    // freight. Delhivery Air is the one service whose RTO (46) differs from its air freight (66).
    // The 5 kg and 10 kg plans are left out: 400 g is under their minimum weights (3,000 g, 8,000 g).
    // Dates at Fri 09:00: pickup today for all; zone-C transit 2 → Mon 23, 3 → Wed 25, 4 → Thu 26.
    expect(await quote(forward())).toEqual({
      status: 'SUCCESS',
      result: {
        serviceable_couriers: [
          fwd('CARSHFXSTD001', [42, 0, 42, 42], [d('11-20'), d('11-25')]),
          fwd('CARXPBSSTD001', [44, 0, 44, 44], [d('11-20'), d('11-26')]),
          fwd('CAREKRTSTD001', [45, 0, 45, 45], [d('11-20'), d('11-26')]),
          // 46 and 46: equal totals are ordered by carrier id, AMZN before DELH.
          fwd('CARAMZNSTD001', [46, 0, 46, 46], [d('11-20'), d('11-25')]),
          fwd('CARDELHSURF01', [46, 0, 46, 46], [d('11-20'), d('11-26')]),
          fwd('CARDTDCSTD001', [48, 0, 48, 48], [d('11-20'), d('11-26')]),
          fwd('CARINPOSPD001', [52, 0, 52, 52], [d('11-20'), d('11-26')]),
          fwd('CARBLDTSURF01', [54, 0, 54, 54], [d('11-20'), d('11-26')]),
          fwd('CARXPBS250G01', [54, 0, 54, 54], [d('11-20'), d('11-26')]),
          fwd('CARDELHAIR001', [66, 0, 46, 66], [d('11-20'), d('11-23')]),
          fwd('CARBLDTAIR001', [74, 0, 74, 74], [d('11-20'), d('11-23')]),
        ],
        shipment_details: {
          journey_type: 'forward',
          origin_pincode: '110001',
          destination_pincode: '400001',
          payment_method: 'prepaid',
          dead_weight: 400,
          volumetric_weight: 200,
          applicable_weight: 400,
          zone: 'C',
        },
      },
    });
  });

  it('lane 2, Bengaluru → Chennai (zone C), COD ₹2,500 on 1,200 g: freight slabs and COD = max(fixed, %)', async () => {
    // Volumetric 20 × 15 × 10 / 5 = 600 g; applicable 1,200 g = first 500 g + ceil(700 / 500) = 2
    // extra slabs (Xpressbees 250 g: first 250 g + ceil(950 / 250) = 4 extra).
    // COD on ₹2,500: 1.5 % = 37.50, 1.6 % = 40, 1.75 % = 43.75, 2 % = 50; each above its fixed fee
    // (29–45), so the percentage wins everywhere. Total = freight + COD.
    const body = await quote(
      forward({
        origin_pincode: '560001',
        destination_pincode: '600001',
        dead_weight: 1200,
        length: 20,
        width: 15,
        height: 10,
        payment_method: 'cod',
        shipment_value: 2500,
      }),
    );
    expect(body).toEqual({
      status: 'SUCCESS',
      result: {
        serviceable_couriers: [
          // Shadowfax C 42 + 2 × 40 = 122; COD max(29, 37.50) = 37.50 → 159.50
          fwd('CARSHFXSTD001', [122, 37.5, 122, 159.5], [d('11-20'), d('11-25')]),
          // India Post C 52 + 2 × 30 = 112; COD max(40, 50) = 50 → 162
          fwd('CARINPOSPD001', [112, 50, 112, 162], [d('11-20'), d('11-26')]),
          // Xpressbees 250 g C 30 + 4 × 24 = 126; COD max(30, 37.50) → 163.50 (ties XB Standard; "2" < "S")
          fwd('CARXPBS250G01', [126, 37.5, 126, 163.5], [d('11-20'), d('11-26')]),
          // Xpressbees C 44 + 2 × 41 = 126; COD max(32, 37.50) → 163.50
          fwd('CARXPBSSTD001', [126, 37.5, 126, 163.5], [d('11-20'), d('11-26')]),
          // Ekart C 45 + 2 × 42 = 129; COD max(30, 1.6 % = 40) → 169
          fwd('CAREKRTSTD001', [129, 40, 129, 169], [d('11-20'), d('11-26')]),
          // Amazon C 46 + 2 × 43 = 132; COD max(30, 37.50) → 169.50
          fwd('CARAMZNSTD001', [132, 37.5, 132, 169.5], [d('11-20'), d('11-25')]),
          // Delhivery Surface C 46 + 2 × 43 = 132; COD max(35, 1.75 % = 43.75) → 175.75
          fwd('CARDELHSURF01', [132, 43.75, 132, 175.75], [d('11-20'), d('11-26')]),
          // DTDC C 48 + 2 × 45 = 138; COD max(35, 50) → 188
          fwd('CARDTDCSTD001', [138, 50, 138, 188], [d('11-20'), d('11-26')]),
          // Blue Dart Surface C 54 + 2 × 50 = 154; COD max(40, 50) → 204
          fwd('CARBLDTSURF01', [154, 50, 154, 204], [d('11-20'), d('11-26')]),
          // Delhivery Air C 66 + 2 × 62 = 190; RTO 46 + 2 × 43 = 132; COD max(40, 50) → 240
          fwd('CARDELHAIR001', [190, 50, 132, 240], [d('11-20'), d('11-23')]),
          // Blue Dart Air C 74 + 2 × 70 = 214; COD max(45, 50) → 264
          fwd('CARBLDTAIR001', [214, 50, 214, 264], [d('11-20'), d('11-23')]),
        ],
        shipment_details: {
          journey_type: 'forward',
          origin_pincode: '560001',
          destination_pincode: '600001',
          payment_method: 'cod',
          dead_weight: 1200,
          volumetric_weight: 600,
          applicable_weight: 1200,
          zone: 'C',
        },
      },
    });
  });

  it('lane 3, Delhi → Jaipur (zone D), volumetric 4,800 g beats dead 500 g; the 5 kg plan bills its minimum', async () => {
    // 40 × 30 × 20 / 5 = 4,800 g > 500 g dead → applicable 4,800 g = first 500 g + ceil(4,300 / 500)
    // = 9 extra slabs. Delhivery 5 kg: min billed 5,000 g, slabs 1,000 g → 60 + ceil(4,000 / 1,000) =
    // 4 × 31 = 184. Xpressbees 250 g (max 2,000 g) and the 10 kg plan (min 8,000 g) are left out.
    // Zone-D transit 4 → Thu 26, 5 → Fri 27; Delhivery Air and Blue Dart Air 2 → Mon 23.
    const body = await quote(forward({ destination_pincode: '302001', dead_weight: 500, length: 40, width: 30, height: 20 }));
    expect(body.result.shipment_details).toEqual({
      journey_type: 'forward',
      origin_pincode: '110001',
      destination_pincode: '302001',
      payment_method: 'prepaid',
      dead_weight: 500,
      volumetric_weight: 4800,
      applicable_weight: 4800,
      zone: 'D',
    });
    expect(body.result.serviceable_couriers).toEqual([
      fwd('CARDELH5KG001', [184, 0, 184, 184], [d('11-20'), d('11-27')]),
      fwd('CARINPOSPD001', [382, 0, 382, 382], [d('11-20'), d('11-27')]), // 58 + 9 × 36
      fwd('CARSHFXSTD001', [453, 0, 453, 453], [d('11-20'), d('11-26')]), // 48 + 9 × 45
      fwd('CARXPBSSTD001', [454, 0, 454, 454], [d('11-20'), d('11-27')]), // 49 + 9 × 45
      fwd('CAREKRTSTD001', [464, 0, 464, 464], [d('11-20'), d('11-27')]), // 50 + 9 × 46
      fwd('CARAMZNSTD001', [474, 0, 474, 474], [d('11-20'), d('11-26')]), // 51 + 9 × 47
      fwd('CARDELHSURF01', [484, 0, 484, 484], [d('11-20'), d('11-27')]), // 52 + 9 × 48
      fwd('CARDTDCSTD001', [504, 0, 504, 504], [d('11-20'), d('11-27')]), // 54 + 9 × 50
      fwd('CARBLDTSURF01', [564, 0, 564, 564], [d('11-20'), d('11-27')]), // 60 + 9 × 56
      fwd('CARDELHAIR001', [684, 0, 484, 684], [d('11-20'), d('11-23')]), // 72 + 9 × 68; RTO 52 + 9 × 48
      fwd('CARBLDTAIR001', [784, 0, 784, 784], [d('11-20'), d('11-23')]), // 82 + 9 × 78
    ]);
  });

  it('lane 4, Ahmedabad → Surat (zone B), 12 kg: the weight plans win and light services drop out', async () => {
    // 50 × 40 × 30 / 5 = 12,000 g = dead 12,000 g. Delhivery 10 kg: first slab 10,000 g at 196 +
    // ceil(2,000 / 1,000) = 2 × 19 → 234. Delhivery 5 kg: 46 + ceil(11,000 / 1,000) = 11 × 22 → 288.
    // India Post: 46 + ceil(11,500 / 500) = 23 × 22 → 552. Services with a 10,000 g maximum
    // (Delhivery Air, Blue Dart Air, Shadowfax) and Xpressbees 250 g (2,000 g) are left out.
    // Zone-B transit 2 → Mon 23, 3 → Wed 25.
    const body = await quote(
      forward({ origin_pincode: '380001', destination_pincode: '395001', dead_weight: 12000, length: 50, width: 40, height: 30 }),
    );
    expect(body.result.shipment_details).toMatchObject({ volumetric_weight: 12000, applicable_weight: 12000, zone: 'B' });
    expect(body.result.serviceable_couriers).toEqual([
      fwd('CARDELH10KG01', [234, 0, 234, 234], [d('11-20'), d('11-25')]),
      fwd('CARDELH5KG001', [288, 0, 288, 288], [d('11-20'), d('11-25')]),
      fwd('CARINPOSPD001', [552, 0, 552, 552], [d('11-20'), d('11-25')]),
      fwd('CARXPBSSTD001', [842, 0, 842, 842], [d('11-20'), d('11-23')]), // 37 + 23 × 35
      fwd('CAREKRTSTD001', [866, 0, 866, 866], [d('11-20'), d('11-25')]), // 38 + 23 × 36
      fwd('CARAMZNSTD001', [867, 0, 867, 867], [d('11-20'), d('11-23')]), // 39 + 23 × 36
      fwd('CARDELHSURF01', [891, 0, 891, 891], [d('11-20'), d('11-23')]), // 40 + 23 × 37
      fwd('CARDTDCSTD001', [939, 0, 939, 939], [d('11-20'), d('11-25')]), // 42 + 23 × 39
      fwd('CARBLDTSURF01', [1035, 0, 1035, 1035], [d('11-20'), d('11-25')]), // 46 + 23 × 43
    ]);
  });

  it('lane 5, Pune → Solapur (zone B), COD ₹10,000 on 2 kg: the percentage beats every fixed fee', async () => {
    // 2,000 g = first 500 g + ceil(1,500 / 500) = 3 extra (Xpressbees 250 g: 250 + ceil(1,750 / 250) = 7).
    // COD on ₹10,000: 1.5 % = 150, 1.6 % = 160, 1.75 % = 175, 2 % = 200.
    // Zone-B transit 1 → Sat 21, 2 → Mon 23, 3 → Wed 25.
    const body = await quote(
      forward({
        origin_pincode: '411001',
        destination_pincode: '413001',
        dead_weight: 2000,
        payment_method: 'cod',
        shipment_value: 10000,
      }),
    );
    expect(body.result.shipment_details).toEqual({
      journey_type: 'forward',
      origin_pincode: '411001',
      destination_pincode: '413001',
      payment_method: 'cod',
      dead_weight: 2000,
      volumetric_weight: 200,
      applicable_weight: 2000,
      zone: 'B',
    });
    expect(body.result.serviceable_couriers).toEqual([
      fwd('CARSHFXSTD001', [130, 150, 130, 280], [d('11-20'), d('11-23')]), // 34 + 3 × 32; 1.5 %
      fwd('CARXPBSSTD001', [142, 150, 142, 292], [d('11-20'), d('11-23')]), // 37 + 3 × 35; 1.5 %
      fwd('CARAMZNSTD001', [147, 150, 147, 297], [d('11-20'), d('11-23')]), // 39 + 3 × 36; 1.5 %
      fwd('CAREKRTSTD001', [146, 160, 146, 306], [d('11-20'), d('11-25')]), // 38 + 3 × 36; 1.6 %
      fwd('CARINPOSPD001', [112, 200, 112, 312], [d('11-20'), d('11-25')]), // 46 + 3 × 22; 2 %
      fwd('CARXPBS250G01', [165, 150, 165, 315], [d('11-20'), d('11-23')]), // 25 + 7 × 20; 1.5 %
      fwd('CARDELHSURF01', [151, 175, 151, 326], [d('11-20'), d('11-23')]), // 40 + 3 × 37; 1.75 %
      fwd('CARDTDCSTD001', [159, 200, 159, 359], [d('11-20'), d('11-25')]), // 42 + 3 × 39; 2 %
      fwd('CARBLDTSURF01', [175, 200, 175, 375], [d('11-20'), d('11-25')]), // 46 + 3 × 43; 2 %
      fwd('CARDELHAIR001', [212, 200, 151, 412], [d('11-20'), d('11-21')]), // 56 + 3 × 52; RTO 40 + 3 × 37
      fwd('CARBLDTAIR001', [236, 200, 236, 436], [d('11-20'), d('11-21')]), // 62 + 3 × 58; 2 %
    ]);
  });

  it('the fixed COD fee applies when the percentage is lower (₹500 parcel, Mumbai → Mumbai Suburban, zone A)', async () => {
    // 1.5 % of 500 = 7.50 < Shadowfax's fixed 29; 2 % of 500 = 10 < Blue Dart Air's fixed 45.
    const body = await quote(
      forward({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300, payment_method: 'cod', shipment_value: 500 }),
    );
    const byId = Object.fromEntries(body.result.serviceable_couriers.map((c: { carrier_id: string }) => [c.carrier_id, c]));
    // Shadowfax A first slab 30 + COD 29 = 59; Blue Dart Air A 55 + 45 = 100.
    expect(byId.CARSHFXSTD001).toEqual(fwd('CARSHFXSTD001', [30, 29, 30, 59], [d('11-20'), d('11-21')]));
    expect(byId.CARBLDTAIR001).toEqual(fwd('CARBLDTAIR001', [55, 45, 55, 100], [d('11-20'), d('11-21')]));
  });

  it('a COD percentage is rounded half up to the paisa', async () => {
    // Delhivery Surface, 1.75 % of ₹4,006 = ₹70.105 = 7,010.5 paise → 7,011 (half up; not 7,010 as
    // truncation or banker's rounding would give) → ₹70.11. Zone A, 300 g: freight 36 → total 106.11.
    const body = await quote(
      forward({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300, payment_method: 'cod', shipment_value: 4006 }),
    );
    const dls = body.result.serviceable_couriers.find((c: { carrier_id: string }) => c.carrier_id === 'CARDELHSURF01');
    expect(dls).toEqual(fwd('CARDELHSURF01', [36, 70.11, 36, 106.11], [d('11-20'), d('11-21')]));
  });

  it('a forward quote ignores qc_applicable: the same answer with or without it', async () => {
    const plain = await quote(forward());
    expect(await quote(forward({ qc_applicable: true }))).toEqual(plain);
    expect(await quote(forward({ qc_applicable: false }))).toEqual(plain);
  });

  it('forward entries carry exactly the SPEC 2.2 keys, in order; shipment_details carries payment_method', async () => {
    const body = await quote(forward({ payment_method: 'cod', shipment_value: 999 }));
    expect(Object.keys(body)).toEqual(['status', 'result']);
    expect(Object.keys(body.result)).toEqual(['serviceable_couriers', 'shipment_details']);
    expect(body.result.serviceable_couriers).toHaveLength(11);
    for (const entry of body.result.serviceable_couriers) {
      expect(Object.keys(entry)).toEqual([
        'carrier_id',
        'carrier_name',
        'carrier_code',
        'service_level',
        'status',
        'is_fast',
        'is_prime',
        'platform_fee',
        'expected_delivery',
        'charges',
      ]);
      expect(Object.keys(entry.charges)).toEqual(['forward_freight_charges', 'cod_charges', 'rto_charges', 'total_forward_charges']);
      expect(Object.keys(entry.expected_delivery)).toEqual(['pickup', 'delivery']);
      expect(entry.status).toBe('active');
    }
    expect(Object.keys(body.result.shipment_details)).toEqual([
      'journey_type',
      'origin_pincode',
      'destination_pincode',
      'payment_method',
      'dead_weight',
      'volumetric_weight',
      'applicable_weight',
      'zone',
    ]);
  });
});

describe('POST /rates: return journeys', () => {
  // Lane 6: Kerala customer (682001 Ernakulam) → Delhi warehouse (110001): a special region → E.
  // 700 g = first 500 g + 1 extra reverse slab. Zone-E transit 3 → Wed 25, 6 → Sat 28, 7 → Mon 30.
  const KERALA_RETURN_WITH_QC = {
    status: 'SUCCESS',
    result: {
      serviceable_couriers: [
        ret('CARSHFXSTD001', [170, 12, 182], [d('11-20'), d('11-28')]), // reverse E 88 + 82; QC 12
        ret('CARDELHSURF01', [182, 15, 197], [d('11-20'), d('11-30')]), // 96 + 86; QC 15
        ret('CARDELHAIR001', [228, 15, 243], [d('11-20'), d('11-25')]), // 118 + 110; QC 15
      ],
      shipment_details: {
        journey_type: 'return',
        origin_pincode: '682001',
        destination_pincode: '110001',
        dead_weight: 700,
        volumetric_weight: 200,
        applicable_weight: 700,
        zone: 'E',
      },
    },
  };

  it('qc_applicable omitted defaults to true: QC fees priced, services without QC left out', async () => {
    // Only QC-capable services (qc_capable: Delhivery and Shadowfax) carry a QC return; the
    // Delhivery weight plans are under their minimum weight anyway.
    expect(await quote(returning())).toEqual(KERALA_RETURN_WITH_QC);
  });

  it('qc_applicable true gives the same answer as omitting it', async () => {
    expect(await quote(returning({ qc_applicable: true }))).toEqual(KERALA_RETURN_WITH_QC);
  });

  it('lane 7, qc_applicable false, Mumbai → Mumbai Suburban (zone A): every service, QC 0, reverse prices', async () => {
    // 300 g inside every 500 g first slab; Xpressbees 250 g: 250 + 1 extra → 32 + 26 = 58.
    // Zone-A transit 1 → Sat 21, 2 → Mon 23.
    expect(
      await quote(returning({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300, qc_applicable: false })),
    ).toEqual({
      status: 'SUCCESS',
      result: {
        serviceable_couriers: [
          ret('CARSHFXSTD001', [44, 0, 44], [d('11-20'), d('11-21')]),
          ret('CARXPBSSTD001', [48, 0, 48], [d('11-20'), d('11-21')]),
          ret('CARAMZNSTD001', [50, 0, 50], [d('11-20'), d('11-21')]),
          ret('CAREKRTSTD001', [50, 0, 50], [d('11-20'), d('11-23')]),
          ret('CARDELHSURF01', [52, 0, 52], [d('11-20'), d('11-21')]),
          ret('CARINPOSPD001', [52, 0, 52], [d('11-20'), d('11-23')]),
          ret('CARDTDCSTD001', [54, 0, 54], [d('11-20'), d('11-23')]),
          ret('CARXPBS250G01', [58, 0, 58], [d('11-20'), d('11-21')]),
          ret('CARBLDTSURF01', [60, 0, 60], [d('11-20'), d('11-23')]),
          ret('CARDELHAIR001', [64, 0, 64], [d('11-20'), d('11-21')]),
          ret('CARBLDTAIR001', [78, 0, 78], [d('11-20'), d('11-21')]),
        ],
        shipment_details: {
          journey_type: 'return',
          origin_pincode: '400001',
          destination_pincode: '400050',
          dead_weight: 300,
          volumetric_weight: 200,
          applicable_weight: 300,
          zone: 'A',
        },
      },
    });
  });

  it('return entries have no is_fast, is_prime or platform_fee; shipment_details has no payment_method', async () => {
    const body = await quote(returning());
    for (const entry of body.result.serviceable_couriers) {
      expect(Object.keys(entry)).toEqual([
        'carrier_id',
        'carrier_name',
        'carrier_code',
        'service_level',
        'status',
        'expected_delivery',
        'charges',
      ]);
      expect(Object.keys(entry.charges)).toEqual(['return_freight_charges', 'qc_charges', 'total_return_charges']);
    }
    expect(Object.keys(body.result.shipment_details)).toEqual([
      'journey_type',
      'origin_pincode',
      'destination_pincode',
      'dead_weight',
      'volumetric_weight',
      'applicable_weight',
      'zone',
    ]);
  });

  it('a return ignores payment_method and shipment_value (a return is never cash on delivery)', async () => {
    expect(await quote(returning({ payment_method: 'cod' }))).toEqual(KERALA_RETURN_WITH_QC);
    expect(await quote(returning({ payment_method: 'prepaid', shipment_value: 5000 }))).toEqual(KERALA_RETURN_WITH_QC);
  });
});

describe('POST /rates: sorting, zones and weights', () => {
  it.each([
    ['forward prepaid', forward()],
    ['forward COD', forward({ payment_method: 'cod', shipment_value: 4321 })],
    ['forward heavy', forward({ dead_weight: 9000 })],
    ['return', returning()],
    ['return without QC', returning({ qc_applicable: false, dead_weight: 2600 })],
  ])('%s: totals never decrease down the list, ties by carrier id', async (_name, request) => {
    const body = await quote(request);
    const list: { carrier_id: string; charges: Record<string, number> }[] = body.result.serviceable_couriers;
    const total = (c: (typeof list)[number]) => c.charges.total_forward_charges ?? c.charges.total_return_charges!;
    expect(list.length).toBeGreaterThan(2);
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(total(a) < total(b) || (total(a) === total(b) && a.carrier_id < b.carrier_id)).toBe(true);
    }
  });

  it.each([
    ['400001', '400050', 'A', 'Mumbai → Mumbai Suburban: one metro cluster'],
    ['110001', '201301', 'A', 'Delhi → Noida: one metro cluster across states'],
    ['411001', '413001', 'B', 'Pune → Solapur: one state'],
    ['110001', '400001', 'C', 'Delhi → Mumbai: metro to metro'],
    ['110001', '302001', 'D', 'Delhi → Jaipur: the rest'],
    ['682001', '110001', 'E', 'Kerala → Delhi: special region'],
    ['781001', '781005', 'A', 'Guwahati → Guwahati: same district inside a special region'],
  ])('%s → %s is zone %s (%s), in /rates and in /serviceability', async (from, to, zone) => {
    const body = await quote(forward({ origin_pincode: from, destination_pincode: to }));
    expect(body.result.shipment_details.zone).toBe(zone);
    const response = await post(SERVICEABILITY, { from, to, payment_mode: 'prepaid', shipment_type: 'forward' });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.zone).toBe(`zone_${zone.toLowerCase()}`);
  });

  it.each([
    // [dead, L, W, H, dead echoed, volumetric, applicable, why]
    [400, 10, 10, 10, 400, 200, 400, 'dead beats volumetric'],
    [500, 40, 30, 20, 500, 4800, 4800, 'volumetric beats dead: 24,000 / 5'],
    [1000, 20, 10, 25, 1000, 1000, 1000, 'equal: 5,000 / 5'],
    // 3.3³ = 35.937 → / 5 = 7.1874 → 7.19; dead 5.555 → 5.56 (half up, as written)
    [5.555, 3.3, 3.3, 3.3, 5.56, 7.19, 7.19, 'both rounded to two decimals, volumetric wins'],
    // 10.5 × 10.2 × 10.1 = 1,081.71 → / 5 = 216.342 → 216.34; dead 1,234.567 → 1,234.57
    [1234.567, 10.5, 10.2, 10.1, 1234.57, 216.34, 1234.57, 'fractional dimensions, dead wins'],
    [250.5, 10, 10, 10, 250.5, 200, 250.5, 'one decimal kept as is'],
  ])(
    'dead %s g, %s × %s × %s cm → dead %s, volumetric %s, applicable %s (%s)',
    async (dead, l, w, h, deadEcho, volumetric, applicable) => {
      const body = await quote(forward({ dead_weight: dead, length: l, width: w, height: h }));
      expect(body.result.shipment_details).toMatchObject({
        dead_weight: deadEcho,
        volumetric_weight: volumetric,
        applicable_weight: applicable,
      });
    },
  );

  it.each([
    // Mumbai → Mumbai Suburban, zone A, Delhivery Surface: first 500 g 36, each further 500 g 34.
    [500, 10, 10, 10, 36, 'exactly 500 g: first slab only'],
    [500.01, 10, 10, 10, 70, '500.01 g rounds up into a second slab: 36 + 34'],
    [100, 10, 10, 25.01, 70, 'volumetric 2,501 / 5 = 500.2 g: second slab'],
    [1000, 10, 10, 10, 70, '1,000 g: two slabs'],
    [1000.5, 10, 10, 10, 104, '1,000.5 g: three slabs, 36 + 2 × 34'],
  ])('slabs round the applicable weight up: %s g, %s × %s × %s → ₹%s (%s)', async (dead, l, w, h, freight) => {
    const body = await quote(
      forward({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: dead, length: l, width: w, height: h }),
    );
    const dls = body.result.serviceable_couriers.find((c: { carrier_id: string }) => c.carrier_id === 'CARDELHSURF01');
    expect(dls.charges).toEqual({
      forward_freight_charges: freight,
      cod_charges: 0,
      rto_charges: freight,
      total_forward_charges: freight,
    });
  });

  it('a pincode sent as a JSON number is accepted and echoed as a string', async () => {
    const asNumbers = await quote(forward({ origin_pincode: 110001, destination_pincode: 400001 }));
    expect(asNumbers.result.shipment_details.origin_pincode).toBe('110001');
    expect(asNumbers.result.shipment_details.destination_pincode).toBe('400001');
    expect(asNumbers).toEqual(await quote(forward()));
  });
});

describe('POST /rates: expected pickup and delivery dates (India time)', () => {
  // Mumbai → Mumbai Suburban, zone A. [cut-off, zone-A transit working days] per service:
  //   Shadowfax 13:00/1, Xpressbees 15:00/1, Xpressbees 250 g 15:00/1, Amazon 15:30/1,
  //   Delhivery Surface 14:00/1, Delhivery Air 12:00/1, Blue Dart Air 11:30/1,
  //   Ekart 13:00/2, DTDC 16:00/2, India Post 15:00/2, Blue Dart Surface 14:30/2.
  const dates = async () => {
    const body = await quote(forward({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300 }));
    return Object.fromEntries(
      body.result.serviceable_couriers.map((c: { carrier_id: string; expected_delivery: { pickup: string; delivery: string } }) => [
        c.carrier_id,
        [c.expected_delivery.pickup, c.expected_delivery.delivery],
      ]),
    );
  };
  /** Every service picks up on `pickup`; 1-day services deliver on `one`, 2-day ones on `two`. */
  const uniform = (pickup: string, one: string, two: string) => ({
    CARSHFXSTD001: [pickup, one],
    CARXPBSSTD001: [pickup, one],
    CARXPBS250G01: [pickup, one],
    CARAMZNSTD001: [pickup, one],
    CARDELHSURF01: [pickup, one],
    CARDELHAIR001: [pickup, one],
    CARBLDTAIR001: [pickup, one],
    CAREKRTSTD001: [pickup, two],
    CARDTDCSTD001: [pickup, two],
    CARINPOSPD001: [pickup, two],
    CARBLDTSURF01: [pickup, two],
  });

  it('Fri 09:00, before every cut-off: pickup today, delivery skips Sunday 22 and the 24 Nov holiday', async () => {
    // 1 working day after Fri 20 → Sat 21; 2 → Mon 23.
    expect(await dates()).toEqual(uniform(d('11-20'), d('11-21'), d('11-23')));
  });

  it('Fri 14:30, between cut-offs: late services pick up Saturday; a cut-off is exclusive', async () => {
    ctx.clock.set('2026-11-20T09:00:00.000Z'); // 14:30 IST
    expect(await dates()).toEqual({
      // before their cut-off: today; delivery +1 → Sat 21, +2 → Mon 23
      CARXPBSSTD001: [d('11-20'), d('11-21')], // 15:00
      CARXPBS250G01: [d('11-20'), d('11-21')], // 15:00
      CARAMZNSTD001: [d('11-20'), d('11-21')], // 15:30
      CARDTDCSTD001: [d('11-20'), d('11-23')], // 16:00, 2 days
      CARINPOSPD001: [d('11-20'), d('11-23')], // 15:00, 2 days
      // at or after their cut-off: Sat 21; +1 → Mon 23 (Sun 22 skipped), +2 → Wed 25 (Tue 24 holiday)
      CARSHFXSTD001: [d('11-21'), d('11-23')], // 13:00
      CARDELHSURF01: [d('11-21'), d('11-23')], // 14:00
      CARDELHAIR001: [d('11-21'), d('11-23')], // 12:00
      CARBLDTAIR001: [d('11-21'), d('11-23')], // 11:30
      CAREKRTSTD001: [d('11-21'), d('11-25')], // 13:00, 2 days
      CARBLDTSURF01: [d('11-21'), d('11-25')], // 14:30 exactly: not before the cut-off
    });
  });

  it.each([
    // [instant (UTC), India time, pickup, 1-day delivery, 2-day delivery]
    ['2026-11-21T11:30:00.000Z', 'Sat 21 Nov 17:00, after every cut-off', '11-23', '11-25', '11-26'],
    ['2026-11-22T04:30:00.000Z', 'Sun 22 Nov 10:00, a Sunday', '11-23', '11-25', '11-26'],
    ['2026-11-24T03:30:00.000Z', 'Tue 24 Nov 09:00, Guru Nanak’s Birthday', '11-25', '11-26', '11-27'],
    ['2026-12-24T11:00:00.000Z', 'Thu 24 Dec 16:30, Christmas next day', '12-26', '12-28', '12-29'],
    ['2026-11-20T18:45:00.000Z', 'Sat 21 Nov 00:15 (still the 20th in UTC)', '11-21', '11-23', '11-25'],
    ['2026-10-01T12:00:00.000Z', 'Thu 1 Oct 17:30, Gandhi Jayanti next day', '10-03', '10-05', '10-06'],
  ])('%s (%s): pickup %s, delivery %s / %s', async (instant, _india, pickup, one, two) => {
    ctx.clock.set(instant);
    expect(await dates()).toEqual(uniform(d(pickup), d(one), d(two)));
  });
});

describe('POST /rates: unserviceable lanes answer 200 with an empty list', () => {
  it('an Army Postal Service pincode (starting with 9): no courier serves it, the zone is still given', async () => {
    // 900099 is in the directory (labelled Kolkata), so Delhi → it is C; prefix "9" is unserviceable.
    expect(await quote(forward({ destination_pincode: '900099' }))).toEqual({
      status: 'SUCCESS',
      result: {
        serviceable_couriers: [],
        shipment_details: {
          journey_type: 'forward',
          origin_pincode: '110001',
          destination_pincode: '900099',
          payment_method: 'prepaid',
          dead_weight: 400,
          volumetric_weight: 200,
          applicable_weight: 400,
          zone: 'C',
        },
      },
    });
    const back = await quote(returning({ origin_pincode: '900099', qc_applicable: false }));
    expect(back.result.serviceable_couriers).toEqual([]);
  });

  it('Lakshadweep: only India Post serves it, and it offers no COD there', async () => {
    // Delhi → 682555 Lakshadweep is E; India Post E first slab 72; transit 7 → Mon 30.
    const prepaid = await quote(forward({ destination_pincode: '682555' }));
    expect(prepaid.result.serviceable_couriers).toEqual([
      fwd('CARINPOSPD001', [72, 0, 72, 72], [d('11-20'), d('11-30')]),
    ]);
    const cod = await quote(forward({ destination_pincode: '682555', payment_method: 'cod', shipment_value: 1000 }));
    expect(cod.result.serviceable_couriers).toEqual([]);
    expect(cod.result.shipment_details.zone).toBe('E');
  });

  it('a parcel heavier than every service takes (70 kg > the 10 kg plan’s 60 kg)', async () => {
    const body = await quote(forward({ dead_weight: 70000 }));
    expect(body.result.serviceable_couriers).toEqual([]);
    expect(body.result.shipment_details).toMatchObject({ dead_weight: 70000, applicable_weight: 70000 });
  });

  it('a parcel lighter than every minimum (0.5 g, under 1 g) is served by none', async () => {
    const body = await quote(forward({ dead_weight: 0.5, length: 0.5, width: 0.5, height: 0.5 }));
    expect(body.result.serviceable_couriers).toEqual([]);
  });
});

describe('POST /rates: COD is left out where a service does not offer it', () => {
  it('Delhi → Port Blair (Andaman): five services carry it prepaid, only India Post takes COD', async () => {
    // Zone E, 400 g in the first slab. Blue Dart Surface and most others do not serve the islands;
    // Delhivery Surface and Air, DTDC and Blue Dart Air serve them but offer no COD there.
    const prepaid = await quote(forward({ destination_pincode: '744101' }));
    expect(ids(prepaid)).toEqual(['CARDELHSURF01', 'CARDTDCSTD001', 'CARINPOSPD001', 'CARDELHAIR001', 'CARBLDTAIR001']);
    const cod = await quote(forward({ destination_pincode: '744101', payment_method: 'cod', shipment_value: 1000 }));
    // India Post E 72 + COD max(40, 2 % of 1,000 = 20) = 40 → 112; transit 7 → Mon 30.
    expect(cod.result.serviceable_couriers).toEqual([fwd('CARINPOSPD001', [72, 40, 72, 112], [d('11-20'), d('11-30')])]);
  });

  it('Delhi → Srinagar (J&K): Xpressbees, Ekart, Shadowfax and Amazon drop out for COD only', async () => {
    const prepaid = ids(await quote(forward({ destination_pincode: '190001' })));
    const cod = ids(await quote(forward({ destination_pincode: '190001', payment_method: 'cod', shipment_value: 1000 })));
    const noCodInJk = ['CARXPBSSTD001', 'CARXPBS250G01', 'CAREKRTSTD001', 'CARSHFXSTD001', 'CARAMZNSTD001'];
    expect(prepaid).toHaveLength(11);
    expect(prepaid).toEqual(expect.arrayContaining(noCodInJk));
    expect(cod).toEqual(prepaid.filter((id) => !noCodInJk.includes(id)));
    expect(cod).toHaveLength(6);
  });
});

describe('POST /rates: authentication', () => {
  it.each([
    ['bare API key', (key: string) => key],
    ['Bearer API key', (key: string) => `Bearer ${key}`],
    ['lower-case bearer', (key: string) => `bearer ${key}`],
  ])('accepts the %s', async (_form, header) => {
    const response = await post(RATES, forward(), header(apiKey));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await quote(forward()));
  });

  it('accepts an access token, bare and as Bearer', async () => {
    const token = await accessToken(ctx, 'rates.user', PASSWORD);
    for (const header of [token, `Bearer ${token}`]) {
      const response = await post(RATES, forward(), header);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('SUCCESS');
    }
  });

  it.each([
    ['no Authorization header', null, MISSING],
    ['an empty header', '', MISSING],
    ['"Bearer" alone', 'Bearer', MALFORMED],
    ['another scheme', 'Basic dXNlcjpwYXNz', MALFORMED],
    ['an unknown key', 'dky_not-a-real-key', INVALID],
    ['an unknown Bearer key', 'Bearer dky_not-a-real-key', INVALID],
  ])('answers 401 for %s', async (_case, header, message) => {
    const response = await post(RATES, forward(), header);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message, errors: [message] });
  });

  it('checks the credential before the body: no credential and malformed JSON is 401', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: RATES,
      headers: { 'content-type': 'application/json' },
      payload: '{"journey_type":',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: MISSING, errors: [MISSING] });
  });

  it('a key revoked through this process is refused at once, despite the credential cache', async () => {
    const issued = await ctx.app.inject({ method: 'POST', url: `/admin/v1/accounts/${accountId}/api-keys`, headers: admin });
    expect(issued.statusCode).toBe(201);
    const { api_key: key, api_key_id: keyId } = issued.json();
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200); // now cached
    const revoked = await ctx.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: admin });
    expect(revoked.statusCode).toBe(200);
    const after = await post(RATES, forward(), `Bearer ${key}`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: INVALID, errors: [INVALID] });
    // The account's other key is untouched.
    expect((await post(RATES, forward())).statusCode).toBe(200);
  });

  it('a key revoked through another process (the CLI, a second instance) is honoured within the 1 s credential cache, with no lookup per request before that', async () => {
    const issued = await ctx.app.inject({ method: 'POST', url: `/admin/v1/accounts/${accountId}/api-keys`, headers: admin });
    const { api_key: key, api_key_id: keyId } = issued.json();
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200); // now cached
    // What `npm run cli` does: its own app on the same database, with its own credential cache.
    const elsewhere = await buildApp({ db: ctx.database.db, clock: ctx.clock, adminToken: ADMIN_TOKEN, publicBaseUrl: PUBLIC_BASE_URL });
    try {
      const revoked = await elsewhere.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: admin });
      expect(revoked.statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
    // Still answered from the cache, so the database was not asked: the revocation is not seen yet.
    ctx.clock.advance(CREDENTIAL_CACHE_TTL_MS - 1);
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200);
    ctx.clock.advance(1);
    const after = await post(RATES, forward(), `Bearer ${key}`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: INVALID, errors: [INVALID] });
  });
});

describe('POST /serviceability', () => {
  const check = async (body: object) => {
    const response = await post(SERVICEABILITY, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const names = (...list: string[]) => list.map((id) => ({ carrier_id: id, carrier_name: meta(id)[0] }));

  it('answers the Velocity shape, services in catalogue order, with zone_x', async () => {
    expect(await check({ from: '110001', to: '744101', payment_mode: 'prepaid', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names('CARDELHSURF01', 'CARDELHAIR001', 'CARDTDCSTD001', 'CARBLDTAIR001', 'CARINPOSPD001'),
        zone: 'zone_e',
      },
    });
  });

  it('leaves out services without COD on the lane for forward COD, but not for returns', async () => {
    expect(await check({ from: '110001', to: '744101', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: names('CARINPOSPD001'), zone: 'zone_e' },
    });
    expect(await check({ from: '110001', to: '744101', payment_mode: 'cod', shipment_type: 'return' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names('CARDELHSURF01', 'CARDELHAIR001', 'CARDTDCSTD001', 'CARBLDTAIR001', 'CARINPOSPD001'),
        zone: 'zone_e',
      },
    });
    // Srinagar: every service that serves J&K, less those without COD there (weight is not asked).
    expect(await check({ from: '110001', to: '190001', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names(
          'CARDELHSURF01',
          'CARDELHAIR001',
          'CARDELH5KG001',
          'CARDELH10KG01',
          'CARDTDCSTD001',
          'CARBLDTAIR001',
          'CARBLDTSURF01',
          'CARINPOSPD001',
        ),
        zone: 'zone_e',
      },
    });
  });

  it('lists every catalogue service on a lane they all serve, and none for an APS pincode', async () => {
    expect(await check({ from: '400001', to: '400050', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: names(...ALL_IDS), zone: 'zone_a' },
    });
    expect(await check({ from: 110001, to: '900099', payment_mode: 'prepaid', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: [], zone: 'zone_c' },
    });
  });

  it.each([
    [{ from: '11000', to: '400001', payment_mode: 'cod', shipment_type: 'forward' }, 'from', 'from must be a 6-digit Indian pincode'],
    [{ from: '110001', to: '999999', payment_mode: 'cod', shipment_type: 'forward' }, 'to', 'to 999999 is not a valid Indian pincode'],
    [{ from: '110001', to: '400001', payment_mode: 'card', shipment_type: 'forward' }, 'payment_mode', 'payment_mode must be "cod" or "prepaid"'],
    [{ from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'rto' }, 'shipment_type', 'shipment_type must be "forward" or "return"'],
    [{ from: '110001', to: '400001', payment_mode: 'cod' }, 'shipment_type', 'shipment_type is required'],
    [{ from: '110001', to: '400001', payment_mode: true, shipment_type: 'forward' }, 'payment_mode', 'payment_mode must be "cod" or "prepaid"'],
    [{ from: '110001.0', to: '400001', payment_mode: 'cod', shipment_type: 'forward' }, 'from', 'from must be a 6-digit Indian pincode'],
  ])('400 for %j: %s', async (body, field, message) => {
    const response = await post(SERVICEABILITY, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [message], details: [{ field, message }] });
  });

  it('ignores a field it does not know (weight), naming it in Dakiya-Ignored-Fields: the same answer', async () => {
    const plain = { from: '110001', to: '190001', payment_mode: 'cod', shipment_type: 'forward' };
    const expected = await post(SERVICEABILITY, plain);
    expect(expected.statusCode).toBe(200);
    expect(expected.headers['dakiya-ignored-fields']).toBeUndefined();
    const response = await post(SERVICEABILITY, { ...plain, weight: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(expected.json());
    expect(response.headers['dakiya-ignored-fields']).toBe('weight');
  });

  it('401 without a credential', async () => {
    const response = await post(SERVICEABILITY, { from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'forward' }, null);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: MISSING, errors: [MISSING] });
  });
});

describe('GET /carriers', () => {
  it('lists every catalogue service with id, name, code, service level and flags', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CARRIERS, headers: authed(`Bearer ${apiKey}`) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: ALL_IDS.map((id) => {
        const [name, code, level, fast, prime] = meta(id);
        return { carrier_id: id, carrier_name: name, carrier_code: code, service_level: level, is_fast: fast, is_prime: prime };
      }),
    });
    expect(response.json().data).toHaveLength(13);
  });

  it('401 without a credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CARRIERS });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: MISSING, errors: [MISSING] });
  });
});
