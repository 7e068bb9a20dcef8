import { EXAMPLE } from '../../http/examples.js';
import { firstPageOfTwo } from '../../http/examples.js';

// A real answer to the listing example (ids replaced by the example ids).
export const LISTING_ANSWER = {
  data: [
    {
      id: EXAMPLE.shipmentId,
      type: 'shipment',
      attributes: {
        tracking_number: 'XBQ0000000001',
        track_url: 'https://ship.acme.example/t/q2Xn8V0bTgK4mYc1Pz7wAa',
        test_mode: true,
        label_url: `https://ship.acme.example/public/v1/labels/${EXAMPLE.shipmentId}?expires=${EXAMPLE.labelExpires}&signature=${EXAMPLE.labelSignature}`,
        status: 'pending',
        sub_status: null,
        granular_status: 'ready_for_pickup',
        created_at: '2026-11-20T06:30:00.000Z',
        expected_delivery_date: '2026-11-26',
        warehouse_id: EXAMPLE.warehouseId,
        total_price: 1299,
        cod_amount: 1299,
        is_cod: true,
        zone: 'zone_c',
        applied_weight: {
          value: 600,
          metric_unit: 'g',
        },
        attempt_count: 0,
        ndr_reason: null,
        rto_reason: null,
        address_validity: 'valid',
        address_reasons: [],
        rto_risk: 'low',
        rto_risk_score: 20,
        rto_risk_reasons: [
          {
            reason: 'cod',
            points: 20,
          },
        ],
        ndr_all_outcomes: [],
        rto_awb: null,
        manifested: true,
        pickup_id: EXAMPLE.pickupId,
        fare_breakup: {
          forward_charges: 61.36,
          cod_charges: 35.4,
          rto_charges: 0,
          total_charges: 96.76,
        },
        return: null,
        is_exchange: 0,
        exchange: null,
        carrier: {
          id: 'CARXPBS250G01',
          name: 'Xpressbees 250 g',
        },
        order: {
          id: 'c2d4e6f8-0a1b-4c3d-8e5f-7a9b1c3d5e7f',
          order_date: '2026-11-20T09:00:00.000Z',
          channel: 'manual_order',
          display_id: 'ORD-20045',
          external_id: 'ORD-20045',
          store_name: 'acme-online',
          channel_id: null,
          channel_order_id: null,
          channel_order_name: null,
          vendor_details: null,
        },
        items: [
          {
            id: '195531fb-13ce-426d-b920-3e0e10d05ec3',
            quantity: 1,
            price: 1299,
            name: 'Cotton Kurta',
            sku: 'KURTA-M-BLUE',
          },
        ],
        shipping_address: {
          name: 'Priya Sharma',
          phone: '9123456780',
          alternate_phone: null,
          address: '42, 5th Cross, Koramangala 4th Block',
          address_2: null,
          city: 'Bengaluru',
          state: 'Karnataka',
          zip: '560034',
        },
        shipment_milestones: [
          {
            milestone: 'order_created',
            milestone_at: '2026-11-20T06:30:00.000Z',
          },
          {
            milestone: 'courier_assigned',
            milestone_at: '2026-11-20T06:30:00.000Z',
          },
          {
            milestone: 'expected_delivery_date',
            milestone_at: '2026-11-25T18:30:00.000Z',
          },
          {
            milestone: 'original_expected_delivery_date',
            milestone_at: '2026-11-25T18:30:00.000Z',
          },
        ],
        ndr_actions: [],
        order_confirmation: null,
        tracking_details: [],
        box_count: 1,
        boxes: null,
      },
    },
  ],
  meta: firstPageOfTwo(EXAMPLE.shipmentId),
};
