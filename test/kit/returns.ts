import { expect } from 'vitest';
import type { TestContext } from '../app.js';
import { SHADOWFAX } from './couriers.js';
import { post, RATES, REVERSE_ORCHESTRATE, REVERSE_ORDER } from './http.js';
import { book, nextOrderId, type OrderFields } from './orders.js';
import { issueCarrierToken, sendEvents } from './tracking.js';

// Two ways to write a return: returnBody, a minimal one shaped by a few ReturnFields (booked with
// bookReturn); and detailedReturnBody, with every field Velocity's reverse order has, overridable
// field by field.

export const IMAGE = 'https://cdn.acme.example/kurta-blue.jpg';

export const qcItem = (sku = 'KURTA-M-BLUE') => ({
  name: 'Cotton Kurta',
  sku,
  units: 1,
  selling_price: 499,
  discount: 0,
  qc_enable: true,
  qc_product_name: 'Cotton Kurta',
  qc_product_image: IMAGE,
});
export const plainItem = (sku = 'KURTA-M-BLUE') => ({
  name: 'Cotton Kurta',
  sku,
  units: 1,
  selling_price: 499,
  discount: 0,
});

export interface ReturnFields {
  qc?: boolean;
  carrierId?: string;
  subTotal?: number;
  sku?: string;
  warehouseId?: string;
  orderId?: string;
}

/** A return from a Mumbai customer (400001) to the merchant's Delhi warehouse. */
export function returnBody(warehouseId: string, f: ReturnFields = {}): Record<string, unknown> {
  return {
    order_id: f.orderId ?? nextOrderId('RET'),
    order_date: '2026-11-20',
    pickup_customer_name: 'Asha',
    pickup_last_name: 'Menon',
    pickup_address: '12 Marine Drive',
    pickup_city: 'Mumbai',
    pickup_state: 'Maharashtra',
    pickup_country: 'India',
    pickup_pincode: '400001',
    pickup_phone: '9123456780',
    order_items: [f.qc ? qcItem(f.sku) : plainItem(f.sku)],
    payment_method: 'PREPAID',
    sub_total: f.subTotal ?? 499,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    warehouse_id: f.warehouseId ?? warehouseId,
    ...(f.carrierId !== undefined && { carrier_id: f.carrierId }),
  };
}

export interface BookedReturn {
  return_id: string;
  shipment_id: string;
  order_id: string;
  awb_code: string | null;
  courier_company_id: string | null;
  qc_enabled: 0 | 1;
}

/** Creates a return and, unless `book` is false, books its courier (orchestration). */
export async function bookReturn(
  ctx: TestContext,
  apiKey: string,
  warehouseId: string,
  f: ReturnFields = {},
  book = true,
): Promise<BookedReturn> {
  const response = await post(ctx, apiKey, book ? REVERSE_ORCHESTRATE : REVERSE_ORDER, returnBody(warehouseId, f));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().payload;
}

// --- A return with every field ---

/** A QC item with every QC detail filled in (brand, size, colour); `extra` overrides any field. */
export const detailedQcItem = (sku = 'KURTA-M-BLUE', extra: Record<string, unknown> = {}) => ({
  ...qcItem(sku),
  qc_brand: 'Acme',
  qc_size: 'M',
  qc_color: 'Blue',
  ...extra,
});

/** A return from a Mumbai customer (400001) to the merchant's Delhi warehouse (110001): zone C. */
export function detailedReturnBody(
  warehouseId: string | undefined,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    order_id: nextOrderId('RET'),
    order_date: '2026-11-20',
    pickup_customer_name: 'Asha',
    pickup_last_name: 'Menon',
    company_name: 'Menon Traders',
    pickup_address: '12 Marine Drive',
    pickup_city: 'Mumbai',
    pickup_state: 'Maharashtra',
    pickup_country: 'India',
    pickup_pincode: '400001',
    pickup_email: 'asha@example.com',
    pickup_phone: 9123456780,
    pickup_isd_code: '91',
    order_items: [detailedQcItem()],
    payment_method: 'PREPAID',
    total_discount: '0',
    sub_total: 499,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    request_pickup: true,
    ...(warehouseId && { warehouse_id: warehouseId }),
    ...overrides,
  };
}

/** The Delhi warehouse's address as shipping_* fields: a return's destination without a warehouse_id. */
export const WAREHOUSE_SHIPPING_FIELDS = {
  shipping_customer_name: 'Ravi',
  shipping_address: 'Plot 14, Okhla Phase III',
  shipping_city: 'New Delhi',
  shipping_state: 'Delhi',
  shipping_country: 'India',
  shipping_pincode: 110001,
  shipping_phone: '9876543210',
};

/** What /rates quotes for a return on the same lane (to 110001), weight and dimensions as `body`. */
export async function returnQuotes(ctx: TestContext, apiKey: string, body: Record<string, unknown>, qc: boolean) {
  const response = await post(ctx, apiKey, RATES, {
    journey_type: 'return',
    origin_pincode: String(body.pickup_pincode),
    destination_pincode: '110001',
    dead_weight: Number(body.weight) * 1000,
    length: body.length,
    width: body.breadth,
    height: body.height,
    qc_applicable: qc,
  });
  expect(response.statusCode).toBe(200);
  return response.json().result.serviceable_couriers as {
    carrier_id: string;
    charges: { return_freight_charges: number; qc_charges: number; total_return_charges: number };
  }[];
}

/** A delivered forward shipment of the merchant (Shadowfax), to return; `fields` as `book` takes them. */
export async function deliveredForward(
  ctx: TestContext,
  m: { apiKey: string; warehouseId: string },
  fields: OrderFields = {},
) {
  const forward = await book(ctx, m.apiKey, m.warehouseId, { ...fields, carrierId: SHADOWFAX });
  const token = await issueCarrierToken(ctx, SHADOWFAX);
  // Minutes after the booking (a scan before it is refused), within the intake's 10 minutes of clock skew.
  const after = (minutes: number) => new Date(ctx.clock.now().getTime() + minutes * 60_000).toISOString();
  const results = await sendEvents(ctx, token, [
    { awb: forward.awb_code!, status: 'in_transit', event_time: after(1) },
    { awb: forward.awb_code!, status: 'out_for_delivery', event_time: after(2) },
    { awb: forward.awb_code!, status: 'delivered', event_time: after(3) },
  ]);
  expect(results.every((r) => r.accepted)).toBe(true);
  return forward;
}
