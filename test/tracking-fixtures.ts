import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, type TestContext } from './app.js';

// Self-contained on purpose: only test/app.ts is shared, so these helpers do not move when other
// modules' fixtures do.

export const V1 = '/custom/api/v1';
export const SHIPMENTS = `${V1}/shipments`;
export const ORDER_TRACKING = `${V1}/order-tracking`;
export const META_STATUSES = `${V1}/meta/statuses`;
export const CANCEL = `${V1}/cancel-order`;
export const ORCHESTRATE = `${V1}/forward-order-orchestration`;
export const FORWARD_ORDER = `${V1}/forward-order`;
export const ASSIGN = `${V1}/forward-order-shipment`;
export const WAREHOUSE = `${V1}/warehouse`;
export const CLIENT_STORES = `${V1}/client-stores`;
export const TRACKING_EVENTS = '/carrier/v1/tracking-events';
export const CARRIER_TOKENS = '/admin/v1/carrier-tokens';

/** Courier services from data/couriers.json, by the AWB prefix they print. */
export const SHADOWFAX = 'CARSHFXSTD001';
export const DELHIVERY = 'CARDELHSURF01';
export const BLUEDART_AIR = 'CARBLDTAIR001';
export const DTDC = 'CARDTDCSTD001';
export const AWB_PREFIX: Record<string, string> = {
  [SHADOWFAX]: 'SFX',
  [DELHIVERY]: 'DLS',
  [BLUEDART_AIR]: 'BDA',
  [DTDC]: 'DTS',
};

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export const auth = (credential: string) => ({ authorization: credential });

export function post(ctx: TestContext, credential: string, url: string, payload: unknown): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url, headers: auth(credential), payload: payload as object });
}

/** Pickup points: New Delhi (the default) and Mumbai. */
export const WAREHOUSE_ADDRESSES = {
  delhi: { street_address: 'Plot 14, Okhla Phase III', zip: '110001', city: 'New Delhi', state: 'Delhi', country: 'India' },
  mumbai: { street_address: '3 Ballard Estate', zip: '400001', city: 'Mumbai', state: 'Maharashtra', country: 'India' },
} as const;

export async function createWarehouse(
  ctx: TestContext,
  apiKey: string,
  where: keyof typeof WAREHOUSE_ADDRESSES = 'delhi',
  name = `Warehouse ${where}`,
): Promise<string> {
  const response = await post(ctx, apiKey, WAREHOUSE, {
    name,
    phone_number: '9876543210',
    address_attributes: WAREHOUSE_ADDRESSES[where],
  });
  if (response.statusCode !== 201) throw new Error(`warehouse creation failed: ${response.statusCode} ${response.body}`);
  return response.json().payload.warehouse_id;
}

export async function createStore(ctx: TestContext, apiKey: string, storeName: string): Promise<string> {
  const response = await post(ctx, apiKey, CLIENT_STORES, { store_name: storeName });
  if (response.statusCode !== 201) throw new Error(`store creation failed: ${response.statusCode} ${response.body}`);
  return response.json().data.id;
}

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
  items?: { name: string; sku: string; units: number; selling_price: number }[];
  tags?: string[];
  storeName?: string;
  carrierId?: string;
  warehouseId?: string;
}

let orderCounter = 0;
export const nextOrderId = (prefix = 'TRK') => `${prefix}-${process.pid}-${++orderCounter}`;

export function orderBody(warehouseId: string, f: OrderFields = {}): Record<string, unknown> {
  const to = DESTINATIONS[f.to ?? 'mumbai'];
  const value = f.value ?? 998;
  return {
    order_id: f.orderId ?? nextOrderId(),
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
export async function book(ctx: TestContext, apiKey: string, warehouseId: string, f: OrderFields = {}, assign = true): Promise<Booked> {
  const body = orderBody(warehouseId, assign ? { carrierId: SHADOWFAX, ...f } : { ...f, carrierId: undefined });
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
  const warehouseId = await createWarehouse(ctx, owner.apiKey);
  const booked: Booked[] = [];
  for (let i = 0; i < n; i++) {
    booked.push(await book(ctx, owner.apiKey, warehouseId, fields(i)));
    ctx.clock.advance(MINUTE);
  }
  return { ...owner, warehouseId, booked };
}

// --- Couriers ---

export async function issueCarrierToken(ctx: TestContext, carrierId: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: CARRIER_TOKENS,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { carrier_id: carrierId },
  });
  if (response.statusCode !== 201) throw new Error(`carrier token failed: ${response.statusCode} ${response.body}`);
  return response.json().token;
}

export interface CarrierEvent {
  awb: string;
  status: string;
  event_time: string;
  sub_status?: string;
  location?: string;
  description?: string;
  ndr_reason?: string;
  rto_reason?: string;
  event_id?: string;
}

export interface EventResult {
  awb: string;
  accepted: boolean;
  duplicate?: boolean;
  error?: string;
}

export function postEvents(ctx: TestContext, token: string, events: unknown[]): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: TRACKING_EVENTS, headers: { authorization: `Bearer ${token}` }, payload: { events } });
}

/** Sends a batch and returns the per-event answers; fails on anything but 200. */
export async function sendEvents(ctx: TestContext, token: string, events: CarrierEvent[]): Promise<EventResult[]> {
  const response = await postEvents(ctx, token, events);
  if (response.statusCode !== 200) throw new Error(`events refused: ${response.statusCode} ${response.body}`);
  return response.json().results;
}

/** An ISO timestamp `minutes` after the test clock's start (06:30Z), in UTC. */
export const at = (minutes: number) => new Date(Date.parse('2026-11-20T06:30:00.000Z') + minutes * MINUTE).toISOString();

// --- Order tracking ---

export interface TrackActivity {
  date: string;
  activity: string;
  status: string;
  description: string | null;
  location: string | null;
  sr_status_label: string | null;
}

export interface TrackingData {
  track_status: 0 | 1;
  error?: string;
  shipment_status?: string;
  shipment_sub_status?: string | null;
  shipment_track?: Record<string, unknown>[];
  shipment_track_activities?: TrackActivity[];
  track_url?: string | null;
}

/** One AWB's tracking_data from POST /order-tracking; fails on anything but 200. */
export async function track(ctx: TestContext, apiKey: string, awb: string): Promise<TrackingData> {
  const response = await post(ctx, apiKey, ORDER_TRACKING, { awbs: [awb] });
  if (response.statusCode !== 200) throw new Error(`order-tracking failed: ${response.statusCode} ${response.body}`);
  return response.json().result[awb].tracking_data;
}

// --- Listing ---

export interface ShipmentElement {
  id: string;
  type: 'shipment';
  attributes: {
    tracking_number: string | null;
    label_url: string | null;
    status: string;
    sub_status: string | null;
    created_at: string;
    warehouse_id: string;
    total_price: number;
    cod_amount: number;
    is_cod: boolean;
    zone: string;
    applied_weight: { value: number; metric_unit: 'g' };
    attempt_count: number;
    carrier: { id: string; name: string } | null;
    order: { id: string; order_date: string; channel: string; display_id: string; external_id: string; store_name: string | null };
    items: { id: string; quantity: number; price: number; name: string; sku: string }[];
    shipping_address: { name: string; phone: string; city: string; state: string; zip: string };
    shipment_milestones: { milestone: string; milestone_at: string }[];
    tracking_details: { id: string; status: string; last_location: string | null; event_date_time: string; description: string | null }[];
  };
}

export interface Listing {
  data: ShipmentElement[];
  meta: { current_page: number; per_page: number; total: number; next_search_after: [string, string] | null };
}

export async function list(ctx: TestContext, apiKey: string, body: Record<string, unknown> = {}): Promise<Listing> {
  const response = await post(ctx, apiKey, SHIPMENTS, body);
  if (response.statusCode !== 200) throw new Error(`listing failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The shipment ids a listing returns, in order (per_page 100 so small fixtures fit one page). */
export async function listIds(ctx: TestContext, apiKey: string, body: Record<string, unknown> = {}): Promise<string[]> {
  return (await list(ctx, apiKey, { per_page: 100, ...body })).data.map((s) => s.id);
}

/** One shipment as the listing shows it. */
export async function listed(ctx: TestContext, apiKey: string, shipmentId: string): Promise<ShipmentElement> {
  const { data } = await list(ctx, apiKey, { per_page: 100 });
  const found = data.find((s) => s.id === shipmentId);
  if (!found) throw new Error(`shipment ${shipmentId} not in the first 100 listed`);
  return found;
}
