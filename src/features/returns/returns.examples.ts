import { ASSIGNED_DATE_TIME, EXAMPLE, EXAMPLE_ORCHESTRATED_RETURN_ID, NO_ROUTING } from '../../http/examples.js';

// A QC return of the kurta from a Mumbai customer to the Okhla warehouse.
const REVERSE_ORDER = {
  order_id: 'RET-10045',
  order_date: '2026-11-20 14:30',
  pickup_customer_name: 'Asha',
  pickup_last_name: 'Menon',
  pickup_address: '12 Marine Drive',
  pickup_city: 'Mumbai',
  pickup_state: 'Maharashtra',
  pickup_country: 'India',
  pickup_pincode: '400001',
  pickup_phone: '9123456780',
  pickup_isd_code: '91',
  warehouse_id: EXAMPLE.warehouseId,
  order_items: [
    {
      name: 'Cotton Kurta',
      sku: 'KURTA-M-BLUE',
      units: 1,
      selling_price: 499,
      discount: 0,
      qc_enable: true,
      qc_product_name: 'Cotton Kurta',
      qc_product_image: 'https://cdn.acme.example/kurta-blue.jpg',
      qc_brand: 'Acme',
      qc_size: 'M',
      qc_color: 'Blue',
    },
  ],
  payment_method: 'PREPAID',
  sub_total: 499,
  length: 10,
  breadth: 10,
  height: 10,
  weight: 0.5,
};

export const RETURN_REQUESTS = {
  reverseOrder: REVERSE_ORDER,
  orchestration: { ...REVERSE_ORDER, order_id: 'RET-10046' },
};

// Real answers to the request examples (ids replaced by the example ids), each built on the one
// before: created, then a courier booked onto it.
const CREATED = {
  order_created: 1,
  awb_generated: 0,
  pickup_generated: 0,
  pickup_scheduled_date: null,
  order_id: 'RET-10045',
  return_id: EXAMPLE.returnId,
  shipment_id: 'f0e2d4c6-b8a9-4c7e-9d5f-3b1a2c4e6f80',
  status: 'return_requested',
  zone: 'zone_c',
  awb_code: null,
  courier_company_id: null,
  courier_name: null,
  assigned_date_time: ASSIGNED_DATE_TIME,
  applied_weight: 0.5,
  cod: 0,
  is_return: 1,
  ...NO_ROUTING,
  expected_delivery_date: null,
  charges: null,
  qc_enabled: 0,
  qc_message: null,
  forward_shipment: null,
  label_url: null,
  track_url: null,
  test_mode: false,
};

/** What booking a QC-capable courier adds to a return's answer. */
const booked = (awb: string, shipmentId: string, returnId: string) => ({
  label_url: `https://ship.acme.example/public/v1/labels/${shipmentId}?expires=${EXAMPLE.labelExpires}&signature=${EXAMPLE.labelSignature}`,
  track_url: `https://ship.acme.example/t/r${returnId.replaceAll('-', '')}Kq3vX9bTgK4mYc1Pz7wAa0`,
  // A fresh install books on the sandbox courier: a test booking until a real courier is connected.
  test_mode: true,
  awb_generated: 1,
  pickup_generated: 1,
  pickup_scheduled_date: '2026-11-20',
  status: 'return_pickup_scheduled',
  awb_code: awb,
  courier_company_id: EXAMPLE.carrierId,
  courier_name: 'Shadowfax Standard',
  expected_delivery_date: '2026-11-25',
  charges: {
    reverse_charges: '60.00',
    qc: '12.00',
    qc_leeway: '0.00',
    dead_weight_billing: true,
    platform_fee: 0,
    total_return_charges: 72,
  },
  qc_enabled: 1,
});

export const RETURN_ANSWERS = {
  created: { status: 1, payload: CREATED },
  booked: { status: 1, payload: { ...CREATED, ...booked('SFX0000000002', CREATED.shipment_id, CREATED.return_id) } },
  orchestrated: {
    status: 1,
    payload: {
      ...CREATED,
      order_id: 'RET-10046',
      return_id: EXAMPLE_ORCHESTRATED_RETURN_ID,
      shipment_id: 'a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f',
      ...booked('SFX0000000003', 'a9c1e3f5-0b2d-4e6f-8a0c-2e4f6a8c0e2f', EXAMPLE_ORCHESTRATED_RETURN_ID),
    },
  },
};
