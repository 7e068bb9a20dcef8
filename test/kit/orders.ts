import type { TestContext } from '../app.js';
import { SHADOWFAX } from './couriers.js';
import { expect } from 'vitest';
import { FORWARD_ORDER, MINUTE, ORCHESTRATE, post, RATES } from './http.js';
import { createCityWarehouse, WAREHOUSE_PIN } from './warehouses.js';

// Two ways to write an order: orderBody, a complete prepaid order whose fields a test overrides
// one by one, sent with orchestrate; and orderBodyFromFields, an order described by a few
// OrderFields (destination, COD, value, weight, …), booked with book.

/** Mumbai 400001, the default delivery pincode: zone C (both ends metro, different states). */
export const DELIVERY_PIN = '400001';

let orderCounter = 0;
/** A merchant order id no other test has used. */
export const nextOrderId = (prefix = 'ORD') => `${prefix}-${process.pid}-${++orderCounter}`;

// --- A complete order, field by field ---

/** A valid prepaid order (Mumbai, 0.5 kg, 10x10x10 cm) from the given warehouse; override any field. */
export function orderBody(warehouseId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: nextOrderId(),
    order_date: '2026-11-20 14:30',
    billing_customer_name: 'Asha',
    billing_last_name: 'Menon',
    billing_address: '12 Marine Drive',
    billing_city: 'Mumbai',
    billing_pincode: DELIVERY_PIN,
    billing_state: 'Maharashtra',
    billing_country: 'India',
    billing_email: 'asha@example.com',
    billing_phone: '9123456780',
    shipping_is_billing: true,
    print_label: true,
    order_items: [
      { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499, discount: 0, tax: 5, hsn: '6211' },
    ],
    payment_method: 'PREPAID',
    sub_total: 998,
    cod_collectible: 0,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    warehouse_id: warehouseId,
    ...overrides,
  };
}

/** SPEC 4.5's fields that Velocity documents as required. */
/** A multi-piece order's items: two kurtas and a scarf (₹998). */
export const BOXED_ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 449 },
  { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, selling_price: 100 },
];
/** Its two boxes (Dakiya's packages[]): 1.2 kg in 30x20x15 (volumetric 1.8 kg) with the kurtas, 0.8 kg in 25x20x10 (volumetric 1 kg) with the scarf. */
export const BOXES = [
  { weight: 1.2, length: 30, breadth: 20, height: 15, items: [{ sku: 'KURTA-M-BLUE', units: 2 }] },
  { weight: 0.8, length: 25, breadth: 20, height: 10, items: [{ sku: 'SCARF-RED', units: 1 }] },
];
/** A prepaid order of BOXED_ITEMS in BOXES, 2 kg in all. */
export const boxedOrderBody = (warehouseId: string, overrides: Record<string, unknown> = {}) =>
  orderBody(warehouseId, { order_items: BOXED_ITEMS, sub_total: 998, weight: 2, packages: BOXES, ...overrides });

export const REQUIRED_ORDER_FIELDS = [
  'order_id',
  'order_date',
  'billing_customer_name',
  'billing_address',
  'billing_city',
  'billing_pincode',
  'billing_state',
  'billing_country',
  'billing_phone',
  'order_items',
  'payment_method',
  'sub_total',
  'length',
  'breadth',
  'height',
  'weight',
];

/** The same order as cash on delivery, collecting the whole ₹998. */
export const codOrderBody = (warehouseId: string, overrides: Record<string, unknown> = {}) =>
  orderBody(warehouseId, { payment_method: 'COD', cod_collectible: 998, ...overrides });

export interface OrderPayload {
  order_id: string;
  channel_order_id: string;
  shipment_id: string;
  status: string;
  store_name: string | null;
  zone: string;
  applied_weight: number;
  cod: 0 | 1;
  awb_code: string | null;
  courier_company_id: string | null;
  courier_name: string | null;
  label_url: string | null;
  track_url: string | null;
  test_mode: boolean;
  charges: {
    forward_freight_charges: number;
    cod_charges: number;
    rto_charges: number;
    total_forward_charges: number;
  } | null;
  awb_generated: 0 | 1;
  routing_code: string | null;
  pickup_scheduled_date: string | null;
  label_generated: 0 | 1;
  allocation: { rule_id: string | null; rule: string | null; strategy: string; reason: string } | null;
}

/** Sends `body` to forward-order-orchestration and returns the payload; fails the test on anything but 200. */
export async function orchestrate(ctx: TestContext, apiKey: string, body: Record<string, unknown>) {
  const response = await post(ctx, apiKey, ORCHESTRATE, body);
  if (response.statusCode !== 200) throw new Error(`booking failed: ${response.statusCode} ${response.body}`);
  return response.json().payload as OrderPayload;
}

/** The test clock's start (06:30Z) is 12:00 in India; Velocity's answers write it so. */
export const NOW_IN_INDIA = { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' };
/** The milestones a booking writes, in alphabetical order (as milestoneNames lists them). */
export const BOOKING_MILESTONES = [
  'courier_assigned',
  'expected_delivery_date',
  'order_created',
  'original_expected_delivery_date',
];

export interface RateEntry {
  carrier_id: string;
  carrier_name: string;
  charges: { forward_freight_charges: number; cod_charges: number; rto_charges: number; total_forward_charges: number };
  expected_delivery: { pickup: string; delivery: string };
}

/** POST /rates for the same lane and parcel as an order body. */
export async function ratesFor(
  ctx: TestContext,
  apiKey: string,
  body: Record<string, unknown>,
  origin = WAREHOUSE_PIN,
): Promise<RateEntry[]> {
  const cod = String(body.payment_method).toLowerCase() === 'cod';
  const destination = body.shipping_is_billing === false ? body.shipping_pincode : body.billing_pincode;
  const response = await post(ctx, apiKey, RATES, {
    journey_type: 'forward',
    origin_pincode: origin,
    destination_pincode: destination,
    dead_weight: Number(body.weight) * 1000,
    length: body.length,
    width: body.breadth,
    height: body.height,
    payment_method: cod ? 'cod' : 'prepaid',
    ...(cod && { shipment_value: body.cod_collectible }),
  });
  expect(response.statusCode).toBe(200);
  return response.json().result.serviceable_couriers;
}

/** A booking's charges for the quote it was booked on: the quote's numbers, and Velocity's strings beside them. */
export function bookedCharges(quote: RateEntry['charges'], deadWeightBilling = true) {
  return {
    forward_freight_charges: quote.forward_freight_charges,
    cod_charges: quote.cod_charges,
    rto_freight_charges: quote.rto_charges,
    total_forward_charges: quote.total_forward_charges,
    frwd_charges: {
      shipping_charges: quote.forward_freight_charges.toFixed(2),
      cod_charges: quote.cod_charges.toFixed(2),
      dead_weight_billing: deadWeightBilling,
    },
    rto_charges: { rto_charges: quote.rto_charges.toFixed(2) },
  };
}

// --- An order described by a few fields ---

/** Delivery addresses whose zone from the Delhi warehouse is known (A, C, D, E); B is Mumbai → Pune. */
export const DESTINATIONS = {
  delhi: { city: 'New Delhi', pincode: '110020', state: 'Delhi' },
  mumbai: { city: 'Mumbai', pincode: '400001', state: 'Maharashtra' },
  pune: { city: 'Pune', pincode: '411001', state: 'Maharashtra' },
  jaipur: { city: 'Jaipur', pincode: '302001', state: 'Rajasthan' },
  kochi: { city: 'Ernakulam', pincode: '682001', state: 'Kerala' },
} as const;

export interface OrderFields {
  orderId?: string;
  /** `YYYY-MM-DD HH:MM` India time. */
  orderDate?: string;
  customer?: string;
  lastName?: string;
  /** A separate shipping block (shipping_is_billing false) at the same address, for another person. */
  consignee?: { name: string; lastName?: string };
  phone?: string;
  email?: string;
  to?: keyof typeof DESTINATIONS;
  cod?: boolean;
  /** Rupees; the order's sub_total (and COD amount when cod). */
  value?: number;
  /** Kilograms (dead weight; 10×10×10 cm keeps the volumetric weight at 200 g). */
  weight?: number;
  items?: { name: string; sku: string; units: number; selling_price: number; discount?: number; category?: string }[];
  tags?: string[];
  storeName?: string;
  carrierId?: string;
  warehouseId?: string;
}

/** An order to Mumbai (unless `to` says otherwise) without a label, built from the fields given. */
export function orderBodyFromFields(warehouseId: string, f: OrderFields = {}): Record<string, unknown> {
  const to = DESTINATIONS[f.to ?? 'mumbai'];
  const value = f.value ?? 998;
  return {
    order_id: f.orderId ?? nextOrderId('TRK'),
    order_date: f.orderDate ?? '2026-11-20 11:00',
    ...(f.storeName !== undefined && { store_name: f.storeName }),
    billing_customer_name: f.customer ?? 'Asha',
    ...(f.lastName !== undefined && { billing_last_name: f.lastName }),
    billing_address: '12 Marine Drive',
    billing_city: to.city,
    billing_pincode: to.pincode,
    billing_state: to.state,
    billing_country: 'India',
    billing_email: f.email ?? 'asha@example.com',
    billing_phone: f.phone ?? '9123456780',
    ...(f.consignee
      ? {
          shipping_is_billing: false,
          shipping_customer_name: f.consignee.name,
          ...(f.consignee.lastName !== undefined && { shipping_last_name: f.consignee.lastName }),
          shipping_address: '12 Marine Drive',
          shipping_city: to.city,
          shipping_pincode: to.pincode,
          shipping_state: to.state,
          shipping_country: 'India',
          shipping_phone: f.phone ?? '9123456780',
        }
      : { shipping_is_billing: true }),
    print_label: false,
    order_items: f.items ?? [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: value / 2 }],
    payment_method: f.cod ? 'COD' : 'PREPAID',
    sub_total: value,
    cod_collectible: f.cod ? value : 0,
    length: 10,
    breadth: 10,
    height: 10,
    weight: f.weight ?? 0.5,
    warehouse_id: f.warehouseId ?? warehouseId,
    ...(f.carrierId !== undefined && { carrier_id: f.carrierId }),
    ...(f.tags !== undefined && { tags: f.tags }),
  };
}

export interface Booked {
  order_id: string;
  channel_order_id: string;
  shipment_id: string;
  awb_code: string | null;
  courier_company_id: string | null;
  zone: string;
  applied_weight: number;
  /** The customer's tracking page; null until a courier is booked. */
  track_url: string | null;
}

/** A tracking link as the test app hands them out (PUBLIC_BASE_URL/t/<22 characters of base64url>). */
export const TRACK_URL = /^https:\/\/dakiya\.test\/t\/[A-Za-z0-9_-]{22}$/;

/** Creates an order and books its courier (orchestration); `assign: false` leaves it unassigned (forward-order). */
export async function book(
  ctx: TestContext,
  apiKey: string,
  warehouseId: string,
  f: OrderFields = {},
  assign = true,
): Promise<Booked> {
  const body = orderBodyFromFields(
    warehouseId,
    assign ? { carrierId: SHADOWFAX, ...f } : { ...f, carrierId: undefined },
  );
  const response = await post(ctx, apiKey, assign ? ORCHESTRATE : FORWARD_ORDER, body);
  if (response.statusCode !== 200) throw new Error(`booking failed: ${response.statusCode} ${response.body}`);
  return response.json().payload;
}

/**
 * An account with a Delhi warehouse and `n` booked shipments, one clock minute apart (so their
 * created_at order is their booking order). `fields(i)` controls each order.
 */
export async function seedShipments(
  ctx: TestContext,
  n: number,
  fields: (i: number) => OrderFields = () => ({}),
  account?: { id: string; apiKey: string },
) {
  const owner = account ?? (await ctx.createAccount());
  const warehouseId = await createCityWarehouse(ctx, owner.apiKey);
  const booked: Booked[] = [];
  for (let i = 0; i < n; i++) {
    booked.push(await book(ctx, owner.apiKey, warehouseId, fields(i)));
    ctx.clock.advance(MINUTE);
  }
  return { ...owner, warehouseId, booked };
}

/**
 * A merchant with `n` shipments booked on Shadowfax one minute apart from the test clock's start
 * (06:30Z), the clock then put back to the start; with the AWBs of its shipments.
 */
export async function merchantWithShipments(ctx: TestContext, n = 1) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const seeded = await seedShipments(ctx, n);
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  return { ...seeded, awbs: seeded.booked.map((b) => b.awb_code!) };
}
