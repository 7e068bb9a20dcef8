import { EXAMPLE, EXAMPLE_ORCHESTRATED_RETURN_ID, firstPageOfTwo } from '../../http/examples.js';

// A real answer to the listing example (ids replaced by the example ids): it lists the return the
// orchestration example makes.
export const RETURNS_LISTING_ANSWER = {
  data: [
    {
      id: EXAMPLE_ORCHESTRATED_RETURN_ID,
      type: 'return',
      attributes: {
        tracking_number: 'SFX0000000003',
        status: 'return_pickup_scheduled',
        sub_status: null,
        granular_status: 'return_pickup_scheduled',
        qc_enabled: true,
        qc_status: null,
        qc_reason: null,
        refund_status: null,
        created_at: '2026-11-20T06:30:00.000Z',
        updated_at: '2026-11-20T06:30:00.000Z',
        picked_up_at: null,
        delivered_at: null,
        cancelled_at: null,
        shipment_id: 'a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f',
        warehouse_id: EXAMPLE.warehouseId,
        total_price: 499,
        is_cod: false,
        zone: 'zone_c',
        applied_weight: {
          value: 500,
          metric_unit: 'g',
        },
        carrier: {
          id: 'CARSHFXSTD001',
          name: 'Shadowfax Standard',
        },
        order: {
          order_date: '2026-11-20T09:00:00.000Z',
          display_id: 'RET-10046',
          channel_id: null,
        },
        forward_shipment_id: null,
        is_exchange: 0,
        exchange: null,
        items: [
          {
            id: 'e8c09310-e1a4-4c9a-91b6-523224b27bf1',
            quantity: 1,
            price: 499,
            name: 'Cotton Kurta',
            sku: 'KURTA-M-BLUE',
            qc_enable: true,
          },
        ],
        pickup_address: {
          name: 'Asha Menon',
          phone: '9123456780',
          city: 'Mumbai',
          state: 'Maharashtra',
          zip: '400001',
        },
        shipping_address: {
          name: 'Ravi Kumar',
          phone: '9876543210',
          city: 'New Delhi',
          state: 'Delhi',
          zip: '110020',
        },
        tracking_details: [],
      },
    },
  ],
  meta: firstPageOfTwo(EXAMPLE_ORCHESTRATED_RETURN_ID),
};
