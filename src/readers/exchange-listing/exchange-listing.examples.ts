import { EXAMPLE } from '../../http/examples.js';

// An answer of the listing as the exchange of a kurta for a larger size would show it: booked on
// Shadowfax both ways, prepaid, quality-checked at pickup, the replacement held until the old item
// is picked up; with a QC charge of the courier's and an exchange fee of ₹29.99.
const ORDER_ID = 'c4e6a8b0-d2f4-4a6c-8e0a-2c4e6a8b0d2f';
const SHIPMENT_ID = 'd5f7b9c1-e3a5-4b7d-9f1b-3d5f7b9c1e3a';
const RETURN_ID = 'e6a8c0d2-f4b6-4c8e-a02c-4e6a8c0d2f4b';
const RETURN_SHIPMENT_ID = 'f7b9d1e3-a5c7-4d9f-b13d-5f7b9d1e3a5c';
const SHADOWFAX = { id: 'CARSHFXSTD001', name: 'Shadowfax Standard' };
const CUSTOMER = { name: 'Asha Menon', phone: '9123456780', city: 'Mumbai', state: 'Maharashtra', zip: '400001' };

export const EXCHANGE_LISTING_ANSWER = {
  data: [
    {
      id: '0a2c4e6f-8b1d-4f3a-9c5e-7a9b1d3f5e7c',
      type: 'exchange_order',
      attributes: {
        display_id: 'EXC-10045',
        unique_id: 'EX7KQ2M9XWTA',
        status: 'awaiting_return',
        channel: 'website',
        return_reason: 'Size too small',
        created_at: '2026-11-20T06:30:00.000Z',
        updated_at: '2026-11-20T06:30:00.000Z',
        qc_failed: false,
        qc_failed_at: null,
        replacement_held: true,
        release_on: 'return_picked_up',
        fare_breakup: {
          total: '173.70',
          forward: { forward_charges: '44.40', forward_cod_charges: '0.00', forward_rto_charges: '40.00' },
          reverse: { return_pickup_charges: '91.30', qc_charges: '8.01', exchange_charges: '29.99' },
        },
        order: {
          data: {
            id: ORDER_ID,
            type: 'order',
            attributes: {
              unique_id: ORDER_ID,
              display_id: 'EXC-10045',
              order_date: '2026-11-20T09:00:00.000Z',
              channel: 'website',
              store_name: EXAMPLE.storeName,
              payment_method: 'PREPAID',
              is_cod: false,
              cod_amount: 0,
              total_price: 499,
              customer: CUSTOMER,
              items: [
                {
                  id: '1b3d5f7a-9c2e-4a4b-8d6f-8b0c2e4a6c8d',
                  quantity: 1,
                  price: 499,
                  name: 'Cotton Kurta',
                  sku: 'KURTA-L-BLUE',
                },
              ],
            },
          },
        },
        forward_shipment: {
          data: {
            id: SHIPMENT_ID,
            type: 'shipment',
            attributes: {
              unique_id: SHIPMENT_ID,
              tracking_number: 'SFX0000000004',
              status: 'pending',
              sub_status: null,
              carrier: SHADOWFAX,
              warehouse_id: EXAMPLE.warehouseId,
              zone: 'zone_c',
              applied_weight: { value: 500, metric_unit: 'g' },
              picked_up_at: null,
              delivered_at: null,
            },
          },
        },
        return: {
          data: {
            id: RETURN_ID,
            type: 'return',
            attributes: {
              unique_id: RETURN_ID,
              display_id: 'EXC-10045-R',
              status: 'return_pickup_scheduled',
              qc_enabled: true,
              qc_status: null,
              qc_reason: null,
              pickup_address: CUSTOMER,
              items: [
                {
                  id: '2c4e6a8b-0d3f-4b5c-9e7a-9c1d3f5b7d9e',
                  quantity: 1,
                  price: 499,
                  name: 'Cotton Kurta',
                  sku: 'KURTA-M-BLUE',
                },
              ],
            },
          },
        },
        return_shipment: {
          data: {
            id: RETURN_SHIPMENT_ID,
            type: 'shipment',
            attributes: {
              unique_id: RETURN_SHIPMENT_ID,
              tracking_number: 'SFX0000000005',
              status: 'return_pickup_scheduled',
              sub_status: null,
              carrier: SHADOWFAX,
              warehouse_id: EXAMPLE.warehouseId,
              zone: 'zone_c',
              applied_weight: { value: 500, metric_unit: 'g' },
              picked_up_at: null,
              delivered_at: null,
            },
          },
        },
      },
    },
  ],
  meta: { total: 1, page: 1, current_page: 1, per_page: 20, total_pages: 1 },
};
