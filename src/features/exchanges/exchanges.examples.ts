import { EXAMPLE } from '../../http/examples.js';

// A size exchange: a Mumbai buyer's kurta in M goes back (checked at pickup) and an L goes out,
// prepaid, both from and to the Okhla warehouse.
const BUYER = {
  customer_name: 'Asha',
  last_name: 'Menon',
  address: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  pincode: '400001',
  email: 'asha@example.com',
  phone: '9123456780',
};
const as = (prefix: 'billing' | 'pickup') =>
  Object.fromEntries(Object.entries(BUYER).map(([name, value]) => [`${prefix}_${name}`, value]));

export const EXCHANGE_REQUEST = {
  order_id: 'EXC-10045',
  order_date: '2026-11-20 14:30',
  carrier_id: '',
  payment_method: 'PREPAID',
  return_reason: 'Size too small',
  ...as('billing'),
  ...as('pickup'),
  order_items: [
    { name: 'Cotton Kurta', sku: 'KURTA-L-BLUE', units: 1, selling_price: 499, discount: 0, tax: 5, hsn: '6211' },
  ],
  forward_warehouse_id: EXAMPLE.warehouseId,
  length: 10,
  breadth: 10,
  height: 10,
  weight: 0.5,
  return_items: [
    {
      name: 'Cotton Kurta',
      sku: 'KURTA-M-BLUE',
      units: 1,
      selling_price: 499,
      discount: 0,
      qc_enable: true,
      qc_product_name: 'Cotton Kurta',
      qc_product_image: 'https://cdn.acme.example/kurta-blue.jpg',
      qc_size: 'M',
      qc_color: 'Blue',
    },
  ],
};

export const EXCHANGE_TERMS_EXAMPLE = { release_on: 'return_picked_up', qc_charge: 15, exchange_charge: 29.99 };

// The answer to EXCHANGE_REQUEST in a new account (ids replaced by example ones): Shadowfax
// Standard the cheapest both ways, and QC-capable for the pickup.
const FORWARD_SHIPMENT_ID = '9a943eee-13ba-4bc7-bab1-0979506c0a6e';
const RETURN_SHIPMENT_ID = '91d457e6-f1dc-439f-8855-4b8bcfe9d98c';
const RETURN_ID = '55bb7c55-c5a6-46a3-83f5-7eaff8c42edf';
const EXCHANGE_ID = 'b68ce5c2-19b0-4751-9c92-1a47a0060424';
const label = (shipmentId: string) =>
  `https://ship.acme.example/public/v1/labels/${shipmentId}?expires=${EXAMPLE.labelExpires}&signature=${EXAMPLE.labelSignature}`;
const leg = (shipmentId: string, awb: string, status: string, trackUrl: string) => ({
  shipment_id: shipmentId,
  awb,
  label_url: label(shipmentId),
  courier_name: 'Shadowfax Standard',
  courier_company_id: EXAMPLE.carrierId,
  applied_weight: 0.5,
  status,
  track_url: trackUrl,
});
const FORWARD = leg(
  FORWARD_SHIPMENT_ID,
  'SFX0000000001',
  'pending',
  `https://ship.acme.example/t/${EXAMPLE.trackToken}`,
);
const PICKUP = leg(
  RETURN_SHIPMENT_ID,
  'SFX0000000002',
  'return_pickup_scheduled',
  `https://ship.acme.example/t/r${RETURN_ID.replaceAll('-', '')}Kq3vX9bTgK4mYc1Pz7wAa0`,
);

export const EXCHANGE_ANSWER = {
  status: 1,
  payload: {
    pickup_location_added: 1,
    order_created: 1,
    return_created: 1,
    awb_generated: 2,
    label_generated: 2,
    pickup_generated: 2,
    manifest_generated: 0,
    order_id: '66b29787-986c-4f39-942f-50470b538c74',
    return_id: RETURN_ID,
    exchange_order_id: EXCHANGE_ID,
    shipment_id: FORWARD_SHIPMENT_ID,
    forward_shipment_id: FORWARD_SHIPMENT_ID,
    return_shipment_id: RETURN_SHIPMENT_ID,
    forward_awb: FORWARD.awb,
    forward_awb_code: FORWARD.awb,
    reverse_awb: PICKUP.awb,
    awb_code: PICKUP.awb,
    label_url: FORWARD.label_url,
    forward_shipment_label: FORWARD.label_url,
    reverse_shipment_label: PICKUP.label_url,
    courier_name: 'Shadowfax Standard',
    forward_courier_name: 'Shadowfax Standard',
    reverse_courier_name: 'Shadowfax Standard',
    applied_weight: 0.5,
    forward_applied_weight: 0.5,
    reverse_applied_weight: 0.5,
    cod: 0,
    is_exchange: 1,
    exchange_order_details: {
      id: EXCHANGE_ID,
      unique_id: 'EXETV9HKKKHR',
      display_id: 'EXC-10045',
      status: 'pending',
      order_id: 'EXC-10045',
      return_id: RETURN_ID,
      channel: 'website',
      return_reason: 'Size too small',
      release_on: 'at_once',
      replacement_held: false,
      qc_failed: false,
      created_at: '2026-11-20 12:00:00',
    },
    forward_shipment_details: FORWARD,
    return_shipment: PICKUP,
    charges: {
      total: '114.00',
      forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
      reverse: { return_pickup_charges: '60.00', qc_charges: '12.00', exchange_charges: '0.00' },
    },
    test_mode: false,
  },
};
