import { EXAMPLE } from '../../http/examples.js';
import { ASSIGNED_DATE_TIME, NO_ROUTING } from '../../http/examples.js';
import { EXAMPLE_ASSESSMENT } from '../../shipment-records/rto-fields.js';

// SPEC 4.5's orchestration body, filled in: a COD kurta from the Okhla warehouse to Koramangala.
const ORDER = {
  store_name: EXAMPLE.storeName,
  order_id: EXAMPLE.orderId,
  order_date: '2026-11-20 14:30',
  billing_customer_name: 'Priya',
  billing_last_name: 'Sharma',
  billing_address: '42, 5th Cross, Koramangala 4th Block',
  billing_city: 'Bengaluru',
  billing_pincode: '560034',
  billing_state: 'Karnataka',
  billing_country: 'India',
  billing_email: 'priya.sharma@example.in',
  billing_phone: '9123456780',
  shipping_is_billing: true,
  print_label: true,
  order_items: [
    { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 1299, discount: 0, tax: 5, hsn: '6211' },
  ],
  payment_method: 'COD',
  sub_total: 1299,
  cod_collectible: 1299,
  length: 20,
  breadth: 15,
  height: 10,
  weight: 0.5,
  warehouse_id: EXAMPLE.warehouseId,
};

export const ORDER_REQUESTS = {
  forwardOrder: ORDER,
  orchestration: { ...ORDER, order_id: 'ORD-20046', carrier_id: EXAMPLE.carrierId },
  // Dakiya's multi-piece order: two boxes, each with its weight, size and what it holds; weight is their total.
  multiPiece: {
    ...ORDER,
    order_id: 'ORD-20048',
    order_items: [
      ORDER.order_items[0]!,
      { name: 'Silk Dupatta', sku: 'DUPATTA-RED', units: 2, selling_price: 499, discount: 0, tax: 5, hsn: '6214' },
    ],
    sub_total: 2297,
    cod_collectible: 2297,
    length: 30,
    breadth: 25,
    height: 20,
    weight: 1.3,
    packages: [
      { weight: 0.5, length: 20, breadth: 15, height: 10, items: [{ sku: 'KURTA-M-BLUE', units: 1 }] },
      { weight: 0.8, length: 30, breadth: 25, height: 10, items: [{ sku: 'DUPATTA-RED', units: 2 }] },
    ],
  },
  /** No carrier_id: the allocation rules choose. */
  preview: { ...ORDER, order_id: 'ORD-20047' },
  assign: { shipment_id: EXAMPLE.shipmentId, carrier_id: '' },
  // The whole body again, keyed by order_id: the customer moved to the flat upstairs.
  update: { ...ORDER, billing_address: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block', billing_phone: '9123456781' },
  // The same change sent alone: only the fields that change, keyed by order_id.
  partialUpdate: {
    order_id: EXAMPLE.orderId,
    billing_address: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block',
    billing_phone: '9123456781',
  },
  cancel: { awbs: [EXAMPLE.awb] },
  // Velocity's other form: one shipment, which may have no AWB yet (then shipment_awb is "" or null).
  cancelShipment: { shipment_id: EXAMPLE.bookedShipmentId, shipment_awb: EXAMPLE.awb },
};

// Real answers to the request examples (ids replaced by the example ids), each built on the one
// before: created, then a courier booked onto it.
const CREATED = {
  order_id: 'c2d4e6f8-0a1b-4c3d-8e5f-7a9b1c3d5e7f',
  channel_order_id: EXAMPLE.orderId,
  shipment_id: EXAMPLE.shipmentId,
  status: 'pending',
  store_name: EXAMPLE.storeName,
  zone: 'zone_c',
  applied_weight: 0.6,
  cod: 1,
  awb_code: null,
  courier_company_id: null,
  courier_name: null,
  label_url: null,
  track_url: null,
  test_mode: false,
  charges: null,
  pickup_location_added: 1,
  order_created: 1,
  awb_generated: 0,
  label_generated: 0,
  pickup_generated: 0,
  manifest_generated: 0,
  pickup_scheduled_date: null,
  pickup_booked_date: null,
  expected_delivery_date: null,
  assigned_date_time: ASSIGNED_DATE_TIME,
  manifest_url: null,
  allocation: null,
  ...NO_ROUTING,
  ...EXAMPLE_ASSESSMENT,
};

interface Booking {
  shipmentId: string;
  awb: string;
  carrierId: string;
  courierName: string;
  labelSignature: string;
  /** Rupees: the freight, charged again on an RTO, and the COD charge. */
  freight: number;
  cod: number;
  delivery: string;
}

/** What booking a courier adds to an order's answer. */
const booked = (b: Booking) => ({
  awb_code: b.awb,
  courier_company_id: b.carrierId,
  courier_name: b.courierName,
  label_url: `https://ship.acme.example/public/v1/labels/${b.shipmentId}?expires=${EXAMPLE.labelExpires}&signature=${b.labelSignature}`,
  track_url: `https://ship.acme.example/t/${EXAMPLE.trackToken}`,
  // A fresh install books on the sandbox courier: a test booking until a real courier is connected.
  test_mode: true,
  charges: {
    forward_freight_charges: b.freight,
    cod_charges: b.cod,
    rto_freight_charges: b.freight,
    total_forward_charges: b.freight + b.cod,
    frwd_charges: { shipping_charges: b.freight.toFixed(2), cod_charges: b.cod.toFixed(2), dead_weight_billing: false },
    rto_charges: { rto_charges: b.freight.toFixed(2) },
  },
  awb_generated: 1,
  label_generated: 1,
  pickup_generated: 1,
  pickup_scheduled_date: '2026-11-20',
  pickup_booked_date: '2026-11-20 12:00:00',
  expected_delivery_date: b.delivery,
});

const ASSIGNED = {
  ...CREATED,
  ...booked({
    shipmentId: EXAMPLE.shipmentId,
    awb: 'XBQ0000000001',
    carrierId: 'CARXPBS250G01',
    courierName: 'Xpressbees 250 g',
    labelSignature: 'Lk3Jh5Gf7Ds9Ap1Zx2Cv4Bn6Mq8Wr0Ety-Ui_OpAsDf',
    freight: 78,
    cod: 30,
    delivery: '2026-11-26',
  }),
  allocation: {
    rule_id: null,
    rule: null,
    strategy: 'cheapest',
    reason: 'the account has no active rules: Xpressbees 250 g, the cheapest of 9 serviceable at ₹108.00',
  },
};

const ORCHESTRATED = {
  ...CREATED,
  order_id: 'e1f3a5b7-c9d0-4e2f-a4b6-c8d0e2f4a6b8',
  channel_order_id: ORDER_REQUESTS.orchestration.order_id,
  shipment_id: EXAMPLE.bookedShipmentId,
  ...booked({
    shipmentId: EXAMPLE.bookedShipmentId,
    awb: EXAMPLE.awb,
    carrierId: EXAMPLE.carrierId,
    courierName: 'Shadowfax Standard',
    labelSignature: EXAMPLE.labelSignature,
    freight: 82,
    cod: 29,
    delivery: '2026-11-25',
  }),
};

/** POST /allocation/preview of the orchestration example, in an account with one rule. */
export const PREVIEW_ANSWER = {
  data: {
    carrier_id: EXAMPLE.carrierId,
    courier_name: 'Shadowfax Standard',
    zone: 'zone_b',
    allocation: {
      rule_id: EXAMPLE.allocationRuleId,
      rule: 'Metro COD under 1 kg',
      strategy: 'best_performance',
      reason: 'Shadowfax Standard delivered 96% of 25 closed shipments to pincode 110001, the best of 3 serviceable',
    },
    rules: [
      {
        rule_id: EXAMPLE.allocationRuleId,
        rule: 'Metro COD under 1 kg',
        priority: 10,
        strategy: 'best_performance',
        matched: true,
        carrier_id: EXAMPLE.carrierId,
        courier_name: 'Shadowfax Standard',
        reason: 'Shadowfax Standard delivered 96% of 25 closed shipments to pincode 110001, the best of 3 serviceable',
      },
    ],
  },
};

export const ORDER_ANSWERS = {
  created: { status: 1, payload: CREATED },
  assigned: { status: 1, payload: ASSIGNED },
  booked: { status: 1, payload: ORCHESTRATED },
  // The update keeps the order's ids, courier and charges.
  updated: { status: 1, payload: ORCHESTRATED },
  cancelled: {
    message: '1 of 1 shipment cancelled',
    results: [{ awb: EXAMPLE.awb, cancelled: true, message: 'Shipment cancelled' }],
  },
};
