import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { expect } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { encodeRgbPng } from '../src/demo/logo.js';
import type { Database } from '../src/base/db/client.js';
import { PUBLIC_BASE_URL, type TestContext } from './app.js';
import { authed } from './fixtures.js';

export const V1 = '/custom/api/v1';
export const WAREHOUSE = `${V1}/warehouse`;
export const WAREHOUSES = `${V1}/warehouses`;
export const FORWARD_ORDER = `${V1}/forward-order`;
export const ASSIGN = `${V1}/forward-order-shipment`;
export const ORCHESTRATE = `${V1}/forward-order-orchestration`;
export const CANCEL = `${V1}/cancel-order`;
export const RATES = `${V1}/rates`;

/** New Delhi 110001, the default pickup pincode. */
export const WAREHOUSE_PIN = '110001';
/** Mumbai 400001, the default delivery pincode: zone C (both ends metro, different states). */
export const DELIVERY_PIN = '400001';

export interface WarehouseBody {
  name: string;
  phone_number: string;
  email?: string;
  contact_person?: string;
  gst_no?: string;
  address_attributes: { street_address: string; zip: string | number; city: string; state: string; country: string };
}

export function warehouseBody(overrides: Partial<WarehouseBody> = {}): WarehouseBody {
  return {
    name: 'Okhla Fulfilment Centre',
    phone_number: '9876543210',
    email: 'ops@acme.example',
    contact_person: 'Ravi Kumar',
    address_attributes: {
      street_address: 'Plot 14, Okhla Phase III',
      zip: WAREHOUSE_PIN,
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
    },
    ...overrides,
  };
}

export async function createWarehouse(ctx: TestContext, apiKey: string, overrides: Partial<WarehouseBody> = {}): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: WAREHOUSE, headers: authed(apiKey), payload: warehouseBody(overrides) });
  if (response.statusCode !== 201) throw new Error(`warehouse creation failed: ${response.statusCode} ${response.body}`);
  return response.json().payload.warehouse_id;
}

/** A new account (named `name`, else numbered) with one warehouse, warehouseBody's. */
export async function merchant(ctx: TestContext, name?: string) {
  const account = await ctx.createAccount(name);
  return { ...account, warehouseId: await createWarehouse(ctx, account.apiKey) };
}

let orderCounter = 0;
/** A merchant order id no other test has used. */
export const nextOrderId = (prefix = 'ORD') => `${prefix}-${process.pid}-${++orderCounter}`;

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

/** The same order as cash on delivery, collecting the whole ₹998. */
export const codOrderBody = (warehouseId: string, overrides: Record<string, unknown> = {}) =>
  orderBody(warehouseId, { payment_method: 'COD', cod_collectible: 998, ...overrides });

export function post(ctx: TestContext, apiKey: string, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url, headers: { ...authed(apiKey), ...headers }, payload: payload as object });
}

/** Books through orchestration and returns the payload; fails the test on anything but 200. */
export async function book(ctx: TestContext, apiKey: string, body: Record<string, unknown>) {
  const response = await post(ctx, apiKey, ORCHESTRATE, body);
  if (response.statusCode !== 200) throw new Error(`booking failed: ${response.statusCode} ${response.body}`);
  return response.json().payload as OrderPayload;
}

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
  charges: { forward_freight_charges: number; cod_charges: number; rto_charges: number; total_forward_charges: number } | null;
  awb_generated: 0 | 1;
  routing_code: string | null;
  pickup_scheduled_date: string | null;
  label_generated: 0 | 1;
}

// --- Database inspection: the order tables, for "nothing was written". ---

export const ORDER_TABLES = ['orders', 'order_items', 'shipments', 'shipment_milestones'] as const;

export async function orderCounts(database: Database): Promise<Record<(typeof ORDER_TABLES)[number] | 'awb_counters_total', number>> {
  const [row] = await queryRows<Record<string, number | string>>(
    database.db,
    sql`select
      (select count(*) from orders)::int as orders,
      (select count(*) from order_items)::int as order_items,
      (select count(*) from shipments)::int as shipments,
      (select count(*) from shipment_milestones)::int as shipment_milestones,
      (select coalesce(sum(last_value), 0) from awb_counters)::int as awb_counters_total`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as Awaited<ReturnType<typeof orderCounts>>;
}

/**
 * Runs a request and checks no order, item, shipment or milestone row was written, and no AWB number
 * was drawn. `awbGap`: the request is refused only after a number was drawn (a duplicate order_id on
 * orchestration); the series may then have a gap, by design, but still no row.
 */
export async function expectNothingWritten(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
  { awbGap = false }: { awbGap?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const before = await orderCounts(database);
  const response = await request();
  const after = await orderCounts(database);
  if (awbGap) {
    expect({ ...after, awb_counters_total: 0 }).toEqual({ ...before, awb_counters_total: 0 });
  } else {
    expect(after).toEqual(before);
  }
  return response;
}

// --- Labels ---

/** The path and query of an absolute label_url, for app.inject. */
/** A label link as the server signs it (with its own secret), expiring at `expires` (Unix seconds). */
export async function signedLabelUrl(ctx: TestContext, shipmentId: string, expires: number): Promise<string> {
  const [row] = await queryRows<{ value: string }>(ctx.database.db, sql`select value from server_secrets where name = 'label-links'`);
  const signature = createHmac('sha256', row!.value).update(`label:${shipmentId}:${expires}`).digest('base64url');
  return `${PUBLIC_BASE_URL}/public/v1/labels/${shipmentId}?expires=${expires}&signature=${signature}`;
}

/** The label_url a read shows now: signed at the test clock's time, for the default 24 hours. */
export const labelUrlNow = (ctx: TestContext, shipmentId: string) =>
  signedLabelUrl(ctx, shipmentId, Math.floor(ctx.clock.now().getTime() / 1000) + 24 * 60 * 60);

export function labelPath(labelUrl: string): string {
  const url = new URL(labelUrl);
  return url.pathname + url.search;
}

/** The text of a PDF, one string. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

// --- A real, decodable PNG (the logo fixtures in fixtures.ts are headers only). ---

/** A width×height RGB PNG of one colour, valid enough for pdfkit to draw. */
export function realPng(width = 8, height = 8, rgb: [number, number, number] = [200, 30, 40]): Buffer {
  return encodeRgbPng(width, height, () => rgb);
}
