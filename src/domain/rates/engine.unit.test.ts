import { describe, expect, it } from 'vitest';
import type { PincodeEntry } from '../geo/pincodes.js';
import { formatDay } from '../calendar.js';
import { type RateQuote, type RateRequest, quoteRates, serviceableCarriers } from './engine.js';
import { loadRatesContext } from '../../data-files.js';

const ctx = loadRatesContext();
// Monday 15 June 2026, 10:00 India time: before every service's cut-off.
const MONDAY_10AM = new Date('2026-06-15T04:30:00Z');

function pin(pincode: string): PincodeEntry {
  const entry = ctx.directory.lookup(pincode);
  if (entry === undefined) throw new Error(`test pincode ${pincode} is not in the directory`);
  return entry;
}

interface Lane {
  journey?: 'forward' | 'return';
  from: string;
  to: string;
  grams: number;
  dims?: [number, number, number];
  cod?: number; // shipment value in rupees
  qc?: boolean;
}

function request(lane: Lane): RateRequest {
  const [lengthCm, widthCm, heightCm] = lane.dims ?? [10, 10, 10];
  const journeyType = lane.journey ?? 'forward';
  return {
    journeyType,
    origin: pin(lane.from),
    destination: pin(lane.to),
    deadWeightGrams: lane.grams,
    lengthCm,
    widthCm,
    heightCm,
    paymentMethod: journeyType === 'forward' ? (lane.cod === undefined ? 'prepaid' : 'cod') : undefined,
    shipmentValuePaise: lane.cod === undefined ? undefined : Math.round(lane.cod * 100),
    qcApplicable: lane.qc ?? true,
  };
}

function quote(lane: Lane, now = MONDAY_10AM): RateQuote {
  return quoteRates(request(lane), now, ctx);
}

function line(q: RateQuote, carrierId: string) {
  const found = q.couriers.find((c) => c.service.id === carrierId);
  if (found === undefined) throw new Error(`${carrierId} not quoted`);
  return found;
}

describe('hand-checked prices (rupees; the engine works in paise)', () => {
  // [case, lane, carrier, zone, freight, cod, rto, qc, total]
  const cases: [string, Lane, string, string, number, number, number, number, number][] = [
    // Delhi → Mumbai is C. 400 g dead, 10×10×10 → 200 g volumetric; 400 g fits the 500 g first slab.
    // Delhivery Surface C: first ₹46 → freight 46, RTO 46, no COD on prepaid; total 46.
    ['forward prepaid', { from: '110001', to: '400001', grams: 400 }, 'CARDELHSURF01', 'C', 46, 0, 46, 0, 46],
    // Bengaluru → Chennai is C. Exactly 500 g = first slab only: 46. COD on ₹1,000: 1.75 % = ₹17.50,
    // below the ₹35 floor → 35. Total 46 + 35 = 81.
    [
      'COD fixed floor',
      { from: '560001', to: '600001', grams: 500, cod: 1000 },
      'CARDELHSURF01',
      'C',
      46,
      35,
      46,
      0,
      81,
    ],
    // 500.01 g crosses the first slab: 46 + 1 × 43 = 89.
    [
      'slab round-up',
      { from: '560001', to: '600001', grams: 500.01, cod: 1000 },
      'CARDELHSURF01',
      'C',
      89,
      35,
      89,
      0,
      124,
    ],
    // Delhi → Jaipur is D. 1,200 g dead beats 20×15×10/5 = 600 g. Extra slabs ceil(700/500) = 2:
    // 52 + 2 × 48 = 148. COD 1.75 % of ₹4,999.99 = ₹87.4998 → 87.50 (> 35). Total 235.50.
    [
      'COD percentage',
      { from: '110001', to: '302001', grams: 1200, dims: [20, 15, 10], cod: 4999.99 },
      'CARDELHSURF01',
      'D',
      148,
      87.5,
      148,
      0,
      235.5,
    ],
    // Same lane, Xpressbees Standard D: 49 + 2 × 45 = 139; COD 1.5 % of 4,999.99 = 74.99985 → 75.00.
    [
      'COD percentage rounds half up',
      { from: '110001', to: '302001', grams: 1200, dims: [20, 15, 10], cod: 4999.99 },
      'CARXPBSSTD001',
      'D',
      139,
      75,
      139,
      0,
      214,
    ],
    // Delhivery Air D prices freight at air rates (72 + 2 × 68 = 208) but RTO at surface rates
    // (52 + 2 × 48 = 148); COD 2 % of 4,999.99 = 99.9998 → 100.00. Total 308.
    [
      'RTO priced apart from freight',
      { from: '110001', to: '302001', grams: 1200, dims: [20, 15, 10], cod: 4999.99 },
      'CARDELHAIR001',
      'D',
      208,
      100,
      148,
      0,
      308,
    ],
    // Return: customer in Ernakulam (Kerala) → warehouse in Bengaluru is E. 800 g dead, 30×20×10/5 =
    // 1,200 g volumetric wins. Reverse E: 96 + ceil(700/500) = 2 × 86 = 268; QC ₹15; total 283.
    [
      'return with QC',
      { journey: 'return', from: '682001', to: '560001', grams: 800, dims: [30, 20, 10] },
      'CARDELHSURF01',
      'E',
      268,
      0,
      0,
      15,
      283,
    ],
    // Without QC the fee is 0 and services with no QC offer come back: Amazon reverse E 95 + 2 × 88 = 271.
    [
      'return without QC',
      { journey: 'return', from: '682001', to: '560001', grams: 800, dims: [30, 20, 10], qc: false },
      'CARDELHSURF01',
      'E',
      268,
      0,
      0,
      0,
      268,
    ],
    [
      'return without QC, no-QC service',
      { journey: 'return', from: '682001', to: '560001', grams: 800, dims: [30, 20, 10], qc: false },
      'CARAMZNSTD001',
      'E',
      271,
      0,
      0,
      0,
      271,
    ],
    // Pune → Solapur is B. 3,200 g dead, 30×30×20/5 = 3,600 g volumetric; the 5 kg plan bills at least
    // 5,000 g: first 1,000 g ₹46 + ceil(4,000/1,000) = 4 × 22 = 134.
    [
      '5 kg plan minimum billed weight',
      { from: '411001', to: '413001', grams: 3200, dims: [30, 30, 20] },
      'CARDELH5KG001',
      'B',
      134,
      0,
      134,
      0,
      134,
    ],
    // Above the minimum the plan bills actual weight: 5,200 g → 46 + ceil(4,200/1,000) = 5 × 22 = 156.
    [
      '5 kg plan above the minimum',
      { from: '411001', to: '413001', grams: 5200, dims: [30, 30, 20] },
      'CARDELH5KG001',
      'B',
      156,
      0,
      156,
      0,
      156,
    ],
    // The same 3,600 g on Delhivery Surface B: 40 + ceil(3,100/500) = 7 × 37 = 299.
    [
      'per-500 g card on the same parcel',
      { from: '411001', to: '413001', grams: 3200, dims: [30, 30, 20] },
      'CARDELHSURF01',
      'B',
      299,
      0,
      299,
      0,
      299,
    ],
    // 10 kg plan: 9,000 g is billed as 10,000 g, all inside the 10 kg first slab: 196.
    [
      '10 kg plan',
      { from: '411001', to: '413001', grams: 9000, dims: [40, 40, 30] },
      'CARDELH10KG01',
      'B',
      196,
      0,
      196,
      0,
      196,
    ],
    // 10,000.01 g: one extra 1 kg slab: 196 + 19 = 215.
    [
      '10 kg plan, one gram-hundredth over',
      { from: '411001', to: '413001', grams: 10000.01, dims: [40, 40, 30] },
      'CARDELH10KG01',
      'B',
      215,
      0,
      215,
      0,
      215,
    ],
    // Xpressbees 250 g, zone A (New Delhi → East Delhi): first 250 g ₹22, each further 250 g ₹18.
    [
      '250 g slab exact',
      { from: '110001', to: '110092', grams: 250, dims: [1, 1, 1] },
      'CARXPBS250G01',
      'A',
      22,
      0,
      22,
      0,
      22,
    ],
    [
      '250 g slab + 0.01 g',
      { from: '110001', to: '110092', grams: 250.01, dims: [1, 1, 1] },
      'CARXPBS250G01',
      'A',
      40,
      0,
      40,
      0,
      40,
    ],
    [
      '500 g on the 250 g plan',
      { from: '110001', to: '110092', grams: 500, dims: [1, 1, 1] },
      'CARXPBS250G01',
      'A',
      40,
      0,
      40,
      0,
      40,
    ],
    // 500.004 g is echoed (and billed) as 500.00 g; 500.005 g rounds half up to 500.01 g.
    [
      '500.004 g rounds down to the boundary',
      { from: '110001', to: '110092', grams: 500.004, dims: [1, 1, 1] },
      'CARXPBS250G01',
      'A',
      40,
      0,
      40,
      0,
      40,
    ],
    [
      '500.005 g rounds up past it',
      { from: '110001', to: '110092', grams: 500.005, dims: [1, 1, 1] },
      'CARXPBS250G01',
      'A',
      58,
      0,
      58,
      0,
      58,
    ],
    // 1.5 × 1.6 × 1562.5 / 5 is 750.0000000000001 in binary floating point, truly 750: 22 + 2 × 18.
    [
      'float noise at a boundary',
      { from: '110001', to: '110092', grams: 100, dims: [1.5, 1.6, 1562.5] },
      'CARXPBS250G01',
      'A',
      58,
      0,
      58,
      0,
      58,
    ],
  ];

  it.each(cases)('%s', (_, lane, carrierId, zone, freight, cod, rto, qc, total) => {
    const q = quote(lane);
    expect(q.zone).toBe(zone);
    const c = line(q, carrierId);
    expect({ freight: c.freightPaise, cod: c.codPaise, rto: c.rtoPaise, qc: c.qcPaise, total: c.totalPaise }).toEqual({
      freight: Math.round(freight * 100),
      cod: Math.round(cod * 100),
      rto: Math.round(rto * 100),
      qc: Math.round(qc * 100),
      total: Math.round(total * 100),
    });
  });
});

describe('weights', () => {
  it.each([
    // [dead, dims, dead echo, volumetric, applicable]
    [400, [10, 10, 10], 400, 200, 400],
    [800, [30, 20, 10], 800, 1200, 1200],
    [123.456, [10.1, 10.1, 10.1], 123.46, 206.06, 206.06],
    [0.5, [1, 1, 1], 0.5, 0.2, 0.5],
    [1000.005, [1, 1, 1], 1000.01, 0.2, 1000.01],
  ] as [number, [number, number, number], number, number, number][])(
    'dead %s g, %j cm → %s / %s / %s g',
    (grams, dims, dead, volumetric, applicable) => {
      const q = quote({ from: '110001', to: '400001', grams, dims });
      expect([q.deadWeight, q.volumetricWeight, q.applicableWeight]).toEqual([dead, volumetric, applicable]);
    },
  );

  it('bills weight plans at their minimum billed weight', () => {
    const q = quote({ from: '411001', to: '413001', grams: 3200, dims: [30, 30, 20] });
    expect(line(q, 'CARDELH5KG001').billedWeight).toBe(5000);
    expect(line(q, 'CARDELHSURF01').billedWeight).toBe(3600);
  });
});

describe('ordering', () => {
  it('lists every eligible service cheapest first, equal totals by id', () => {
    // Delhi → Mumbai (C), 400 g prepaid. Heavy plans are out (minimum 3 kg and 8 kg). First-slab
    // prices in zone C: Shadowfax 42, Xpressbees 44, Ekart 45, Amazon 46 = Delhivery Surface 46,
    // DTDC 48, India Post 52, Blue Dart Surface 54 = Xpressbees 250 g (30 + 24), Delhivery Air 66,
    // Blue Dart Air 74.
    const q = quote({ from: '110001', to: '400001', grams: 400 });
    expect(q.couriers.map((c) => [c.service.id, c.totalPaise / 100])).toEqual([
      ['CARSHFXSTD001', 42],
      ['CARXPBSSTD001', 44],
      ['CAREKRTSTD001', 45],
      ['CARAMZNSTD001', 46],
      ['CARDELHSURF01', 46],
      ['CARDTDCSTD001', 48],
      ['CARINPOSPD001', 52],
      ['CARBLDTSURF01', 54],
      ['CARXPBS250G01', 54],
      ['CARDELHAIR001', 66],
      ['CARBLDTAIR001', 74],
    ]);
  });

  it('orders return quotes by freight + QC and leaves out services that are not QC-capable', () => {
    // Ernakulam → Bengaluru (E), 1,200 g applicable: reverse first + 2 × additional + QC.
    const q = quote({ journey: 'return', from: '682001', to: '560001', grams: 800, dims: [30, 20, 10] });
    expect(q.couriers.map((c) => [c.service.id, c.totalPaise / 100])).toEqual([
      ['CARSHFXSTD001', 264], // 88 + 164 + 12
      ['CARDELHSURF01', 283], // 96 + 172 + 15
      ['CARDELHAIR001', 353], // 118 + 220 + 15
    ]);
    expect(q.couriers.every((c) => c.codPaise === 0 && c.rtoPaise === 0)).toBe(true);
  });

  it('brings no-QC services back when QC is not asked for', () => {
    const q = quote({ journey: 'return', from: '682001', to: '560001', grams: 800, dims: [30, 20, 10], qc: false });
    expect(q.couriers.map((c) => c.service.id)).toEqual(
      expect.arrayContaining(['CARAMZNSTD001', 'CARDTDCSTD001', 'CARINPOSPD001', 'CARXPBS250G01']),
    );
    expect(q.couriers).toHaveLength(11);
    expect(q.couriers.every((c) => c.qcPaise === 0)).toBe(true);
  });
});

describe('serviceability', () => {
  const ids = (q: RateQuote) => q.couriers.map((c) => c.service.id).sort();
  it.each([
    // Only India Post serves Lakshadweep, and it takes no COD there.
    ['Lakshadweep, prepaid', { from: '110001', to: '682555', grams: 500 }, ['CARINPOSPD001']],
    ['Lakshadweep, COD', { from: '110001', to: '682555', grams: 500, cod: 500 }, []],
    [
      'Ladakh, prepaid: services that skip Ladakh are out',
      { from: '110001', to: '194101', grams: 500 },
      ['CARBLDTAIR001', 'CARBLDTSURF01', 'CARDELHSURF01', 'CARDTDCSTD001', 'CARINPOSPD001'],
    ],
    [
      'Ladakh, COD: DTDC takes no COD there',
      { from: '110001', to: '194101', grams: 500, cod: 500 },
      ['CARBLDTAIR001', 'CARBLDTSURF01', 'CARDELHSURF01', 'CARINPOSPD001'],
    ],
    [
      'Srinagar, COD: five services take no COD in Jammu and Kashmir',
      { from: '110001', to: '190001', grams: 500, cod: 500 },
      ['CARBLDTAIR001', 'CARBLDTSURF01', 'CARDELHAIR001', 'CARDELHSURF01', 'CARDTDCSTD001', 'CARINPOSPD001'],
    ],
    [
      'COD refusal applies at the origin too',
      { from: '190001', to: '110001', grams: 500, cod: 500 },
      ['CARBLDTAIR001', 'CARBLDTSURF01', 'CARDELHAIR001', 'CARDELHSURF01', 'CARDTDCSTD001', 'CARINPOSPD001'],
    ],
    [
      '25 kg: only services with a high enough maximum',
      { from: '110001', to: '400001', grams: 25000, dims: [50, 40, 40] },
      ['CARDELH10KG01', 'CARDELH5KG001', 'CARDTDCSTD001', 'CARINPOSPD001'],
    ],
    ['70 kg: nobody', { from: '110001', to: '400001', grams: 70000 }, []],
    ['Army Postal Service pincode', { from: '900099', to: '700001', grams: 500 }, []],
    ['Army Postal Service destination', { from: '110001', to: '900056', grams: 500 }, []],
  ] as [string, Lane, string[]][])('%s', (_, lane, expected) => {
    expect(ids(quote(lane))).toEqual([...expected].sort());
  });

  it('still reports zone and weights for an unserviceable lane', () => {
    const q = quote({ from: '110001', to: '682555', grams: 500, cod: 500 });
    expect(q).toMatchObject({ zone: 'E', applicableWeight: 500, couriers: [] });
  });

  it('uses the applicable weight for the minimum-weight rule', () => {
    // 1 kg dead would leave out the 5 kg plan (minimum 3 kg); 40×30×20/5 = 4,800 g volumetric lets it in.
    expect(ids(quote({ from: '411001', to: '413001', grams: 1000 }))).not.toContain('CARDELH5KG001');
    expect(ids(quote({ from: '411001', to: '413001', grams: 1000, dims: [40, 30, 20] }))).toContain('CARDELH5KG001');
  });
});

describe('expected delivery', () => {
  it.each([
    // Delhivery Surface (cut-off 14:00, C = 4 days), Monday 10:00: Tue, Wed, Thu, Fri.
    ['2026-06-15T04:30:00Z', 'CARDELHSURF01', '2026-06-15', '2026-06-19'],
    // Blue Dart Air (11:30, C = 2 days).
    ['2026-06-15T04:30:00Z', 'CARBLDTAIR001', '2026-06-15', '2026-06-17'],
    // 12:15: past Delhivery Air's 12:00 cut-off, not Delhivery Surface's.
    ['2026-06-15T06:45:00Z', 'CARDELHAIR001', '2026-06-16', '2026-06-18'],
    ['2026-06-15T06:45:00Z', 'CARDELHSURF01', '2026-06-15', '2026-06-19'],
    // Friday 16 Oct 2026 after cut-off → Saturday pickup; 4 days: Mon 19, (Tue 20 Dussehra), Wed, Thu, Fri.
    ['2026-10-16T10:30:00Z', 'CARDELHSURF01', '2026-10-17', '2026-10-23'],
    // India date, not UTC: 19:00 UTC Saturday is Sunday 00:30 in India → Monday pickup.
    ['2026-06-13T19:00:00Z', 'CARDELHSURF01', '2026-06-15', '2026-06-19'],
  ])('at %s %s picks up %s, delivers %s', (instant, carrierId, pickup, delivery) => {
    const c = line(quote({ from: '110001', to: '400001', grams: 400 }, new Date(instant)), carrierId);
    expect([formatDay(c.pickupDay), formatDay(c.deliveryDay)]).toEqual([pickup, delivery]);
  });
});

describe('invalid input is a programming error', () => {
  it.each([
    ['zero weight', { grams: 0 }],
    ['negative dimension', { dims: [10, -1, 10] }],
    ['NaN', { grams: Number.NaN }],
    ['Infinity', { dims: [10, Number.POSITIVE_INFINITY, 10] }],
  ] as [string, Partial<Lane>][])('%s', (_, patch) => {
    expect(() => quote({ from: '110001', to: '400001', grams: 500, ...patch })).toThrow(RangeError);
  });

  it('forward without payment method, COD without value', () => {
    const base = request({ from: '110001', to: '400001', grams: 500 });
    expect(() => quoteRates({ ...base, paymentMethod: undefined }, MONDAY_10AM, ctx)).toThrow(RangeError);
    expect(() => quoteRates({ ...base, paymentMethod: 'cod' }, MONDAY_10AM, ctx)).toThrow(RangeError);
    expect(() => quoteRates({ ...base, paymentMethod: 'cod', shipmentValuePaise: 0 }, MONDAY_10AM, ctx)).toThrow(
      RangeError,
    );
    expect(() => quoteRates({ ...base, paymentMethod: 'cod', shipmentValuePaise: 10.5 }, MONDAY_10AM, ctx)).toThrow(
      RangeError,
    );
  });
});

describe('serviceableCarriers', () => {
  const check = (from: string, to: string, paymentMode: 'cod' | 'prepaid', shipmentType: 'forward' | 'return') =>
    serviceableCarriers({ from: pin(from), to: pin(to), paymentMode, shipmentType }, ctx);

  it('lists every service on an ordinary lane, with the zone', () => {
    const result = check('110001', '400001', 'prepaid', 'forward');
    expect(result.zone).toBe('C');
    expect(result.carriers).toHaveLength(ctx.catalogue.services.length);
  });

  it('drops services that take no COD on the lane, for forward shipments only', () => {
    const cod = check('110001', '190001', 'cod', 'forward');
    expect(cod.zone).toBe('E');
    expect(cod.carriers.map((s) => s.id)).not.toContain('CARXPBSSTD001');
    expect(cod.carriers.map((s) => s.id)).toContain('CARDELHSURF01');
    expect(check('190001', '110001', 'cod', 'return').carriers.map((s) => s.id)).toContain('CARXPBSSTD001');
  });

  it('knows nothing serves Army Postal Service pincodes', () => {
    expect(check('900099', '700001', 'prepaid', 'forward')).toEqual({ zone: 'A', carriers: [] });
  });
});
