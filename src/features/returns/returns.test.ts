import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { post, RATES, REVERSE_ORCHESTRATE, REVERSE_ORDER, UNKNOWN_ID, UUID, V1 } from '../../../test/kit/http.js';
import { book, nextOrderId } from '../../../test/kit/orders.js';
import { plainItem as plainItemOf, qcItem as baseQcItem } from '../../../test/kit/returns.js';
import { listed } from '../../../test/kit/shipments.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { NO_ROUTING } from '../../http/examples.js';
import { NO_QC_COURIER } from './returns.service.js';

const REVERSE_ASSIGN = `${V1}/reverse-order-shipment`;
const QC_CAPABLE = ['CARDELHSURF01', 'CARDELHAIR001', 'CARSHFXSTD001'];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

/** A QC item with every QC detail filled in. */
const qcItem = (sku = 'KURTA-M-BLUE', extra: Record<string, unknown> = {}) => ({
  ...baseQcItem(sku),
  qc_brand: 'Acme',
  qc_size: 'M',
  qc_color: 'Blue',
  ...extra,
});
const plainItem = plainItemOf();

/** A return from a Mumbai customer (400001) to the merchant's Delhi warehouse (110001): zone C. */
function returnBody(warehouseId: string | undefined, overrides: Record<string, unknown> = {}): Record<string, unknown> {
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
    order_items: [qcItem()],
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

const shippingAddress = {
  shipping_customer_name: 'Ravi',
  shipping_address: 'Plot 14, Okhla Phase III',
  shipping_city: 'New Delhi',
  shipping_state: 'Delhi',
  shipping_country: 'India',
  shipping_pincode: 110001,
  shipping_phone: '9876543210',
};

/** What /rates quotes for the same lane, weight and dimensions. */
async function rateQuote(apiKey: string, body: Record<string, unknown>, qc: boolean) {
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

async function counts() {
  const [row] = await queryRows<Record<string, number | string>>(
    ctx.database.db,
    sql`select (select count(*) from returns)::int as returns, (select count(*) from return_items)::int as items,
      (select coalesce(sum(last_value), 0) from awb_counters)::int as awbs`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

async function expectRefused(request: () => Promise<LightMyRequestResponse>, status: number, message: string, field?: string) {
  const before = await counts();
  const response = await request();
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body.message).toBe(message);
  expect(body.errors).toEqual([message]);
  if (field) expect(body.details).toEqual([{ field, message }]);
  expect(await counts()).toEqual(before);
}

/** A request that must answer 400 with exactly these problems, in this order, writing nothing. */
async function expectProblems(request: () => Promise<LightMyRequestResponse>, details: { field: string; message: string }[]) {
  const before = await counts();
  const response = await request();
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ message: details[0]!.message, errors: details.map((d) => d.message), details });
  expect(await counts()).toEqual(before);
}

/** A delivered forward shipment of the merchant, to return. */
async function deliveredForward(m: Awaited<ReturnType<typeof merchant>>) {
  const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
  const token = await issueCarrierToken(ctx, SHADOWFAX);
  await sendEvents(ctx, token, [
    { awb: forward.awb_code!, status: 'in_transit', event_time: at(-30) },
    { awb: forward.awb_code!, status: 'out_for_delivery', event_time: at(-20) },
    { awb: forward.awb_code!, status: 'delivered', event_time: at(-10) },
  ]);
  return forward;
}

describe('POST /reverse-order-orchestration', () => {
  it("books a QC return with the cheapest QC-capable courier, at /rates' price, in Velocity's answer", async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const { status, payload } = response.json();
    const [cheapest] = await rateQuote(m.apiKey, body, true);
    expect(status).toBe(1);
    expect(QC_CAPABLE).toContain(cheapest!.carrier_id);
    expect(payload).toEqual({
      order_created: 1,
      awb_generated: 1,
      pickup_generated: 1,
      pickup_scheduled_date: '2026-11-20',
      order_id: body.order_id,
      return_id: expect.stringMatching(UUID),
      shipment_id: expect.stringMatching(UUID),
      status: 'return_pickup_scheduled',
      zone: 'zone_c',
      awb_code: expect.stringMatching(/^[A-Z][A-Z0-9]{1,4}\d{10}$/),
      courier_company_id: cheapest!.carrier_id,
      courier_name: expect.any(String),
      assigned_date_time: { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' },
      applied_weight: 0.5,
      cod: 0,
      is_return: 1,
      ...NO_ROUTING,
      expected_delivery_date: expect.stringMatching(/^2026-11-\d{2}$/),
      charges: {
        reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2),
        qc: cheapest!.charges.qc_charges.toFixed(2),
        qc_leeway: '0.00',
        dead_weight_billing: true,
        platform_fee: 0,
        total_return_charges: cheapest!.charges.total_return_charges,
      },
      qc_enabled: 1,
      qc_message: null,
      forward_shipment: null,
    });
    expect(Number(payload.charges.qc)).toBeGreaterThan(0);
    expect(payload.return_id).not.toBe(payload.shipment_id);
  });

  it('a non-QC return to a shipping_* address costs what /rates quotes without QC (volumetric weight billed)', async () => {
    const m = await merchant(ctx);
    const body = returnBody(undefined, { ...shippingAddress, order_items: [plainItem], length: 40, breadth: 30, height: 20 });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await rateQuote(m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.applied_weight).toBe(4.8);
    expect(payload.charges).toEqual({
      reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2),
      qc: '0.00',
      qc_leeway: '0.00',
      dead_weight_billing: false,
      platform_fee: 0,
      total_return_charges: cheapest!.charges.total_return_charges,
    });
    expect(payload.qc_enabled).toBe(0);
    expect(payload.qc_message).toBeNull();
  });

  it('books the named QC-capable courier at its /rates price', async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId, { carrier_id: 'CARDELHAIR001' });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const quoted = (await rateQuote(m.apiKey, body, true)).find((c) => c.carrier_id === 'CARDELHAIR001')!;
    expect(payload.courier_company_id).toBe('CARDELHAIR001');
    expect(payload.awb_code).toMatch(/^DLA\d{10}$|^[A-Z][A-Z0-9]{1,4}\d{10}$/);
    expect(payload.charges.reverse_charges).toBe(quoted.charges.return_freight_charges.toFixed(2));
    expect(payload.charges.qc).toBe(quoted.charges.qc_charges.toFixed(2));
    expect(payload.charges.platform_fee).toBe(2);
  });

  it('more than 2 QC SKUs: booked as non-QC with the cheapest courier, and the answer says so', async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId, { order_items: [qcItem('A'), qcItem('B'), qcItem('C')] });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await rateQuote(m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.qc_enabled).toBe(0);
    expect(payload.charges.qc).toBe('0.00');
    expect(payload.qc_message).toBe('QC covers at most 2 SKUs and 3 asked for it: booked as a non-QC return');
  });

  it('two QC items of the same SKU count as one SKU: QC applies', async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { order_items: [qcItem('A'), qcItem('A'), qcItem('B')] }));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.qc_enabled).toBe(1);
  });

  it('no QC-capable courier serves the lane (25 kg): falls back to a non-QC courier and says so', async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId, { weight: 25 });
    expect(await rateQuote(m.apiKey, body, true)).toEqual([]);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await rateQuote(m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(QC_CAPABLE).not.toContain(payload.courier_company_id);
    expect(payload.qc_enabled).toBe(0);
    expect(payload.qc_message).toBe(NO_QC_COURIER);
    expect(payload.charges.reverse_charges).toBe(cheapest!.charges.return_freight_charges.toFixed(2));
  });

  it('replays the first answer for a repeated Idempotency-Key and books once', async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId);
    const headers = { 'idempotency-key': `ret-${body.order_id}` };
    const first = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body, headers);
    const before = await counts();
    const again = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await counts()).toEqual(before);
  });
});

describe('POST /reverse-order, then /reverse-order-shipment', () => {
  it("creates the return without a courier, in Velocity's answer, then books the cheapest for carrier_id ''", async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId, { order_date: '2026-11-19 18:05' });
    const created = await post(ctx, m.apiKey, REVERSE_ORDER, body);
    expect(created.statusCode).toBe(200);
    const payload = created.json().payload;
    expect(created.json().status).toBe(1);
    expect(payload).toMatchObject({
      order_created: 1,
      awb_generated: 0,
      pickup_generated: 0,
      pickup_scheduled_date: null,
      order_id: body.order_id,
      status: 'return_requested',
      awb_code: null,
      courier_company_id: null,
      charges: null,
      cod: 0,
      is_return: 1,
      qc_enabled: 0,
      assigned_date_time: { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' },
    });
    expect(payload.return_id).toMatch(UUID);
    expect(payload.shipment_id).toMatch(UUID);

    const booked = await post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: payload.return_id, warehouse_id: m.warehouseId, carrier_id: '' });
    expect(booked.statusCode).toBe(200);
    const done = booked.json().payload;
    const [cheapest] = await rateQuote(m.apiKey, body, true);
    expect(done).toMatchObject({
      return_id: payload.return_id,
      shipment_id: payload.shipment_id,
      awb_generated: 1,
      status: 'return_pickup_scheduled',
      courier_company_id: cheapest!.carrier_id,
      qc_enabled: 1,
      charges: { reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2), qc: cheapest!.charges.qc_charges.toFixed(2) },
    });

    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: payload.return_id }),
      422,
      'A courier is already assigned to this return',
      'return_id',
    );
  });

  it('a return created with shipping_* takes the warehouse named at booking as its destination', async () => {
    const m = await merchant(ctx);
    const created = await post(ctx, m.apiKey, REVERSE_ORDER, returnBody(undefined, { ...shippingAddress, order_items: [plainItem] }));
    expect(created.statusCode).toBe(200);
    const booked = await post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: created.json().payload.return_id, warehouse_id: m.warehouseId, carrier_id: DTDC });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().payload).toMatchObject({ courier_company_id: DTDC, zone: 'zone_c', qc_enabled: 0 });
  });

  it('refuses: unknown return, another account’s return, a different warehouse, a non-QC courier for a QC return', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const created = await post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId));
    const returnId = created.json().payload.return_id;
    await expectRefused(() => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: UNKNOWN_ID }), 422, `Return '${UNKNOWN_ID}' not found`, 'return_id');
    await expectRefused(() => post(ctx, other.apiKey, REVERSE_ASSIGN, { return_id: returnId }), 422, `Return '${returnId}' not found`, 'return_id');
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, warehouse_id: other.warehouseId }),
      422,
      `warehouse_id is not this return's destination warehouse (${m.warehouseId})`,
      'warehouse_id',
    );
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, carrier_id: DTDC }),
      422,
      'DTDC Standard does not carry QC returns: omit carrier_id, or name a QC-capable courier',
      'carrier_id',
    );
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, carrier_id: 'CARNOSUCH0001' }),
      422,
      "carrier_id 'CARNOSUCH0001' is not a known courier service",
      'carrier_id',
    );
  });
});

describe('returns of forward shipments', () => {
  it('links a return to its forward shipment both ways (by forward_awb or forward_order_id)', async () => {
    const m = await merchant(ctx);
    const forward = await deliveredForward(m);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { forward_awb: forward.awb_code }));
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.forward_shipment).toEqual({ shipment_id: forward.shipment_id, order_id: forward.channel_order_id, awb_code: forward.awb_code });
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: payload.return_id, awb_code: payload.awb_code, status: 'return_pickup_scheduled' },
    });

    const second = await deliveredForward(m);
    const byOrder = await post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId, { forward_order_id: second.channel_order_id }));
    expect(byOrder.statusCode).toBe(200);
    expect(byOrder.json().payload.forward_shipment).toEqual({
      shipment_id: second.shipment_id,
      order_id: second.channel_order_id,
      awb_code: second.awb_code,
    });
  });

  it('the forward listing lists forward shipments only, with exact totals, whatever returns exist', async () => {
    const m = await merchant(ctx);
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    for (let i = 0; i < 2; i++) expect((await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId))).statusCode).toBe(200);
    const listing = (await post(ctx, m.apiKey, `${V1}/shipments`, {})).json();
    expect(listing.meta.total).toBe(1);
    expect(listing.data.map((row: { id: string }) => row.id)).toEqual([forward.shipment_id]);
    expect(listing.data[0].attributes.return).toBeNull();
  });

  it('refuses: unknown, another account’s, undelivered, already returned, and both link fields', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const theirs = await deliveredForward(other);
    const undelivered = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const returned = await deliveredForward(m);
    expect((await post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId, { forward_awb: returned.awb_code }))).statusCode).toBe(200);

    const cases: [Record<string, unknown>, string, string][] = [
      [{ forward_awb: 'SFX9999999999' }, "forward_awb 'SFX9999999999' names no forward shipment of this account", 'forward_awb'],
      [{ forward_awb: theirs.awb_code }, `forward_awb '${theirs.awb_code}' names no forward shipment of this account`, 'forward_awb'],
      [
        { forward_order_id: theirs.channel_order_id },
        `forward_order_id '${theirs.channel_order_id}' names no forward shipment of this account`,
        'forward_order_id',
      ],
      [
        { forward_awb: undelivered.awb_code },
        `The forward shipment ${undelivered.awb_code} is pending; only a delivered shipment can be returned`,
        'forward_awb',
      ],
      [{ forward_awb: returned.awb_code }, 'The forward shipment already has a return', 'forward_awb'],
    ];
    for (const [overrides, message, field] of cases) {
      for (const url of [REVERSE_ORDER, REVERSE_ORCHESTRATE]) {
        await expectRefused(() => post(ctx, m.apiKey, url, returnBody(m.warehouseId, overrides)), 422, message, field);
      }
    }
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId, { forward_awb: returned.awb_code, forward_order_id: returned.channel_order_id })),
      400,
      'Send forward_awb or forward_order_id, not both',
      'forward_order_id',
    );
  });
});

describe('refused returns write nothing', () => {
  const badRequests: [string, (warehouseId: string) => Record<string, unknown>, string, string][] = [
    ['QC item without an image', (w) => returnBody(w, { order_items: [qcItem('A', { qc_product_image: undefined })] }), 'order_items[0].qc_product_image is required when qc_enable is true', 'order_items[0].qc_product_image'],
    ['QC image not a URL', (w) => returnBody(w, { order_items: [plainItem, qcItem('A', { qc_product_image: 'kurta.jpg' })] }), 'order_items[1].qc_product_image must be an http(s) URL', 'order_items[1].qc_product_image'],
    ['QC image over ftp', (w) => returnBody(w, { order_items: [qcItem('A', { qc_product_image: 'ftp://cdn.acme.example/k.jpg' })] }), 'order_items[0].qc_product_image must be an http(s) URL', 'order_items[0].qc_product_image'],
    ['no pickup phone', (w) => returnBody(w, { pickup_phone: undefined }), 'pickup_phone is required', 'pickup_phone'],
    ['bad pickup phone', (w) => returnBody(w, { pickup_phone: '12345' }), 'pickup_phone must be a valid Indian phone number (10 digits)', 'pickup_phone'],
    ['bad pickup pincode', (w) => returnBody(w, { pickup_pincode: '999999' }), 'pickup_pincode 999999 is not a valid Indian pincode', 'pickup_pincode'],
    ['bad order date', (w) => returnBody(w, { order_date: '2026-02-30' }), 'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp', 'order_date'],
    ['discount over value', (w) => returnBody(w, { total_discount: 500 }), 'total_discount must not exceed the order value (sub_total)', 'total_discount'],
    ['carrier on reverse-order', (w) => returnBody(w, { carrier_id: DTDC }), 'carrier_id belongs to reverse-order-shipment or reverse-order-orchestration', 'carrier_id'],
  ];
  it.each(badRequests)('400: %s', async (_name, body, message, field) => {
    const m = await merchant(ctx);
    await expectRefused(() => post(ctx, m.apiKey, REVERSE_ORDER, body(m.warehouseId)), 400, message, field);
  });

  it('400: every independent problem together: date, phone, pincode, discount, each QC item, carrier_id (issue 16)', async () => {
    const m = await merchant(ctx);
    const body = returnBody(m.warehouseId, {
      order_date: '2026-02-30',
      pickup_phone: '12345',
      pickup_pincode: '999999',
      total_discount: 500,
      order_items: [qcItem('A', { qc_product_image: undefined }), plainItem, qcItem('B', { qc_product_image: 'kurta.jpg' })],
      carrier_id: DTDC,
    });
    await expectProblems(() => post(ctx, m.apiKey, REVERSE_ORDER, body), [
      { field: 'order_date', message: 'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp' },
      { field: 'pickup_phone', message: 'pickup_phone must be a valid Indian phone number (10 digits)' },
      { field: 'pickup_pincode', message: 'pickup_pincode 999999 is not a valid Indian pincode' },
      { field: 'total_discount', message: 'total_discount must not exceed the order value (sub_total)' },
      { field: 'order_items[0].qc_product_image', message: 'order_items[0].qc_product_image is required when qc_enable is true' },
      { field: 'order_items[2].qc_product_image', message: 'order_items[2].qc_product_image must be an http(s) URL' },
      { field: 'carrier_id', message: 'carrier_id belongs to reverse-order-shipment or reverse-order-orchestration' },
    ]);
  });

  it('400: without warehouse_id, every missing destination field, after the pickup address’s problems', async () => {
    const m = await merchant(ctx);
    const missing = ['customer_name', 'address', 'city', 'state', 'country', 'pincode', 'phone'].map((name) => ({
      field: `shipping_${name}`,
      message: `shipping_${name} is required unless warehouse_id is given`,
    }));
    await expectProblems(() => post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(undefined, { pickup_phone: '12345' })), [
      { field: 'pickup_phone', message: 'pickup_phone must be a valid Indian phone number (10 digits)' },
      ...missing,
    ]);
  });

  it('400: a COD return (a return is never cash on delivery)', async () => {
    const m = await merchant(ctx);
    const before = await counts();
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { payment_method: 'COD' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ field: 'payment_method', message: 'payment_method must be PREPAID: a return is never cash on delivery' }]);
    expect(await counts()).toEqual(before);
  });

  it('422: unknown warehouse, another pincode than the warehouse’s, duplicate order_id, no courier, unknown or unserviceable carrier', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ORDER, returnBody(other.warehouseId)),
      422,
      `Warehouse '${other.warehouseId}' not found: create it first`,
      'warehouse_id',
    );
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId, { ...shippingAddress, shipping_pincode: '400050' })),
      422,
      'shipping_pincode 400050 is not the pincode of warehouse_id (110001)',
      'shipping_pincode',
    );
    const body = returnBody(m.warehouseId);
    expect((await post(ctx, m.apiKey, REVERSE_ORDER, body)).statusCode).toBe(200);
    await expectRefused(() => post(ctx, m.apiKey, REVERSE_ORDER, { ...body }), 422, `Return '${body.order_id}' already exists`, 'order_id');
    for (const overrides of [{ pickup_pincode: '900056' }, { weight: 100 }]) {
      await expectRefused(
        () => post(ctx, m.apiKey, REVERSE_ORDER, returnBody(m.warehouseId, overrides)),
        422,
        'No courier service can carry this return: check the pincodes and weight',
      );
    }
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { carrier_id: 'CARNOSUCH0001' })),
      422,
      "carrier_id 'CARNOSUCH0001' is not a known courier service",
      'carrier_id',
    );
    await expectRefused(
      () => post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { carrier_id: 'CARXPBS250G01', order_items: [plainItem], weight: 5 })),
      422,
      'Xpressbees 250 g cannot carry this return: the applicable weight 5000 g is above its maximum of 2000 g',
      'carrier_id',
    );
  });
});

describe('cancel-order with return AWBs', () => {
  const CANCEL = `${V1}/cancel-order`;

  it('cancels a booked return once, beside forward AWBs; another account’s return AWB is not found', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const ret = (await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId))).json().payload;
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const theirs = (await post(ctx, other.apiKey, REVERSE_ORCHESTRATE, returnBody(other.warehouseId))).json().payload;

    const response = await post(ctx, m.apiKey, CANCEL, { awbs: [ret.awb_code, forward.awb_code, theirs.awb_code, ret.awb_code] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '2 of 4 shipments cancelled',
      results: [
        { awb: ret.awb_code, cancelled: true, message: 'Return cancelled' },
        { awb: forward.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: theirs.awb_code, cancelled: false, message: 'AWB not found' },
        { awb: ret.awb_code, cancelled: false, message: 'Shipment is already cancelled' },
      ],
    });
    const again = await post(ctx, m.apiKey, CANCEL, { awbs: [ret.awb_code] });
    expect(again.json().results).toEqual([{ awb: ret.awb_code, cancelled: false, message: 'Return is already cancelled' }]);
    const [row] = await queryRows<{ status: string }>(ctx.database.db, sql`select status from returns where id = ${theirs.return_id}`);
    expect(row!.status).toBe('return_pickup_scheduled');
  });

  it('a cancelled return frees its forward shipment for a new return; the listing shows the live one', async () => {
    const m = await merchant(ctx);
    const forward = await deliveredForward(m);
    const first = (await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { forward_awb: forward.awb_code }))).json().payload;
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [first.awb_code] })).json().results[0].cancelled).toBe(true);
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: first.return_id, status: 'return_cancelled' },
    });
    const second = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, returnBody(m.warehouseId, { forward_awb: forward.awb_code }));
    expect(second.statusCode).toBe(200);
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: second.json().payload.return_id, status: 'return_pickup_scheduled' },
    });
  });
});
