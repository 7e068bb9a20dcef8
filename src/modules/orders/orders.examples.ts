import { EXAMPLE } from '../../http/examples.js';

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
  order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 1299, discount: 0, tax: 5, hsn: '6211' }],
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
  orchestration: { ...ORDER, order_id: 'ORD-10046', carrier_id: EXAMPLE.carrierId },
  assign: { shipment_id: EXAMPLE.shipmentId, carrier_id: '' },
  // The whole body again, keyed by order_id: the customer moved to the flat upstairs.
  update: { ...ORDER, billing_address: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block', billing_phone: '9123456781' },
  cancel: { awbs: [EXAMPLE.awb] },
};
