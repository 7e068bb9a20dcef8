import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { SERVICEABILITY } from '../../../test/kit/http.js';
import { d, forward, fwd, ids, returning, useRatesApp } from '../../../test/rates-quotes.js';

// What every POST /rates quote follows: the order of services, zones and weights, expected dates,
// unserviceable lanes, and services that do not offer COD.

let ctx: TestContext;
const { post, quote } = useRatesApp((app) => {
  ctx = app;
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
      forward({
        origin_pincode: '400001',
        destination_pincode: '400050',
        dead_weight: dead,
        length: l,
        width: w,
        height: h,
      }),
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
      body.result.serviceable_couriers.map(
        (c: { carrier_id: string; expected_delivery: { pickup: string; delivery: string } }) => [
          c.carrier_id,
          [c.expected_delivery.pickup, c.expected_delivery.delivery],
        ],
      ),
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

  it('the same quote asked again: the same within its minute, the cut-off minute after it moves the dates', async () => {
    // Quotes are kept for the minute they were made in; Blue Dart Surface's cut-off is 14:30.
    const blueDartSurface = async () => ((await dates()) as Record<string, string[]>).CARBLDTSURF01;
    ctx.clock.set('2026-11-20T08:59:00.000Z'); // 14:29:00 IST
    expect(await blueDartSurface()).toEqual([d('11-20'), d('11-23')]);
    ctx.clock.set('2026-11-20T08:59:59.999Z'); // 14:29:59.999 IST, the same minute
    expect(await blueDartSurface()).toEqual([d('11-20'), d('11-23')]);
    ctx.clock.set('2026-11-20T09:00:00.000Z'); // 14:30:00 IST: at the cut-off
    expect(await blueDartSurface()).toEqual([d('11-21'), d('11-25')]);
    ctx.clock.set('2026-11-20T08:59:30.000Z'); // back to 14:29 (a clock set back): today again
    expect(await blueDartSurface()).toEqual([d('11-20'), d('11-23')]);
    // A different body in the same minute is priced for itself, not answered from another's quote.
    const heavier = await quote(
      forward({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300.01 }),
    );
    expect(heavier.result.shipment_details.dead_weight).toBe(300.01);
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
    expect(cod.result.serviceable_couriers).toEqual([
      fwd('CARINPOSPD001', [72, 40, 72, 112], [d('11-20'), d('11-30')]),
    ]);
  });

  it('Delhi → Srinagar (J&K): Xpressbees, Ekart, Shadowfax and Amazon drop out for COD only', async () => {
    const prepaid = ids(await quote(forward({ destination_pincode: '190001' })));
    const cod = ids(
      await quote(forward({ destination_pincode: '190001', payment_method: 'cod', shipment_value: 1000 })),
    );
    const noCodInJk = ['CARXPBSSTD001', 'CARXPBS250G01', 'CAREKRTSTD001', 'CARSHFXSTD001', 'CARAMZNSTD001'];
    expect(prepaid).toHaveLength(11);
    expect(prepaid).toEqual(expect.arrayContaining(noCodInJk));
    expect(cod).toEqual(prepaid.filter((id) => !noCodInJk.includes(id)));
    expect(cod).toHaveLength(6);
  });
});
