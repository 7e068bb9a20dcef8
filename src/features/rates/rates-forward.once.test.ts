import { describe, expect, it } from 'vitest';
import { d, forward, fwd, useRatesApp } from '../../../test/rates-quotes.js';

// POST /rates for forward journeys: every service's entry worked out by hand from data/couriers.json.

const { quote } = useRatesApp();

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

  it.each([
    ['COD', 'cod'],
    ['Cod', 'cod'],
    ['PREPAID', 'prepaid'],
    ['Prepaid', 'prepaid'],
  ])('payment_method %j is quoted as %j, in any case as orders take it', async (sent, as) => {
    const body = await quote(forward({ payment_method: sent, shipment_value: 999 }));
    expect(body).toEqual(await quote(forward({ payment_method: as, shipment_value: 999 })));
    expect(body.result.shipment_details.payment_method).toBe(as);
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
    const body = await quote(
      forward({ destination_pincode: '302001', dead_weight: 500, length: 40, width: 30, height: 20 }),
    );
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
      forward({
        origin_pincode: '380001',
        destination_pincode: '395001',
        dead_weight: 12000,
        length: 50,
        width: 40,
        height: 30,
      }),
    );
    expect(body.result.shipment_details).toMatchObject({
      volumetric_weight: 12000,
      applicable_weight: 12000,
      zone: 'B',
    });
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
      forward({
        origin_pincode: '400001',
        destination_pincode: '400050',
        dead_weight: 300,
        payment_method: 'cod',
        shipment_value: 500,
      }),
    );
    const byId = Object.fromEntries(
      body.result.serviceable_couriers.map((c: { carrier_id: string }) => [c.carrier_id, c]),
    );
    // Shadowfax A first slab 30 + COD 29 = 59; Blue Dart Air A 55 + 45 = 100.
    expect(byId.CARSHFXSTD001).toEqual(fwd('CARSHFXSTD001', [30, 29, 30, 59], [d('11-20'), d('11-21')]));
    expect(byId.CARBLDTAIR001).toEqual(fwd('CARBLDTAIR001', [55, 45, 55, 100], [d('11-20'), d('11-21')]));
  });

  it('a COD percentage is rounded half up to the paisa', async () => {
    // Delhivery Surface, 1.75 % of ₹4,006 = ₹70.105 = 7,010.5 paise → 7,011 (half up; not 7,010 as
    // truncation or banker's rounding would give) → ₹70.11. Zone A, 300 g: freight 36 → total 106.11.
    const body = await quote(
      forward({
        origin_pincode: '400001',
        destination_pincode: '400050',
        dead_weight: 300,
        payment_method: 'cod',
        shipment_value: 4006,
      }),
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
      expect(Object.keys(entry.charges)).toEqual([
        'forward_freight_charges',
        'cod_charges',
        'rto_charges',
        'total_forward_charges',
      ]);
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
