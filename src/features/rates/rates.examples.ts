// Real answers to the request examples, trimmed to a few couriers.
export const RATES_ANSWERS = {
  rates: {
    status: 'SUCCESS',
    result: {
      serviceable_couriers: [
        {
          carrier_id: 'CARXPBS250G01',
          carrier_name: 'Xpressbees 250 g',
          carrier_code: 'xpressbees-250g',
          service_level: 'surface',
          status: 'active',
          is_fast: false,
          is_prime: false,
          platform_fee: 0,
          expected_delivery: {
            pickup: '2026-11-20',
            delivery: '2026-11-26',
          },
          charges: {
            forward_freight_charges: 78,
            cod_charges: 30,
            rto_charges: 78,
            total_forward_charges: 108,
          },
        },
        {
          carrier_id: 'CARSHFXSTD001',
          carrier_name: 'Shadowfax Standard',
          carrier_code: 'shadowfax-standard',
          service_level: 'surface',
          status: 'active',
          is_fast: false,
          is_prime: false,
          platform_fee: 0,
          expected_delivery: {
            pickup: '2026-11-20',
            delivery: '2026-11-25',
          },
          charges: {
            forward_freight_charges: 82,
            cod_charges: 29,
            rto_charges: 82,
            total_forward_charges: 111,
          },
        },
      ],
      shipment_details: {
        journey_type: 'forward',
        origin_pincode: '110020',
        destination_pincode: '560034',
        payment_method: 'cod',
        dead_weight: 500,
        volumetric_weight: 600,
        applicable_weight: 600,
        zone: 'C',
      },
    },
  },
  serviceability: {
    status: 'SUCCESS',
    result: {
      serviceability_results: [
        {
          carrier_id: 'CARDELHSURF01',
          carrier_name: 'Delhivery Surface',
        },
        {
          carrier_id: 'CARDELHAIR001',
          carrier_name: 'Delhivery Air',
        },
        {
          carrier_id: 'CARDELH5KG001',
          carrier_name: 'Delhivery Surface 5 kg',
        },
      ],
      zone: 'zone_c',
    },
  },
  carriers: {
    data: [
      {
        carrier_id: 'CARDELHSURF01',
        carrier_name: 'Delhivery Surface',
        carrier_code: 'delhivery-surface',
        service_level: 'surface',
        is_fast: false,
        is_prime: false,
      },
      {
        carrier_id: 'CARDELHAIR001',
        carrier_name: 'Delhivery Air',
        carrier_code: 'delhivery-air',
        service_level: 'air',
        is_fast: true,
        is_prime: false,
      },
      {
        carrier_id: 'CARDELH5KG001',
        carrier_name: 'Delhivery Surface 5 kg',
        carrier_code: 'delhivery-surface-5kg',
        service_level: 'surface',
        is_fast: false,
        is_prime: false,
      },
    ],
  },
};
