import { describe, expect, it } from 'vitest';
import { d, ret, returning, useRatesApp } from '../../../test/rates-quotes.js';

// POST /rates for return journeys: every service's entry worked out by hand from data/couriers.json.

const { quote } = useRatesApp();

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
      await quote(
        returning({ origin_pincode: '400001', destination_pincode: '400050', dead_weight: 300, qc_applicable: false }),
      ),
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
