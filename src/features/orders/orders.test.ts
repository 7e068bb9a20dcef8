import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { ASSIGN, authed, CANCEL, FORWARD_ORDER, ORCHESTRATE, post, RATES, STORES, UNKNOWN_ID, UUID } from '../../../test/kit/http.js';
import { codOrderBody, DELIVERY_PIN, nextOrderId, orchestrate, orderBody, type OrderPayload, TRACK_URL } from '../../../test/kit/orders.js';
import { expectNothingWritten, orderCounts } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant, WAREHOUSE_PIN } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { NO_ROUTING } from '../../http/examples.js';
import { defaultRatesContext } from '../../data-files.js';

const catalogue = defaultRatesContext().catalogue;
const prefixOf = (carrierId: string) => catalogue.byId.get(carrierId)!.awbPrefix;
const LABEL_URL = /^https:\/\/dakiya\.test\/public\/v1\/labels\/([0-9a-f-]{36})\?expires=(\d+)&signature=([A-Za-z0-9_-]{43})$/;
const DAY_SECONDS = 24 * 60 * 60;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

interface RateEntry {
  carrier_id: string;
  carrier_name: string;
  charges: { forward_freight_charges: number; cod_charges: number; rto_charges: number; total_forward_charges: number };
  expected_delivery: { pickup: string; delivery: string };
}

/** POST /rates for the same lane and parcel as an order body. */
async function ratesFor(apiKey: string, body: Record<string, unknown>, origin = WAREHOUSE_PIN): Promise<RateEntry[]> {
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

async function shipmentRow(shipmentId: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select status, sub_status, carrier_id, awb, freight_paise::int as freight, cod_charges_paise::int as cod_charges,
          rto_charges_paise::int as rto_charges, is_cod, cod_amount_paise::int as cod_amount, total_price_paise::int as total_price,
          zone, applied_weight_grams, store_id, channel, ${iso('cancelled_at')}, ${iso('assigned_at')}
        from shipments where id = ${shipmentId}`,
  );
  return row!;
}

async function milestones(shipmentId: string): Promise<string[]> {
  const rows = await queryRows<{ milestone: string }>(
    ctx.database.db,
    sql`select milestone from shipment_milestones where shipment_id = ${shipmentId} order by milestone`,
  );
  return rows.map((row) => row.milestone);
}

const awbSequence = (awb: string) => Number(awb.slice(3));

/** A booking's charges for the quote it was booked on: the quote's numbers, and Velocity's strings beside them. */
function bookedCharges(quote: RateEntry['charges'], deadWeightBilling = true) {
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

/** The test clock's start (06:30Z) is 12:00 in India; Velocity's answers write it so. */
const NOW_IN_INDIA = { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' };
const BOOKING_MILESTONES = ['courier_assigned', 'expected_delivery_date', 'order_created', 'original_expected_delivery_date'];

/** A timestamp column as an ISO 8601 string: the two drivers hand raw timestamps back differently. */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`);

describe('POST /custom/api/v1/forward-order', () => {
  it('creates the order and one pending shipment with no courier yet', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const before = await orderCounts(ctx.database);
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        order_id: expect.stringMatching(UUID),
        channel_order_id: body.order_id,
        shipment_id: expect.stringMatching(UUID),
        status: 'pending',
        store_name: null,
        zone: 'zone_c',
        applied_weight: 0.5,
        cod: 0,
        awb_code: null,
        courier_company_id: null,
        courier_name: null,
        label_url: null,
        track_url: null,
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
        assigned_date_time: NOW_IN_INDIA,
        manifest_url: null,
        ...NO_ROUTING,
      },
    });
    expect(payload.order_id).not.toBe(payload.shipment_id);
    expect(await orderCounts(ctx.database)).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      shipments: before.shipments + 1,
      shipment_milestones: before.shipment_milestones + 1,
      awb_counters_total: before.awb_counters_total,
    });

    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select id, merchant_order_id, channel, store_id, warehouse_id, ${iso('order_date')}, payment_method,
            sub_total_paise::int as sub_total, cod_collectible_paise::int as cod, weight_grams, tags, shipping_is_billing,
            shipping_name, shipping_phone, shipping_pincode
          from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      id: payload.order_id,
      merchant_order_id: body.order_id,
      channel: 'manual_order',
      store_id: null,
      warehouse_id: m.warehouseId,
      order_date: '2026-11-20T09:00:00.000Z',
      payment_method: 'prepaid',
      sub_total: 99800,
      cod: 0,
      weight_grams: 500,
      tags: [],
      shipping_is_billing: true,
      shipping_name: 'Asha',
      shipping_phone: '9123456780',
      shipping_pincode: DELIVERY_PIN,
    });
    expect(await shipmentRow(payload.shipment_id)).toMatchObject({
      status: 'pending',
      carrier_id: null,
      awb: null,
      freight: null,
      is_cod: false,
      zone: 'C',
      applied_weight_grams: 500,
      store_id: null,
      channel: 'manual_order',
      assigned_at: null,
    });
    expect(await milestones(payload.shipment_id)).toEqual(['order_created']);
  });

  it("links the store named case-insensitively and answers the store's own store_name", async () => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'Acme-Apparel', brand_name: 'Acme Apparel' });
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId, { store_name: 'aCME-apparel' }));
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.store_name).toBe('Acme-Apparel');
    const [row] = await queryRows<{ order_store: string; shipment_store: string }>(
      ctx.database.db,
      sql`select o.store_id as order_store, s.store_id as shipment_store
          from orders o join shipments s on s.order_id = o.id where o.id = ${payload.order_id}`,
    );
    expect(row).toEqual({ order_store: store.id, shipment_store: store.id });
  });

  it('takes the payment method in any case, an ISO 8601 order_date, numeric pincodes, tags and optional item fields', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, {
      payment_method: 'cod',
      cod_collectible: 500,
      order_date: '2026-11-19T10:15:00Z',
      billing_pincode: 400001,
      tags: ['festive', 'priority'],
      channel_id: 'web-7',
      order_items: [
        { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499 },
        { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, selling_price: 0, discount: 0 },
      ],
    });
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.cod).toBe(1);
    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select ${iso('order_date')}, payment_method, cod_collectible_paise::int as cod, billing_pincode, tags from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      order_date: '2026-11-19T10:15:00.000Z',
      payment_method: 'cod',
      cod: 50000,
      billing_pincode: '400001',
      tags: ['festive', 'priority'],
    });
    const items = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select position, name, sku, units, selling_price_paise::int as price from order_items where order_id = ${payload.order_id} order by position`,
    );
    expect(items).toEqual([
      { position: 0, name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, price: 49900 },
      { position: 1, name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, price: 0 },
    ]);
    expect(await shipmentRow(payload.shipment_id)).toMatchObject({ is_cod: true, cod_amount: 50000, total_price: 99800 });
  });

  it('ships to the shipping_* address when shipping_is_billing is false: the zone follows it', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId, {
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_last_name: 'Sharma',
      shipping_address: '4 Chandni Chowk',
      shipping_city: 'Delhi',
      shipping_pincode: '110006',
      shipping_state: 'Delhi',
      shipping_country: 'India',
      shipping_phone: '+91 98111 22233',
      shipping_email: 'ravi@example.com',
    });
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.zone).toBe('zone_a');
    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select shipping_is_billing, billing_name, billing_pincode, shipping_name, shipping_last_name, shipping_address,
            shipping_city, shipping_pincode, shipping_state, shipping_phone, shipping_email
          from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      shipping_is_billing: false,
      billing_name: 'Asha',
      billing_pincode: DELIVERY_PIN,
      shipping_name: 'Ravi',
      shipping_last_name: 'Sharma',
      shipping_address: '4 Chandni Chowk',
      shipping_city: 'Delhi',
      shipping_pincode: '110006',
      shipping_state: 'Delhi',
      shipping_phone: '9811122233',
      shipping_email: 'ravi@example.com',
    });
  });

  it('refuses an order no courier can carry (422), writing nothing', async () => {
    const m = await merchant(ctx);
    const message = 'No courier service can carry this shipment: check the pincodes, weight and payment method';
    for (const overrides of [{ billing_pincode: '900056' }, { weight: 100 }]) {
      for (const url of [FORWARD_ORDER, ORCHESTRATE]) {
        const response = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, orderBody(m.warehouseId, overrides)));
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ message, errors: [message] });
      }
    }
  });
});

describe('POST /custom/api/v1/forward-order-shipment', () => {
  async function pendingShipment(m: { apiKey: string; warehouseId: string }, body = orderBody(m.warehouseId)) {
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    return response.json().payload as OrderPayload;
  }

  it('books the cheapest courier when carrier_id is omitted: the same service and charges as POST /rates', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const pending = await pendingShipment(m, body);
    const [cheapest] = await ratesFor(m.apiKey, body);
    const response = await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id });
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        ...pending,
        awb_code: expect.stringMatching(new RegExp(`^${prefixOf(cheapest!.carrier_id)}\\d{10}$`)),
        courier_company_id: cheapest!.carrier_id,
        courier_name: cheapest!.carrier_name,
        label_url: expect.stringMatching(LABEL_URL),
        track_url: expect.stringMatching(TRACK_URL),
        charges: bookedCharges(cheapest!.charges),
        awb_generated: 1,
        label_generated: 1,
        pickup_generated: 1,
        pickup_scheduled_date: cheapest!.expected_delivery.pickup,
        pickup_booked_date: '2026-11-20 12:00:00',
        expected_delivery_date: cheapest!.expected_delivery.delivery,
      },
    });
    expect(await shipmentRow(pending.shipment_id)).toMatchObject({
      status: 'pending',
      carrier_id: cheapest!.carrier_id,
      awb: payload.awb_code,
      freight: Math.round(cheapest!.charges.forward_freight_charges * 100),
      cod_charges: 0,
      rto_charges: Math.round(cheapest!.charges.rto_charges * 100),
      assigned_at: ctx.clock.now().toISOString(),
    });
    expect(await milestones(pending.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it('prices a COD shipment on the amount collected, like POST /rates with that shipment_value', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, { sub_total: 9000, cod_collectible: 5000 });
    const pending = await pendingShipment(m, body);
    const [cheapest] = await ratesFor(m.apiKey, body);
    expect(cheapest!.charges.cod_charges).toBeGreaterThan(0);
    const payload = (await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id })).json().payload;
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.charges).toEqual(bookedCharges(cheapest!.charges));
    expect(payload.cod).toBe(1);
  });

  it('books the named carrier_id at its own quoted charges', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const pending = await pendingShipment(m, body);
    const named = (await ratesFor(m.apiKey, body)).find((c) => c.carrier_id === 'CARDELHSURF01')!;
    const response = await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: 'CARDELHSURF01' });
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.courier_company_id).toBe('CARDELHSURF01');
    expect(payload.courier_name).toBe('Delhivery Surface');
    expect(payload.awb_code).toMatch(/^DLS\d{10}$/);
    expect(payload.charges).toEqual(bookedCharges(named.charges));
  });

  it.each([
    [{ billing_pincode: '194101' }, 'CARDELHAIR001', 'Delhivery Air cannot carry this shipment: it does not serve Ladakh'],
    [
      {},
      'CARDELH5KG001',
      'Delhivery Surface 5 kg cannot carry this shipment: the applicable weight 500 g is below its minimum of 3000 g',
    ],
    [
      { weight: 21 },
      'CARDELHSURF01',
      'Delhivery Surface cannot carry this shipment: the applicable weight 21000 g is above its maximum of 20000 g',
    ],
    [
      { billing_pincode: '190001', payment_method: 'COD', cod_collectible: 998 },
      'CARXPBSSTD001',
      'Xpressbees Standard cannot carry this shipment: it offers no cash on delivery in Jammu and Kashmir',
    ],
  ])('refuses a named carrier that cannot carry the shipment (%j, %s) with 422 saying why', async (overrides, carrierId, message) => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m, orderBody(m.warehouseId, overrides));
    const response = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'carrier_id', message }] });
    expect(await shipmentRow(pending.shipment_id)).toMatchObject({ awb: null, carrier_id: null });
  });

  it('refuses an unknown carrier_id (422)', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    for (const carrierId of ['CARNOSUCH0001', 'fedex']) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
      );
      expect(response.statusCode).toBe(422);
      const message = `carrier_id '${carrierId}' is not a known courier service`;
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'carrier_id', message }] });
    }
  });

  it('refuses to assign a courier twice (422), keeping the first AWB', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    const first = (await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id })).json().payload;
    const message = 'A courier is already assigned to this shipment';
    for (const carrierId of [undefined, 'CARDELHSURF01']) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'shipment_id', message }] });
    }
    // An orchestrated shipment already has its courier too.
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await post(ctx, m.apiKey, ASSIGN, { shipment_id: booked.shipment_id })).statusCode).toBe(422);
    expect((await shipmentRow(pending.shipment_id)).awb).toBe(first.awb_code);
  });

  it('lets exactly one of two concurrent assignments win', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    const responses = await Promise.all([
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }),
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: 'CARDELHSURF01' }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const winner = responses.find((r) => r.statusCode === 200)!.json().payload;
    expect((await shipmentRow(pending.shipment_id)).awb).toBe(winner.awb_code);
    expect(await milestones(pending.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it("refuses an unknown shipment_id and another account's (422), touching neither", async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aPending = await pendingShipment(a);
    for (const shipmentId of [UNKNOWN_ID, aPending.shipment_id]) {
      const response = await expectNothingWritten(ctx.database, () => post(ctx, b.apiKey, ASSIGN, { shipment_id: shipmentId }));
      expect(response.statusCode).toBe(422);
      const message = `Shipment '${shipmentId}' not found`;
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'shipment_id', message }] });
    }
    expect(await shipmentRow(aPending.shipment_id)).toMatchObject({ awb: null, carrier_id: null });
  });

  it('refuses a shipment that is no longer pending (422)', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    // No route moves an unbooked shipment out of pending yet: set the state directly.
    await ctx.database.db.execute(sql`update shipments set status = 'cancelled' where id = ${pending.shipment_id}`);
    const response = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(['The shipment is cancelled; only a pending shipment can be booked']);
  });
});

describe('POST /custom/api/v1/forward-order-orchestration', () => {
  it('creates, books and answers every field of the payload', async () => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'Orchestra-Shop', brand_name: 'Orchestra' });
    const body = orderBody(m.warehouseId, { store_name: 'orchestra-shop' });
    const [cheapest] = await ratesFor(m.apiKey, body);
    const before = await orderCounts(ctx.database);
    const response = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(Object.keys(payload)).toEqual([
      'order_id',
      'channel_order_id',
      'shipment_id',
      'status',
      'store_name',
      'zone',
      'applied_weight',
      'cod',
      'awb_code',
      'courier_company_id',
      'courier_name',
      'label_url',
      'track_url',
      'charges',
      'pickup_location_added',
      'order_created',
      'awb_generated',
      'label_generated',
      'pickup_generated',
      'manifest_generated',
      'pickup_scheduled_date',
      'pickup_booked_date',
      'expected_delivery_date',
      'assigned_date_time',
      'manifest_url',
      'routing_code',
      'rto_routing_code',
      'pickup_token_number',
    ]);
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        order_id: expect.stringMatching(UUID),
        channel_order_id: body.order_id,
        shipment_id: expect.stringMatching(UUID),
        status: 'pending',
        store_name: 'Orchestra-Shop',
        zone: 'zone_c',
        applied_weight: 0.5,
        cod: 0,
        awb_code: expect.stringMatching(new RegExp(`^${prefixOf(cheapest!.carrier_id)}\\d{10}$`)),
        courier_company_id: cheapest!.carrier_id,
        courier_name: cheapest!.carrier_name,
        label_url: expect.stringMatching(LABEL_URL),
        track_url: expect.stringMatching(TRACK_URL),
        charges: bookedCharges(cheapest!.charges),
        pickup_location_added: 1,
        order_created: 1,
        awb_generated: 1,
        label_generated: 1,
        pickup_generated: 1,
        manifest_generated: 0,
        pickup_scheduled_date: cheapest!.expected_delivery.pickup,
        pickup_booked_date: '2026-11-20 12:00:00',
        expected_delivery_date: cheapest!.expected_delivery.delivery,
        assigned_date_time: NOW_IN_INDIA,
        manifest_url: null,
        ...NO_ROUTING,
      },
    });
    expect(payload.charges.total_forward_charges).toBe(payload.charges.forward_freight_charges + payload.charges.cod_charges);

    const [, shipmentId, expires] = LABEL_URL.exec(payload.label_url)!;
    expect(payload.label_url.startsWith(`${PUBLIC_BASE_URL}/`)).toBe(true);
    expect(shipmentId).toBe(payload.shipment_id);
    expect(Number(expires)).toBe(ctx.clock.now().getTime() / 1000 + DAY_SECONDS);

    expect(await orderCounts(ctx.database)).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      shipments: before.shipments + 1,
      shipment_milestones: before.shipment_milestones + 4,
      awb_counters_total: before.awb_counters_total + 1,
    });
    expect(await shipmentRow(payload.shipment_id)).toMatchObject({
      status: 'pending',
      carrier_id: cheapest!.carrier_id,
      awb: payload.awb_code,
      store_id: store.id,
      assigned_at: ctx.clock.now().toISOString(),
    });
    expect(await milestones(payload.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it.each([
    [{ weight: 0.5, length: 10, breadth: 10, height: 10 }, 0.5],
    [{ weight: 2.35, length: 10, breadth: 10, height: 10 }, 2.35],
    [{ weight: 0.5, length: 20, breadth: 20, height: 20 }, 1.6],
    [{ weight: 0.25, length: 30, breadth: 20, height: 12.5 }, 1.5],
  ])('answers applied_weight in kg, the larger of dead and volumetric (%j → %s kg)', async (parcel, kg) => {
    const m = await merchant(ctx);
    const payload = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, parcel));
    expect(payload.applied_weight).toBe(kg);
    expect((await shipmentRow(payload.shipment_id)).applied_weight_grams).toBe(kg * 1000);
  });

  it('books COD with its COD charge and prepaid without one, each matching POST /rates', async () => {
    const m = await merchant(ctx);
    const cod = codOrderBody(m.warehouseId);
    const prepaid = orderBody(m.warehouseId);
    const [codQuote] = await ratesFor(m.apiKey, cod);
    const [prepaidQuote] = await ratesFor(m.apiKey, prepaid);

    const codBooking = await orchestrate(ctx, m.apiKey, cod);
    expect(codBooking.cod).toBe(1);
    expect(codBooking.courier_company_id).toBe(codQuote!.carrier_id);
    expect(codBooking.charges).toEqual(bookedCharges(codQuote!.charges));
    expect(codBooking.charges!.cod_charges).toBeGreaterThan(0);
    expect(await shipmentRow(codBooking.shipment_id)).toMatchObject({ is_cod: true, cod_amount: 99800 });

    const prepaidBooking = await orchestrate(ctx, m.apiKey, prepaid);
    expect(prepaidBooking.cod).toBe(0);
    expect(prepaidBooking.courier_company_id).toBe(prepaidQuote!.carrier_id);
    expect(prepaidBooking.charges).toEqual(bookedCharges(prepaidQuote!.charges));
    expect(prepaidBooking.charges!.cod_charges).toBe(0);
    expect(await shipmentRow(prepaidBooking.shipment_id)).toMatchObject({ is_cod: false, cod_amount: 0 });
  });

  it('books the named carrier_id, and refuses one that cannot carry the shipment writing nothing', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARBLDTAIR001' }));
    expect(booked.courier_company_id).toBe('CARBLDTAIR001');
    expect(booked.courier_name).toBe('Blue Dart Air');
    expect(booked.awb_code).toMatch(/^BDA\d{10}$/);

    const message = 'Delhivery Air cannot carry this shipment: it does not serve Ladakh';
    const refused = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ORCHESTRATE, orderBody(m.warehouseId, { billing_pincode: '194101', carrier_id: 'CARDELHAIR001' })),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ message, errors: [message], details: [{ field: 'carrier_id', message }] });

    const unknown = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ORCHESTRATE, orderBody(m.warehouseId, { carrier_id: 'CARNOSUCH0001' })),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual(["carrier_id 'CARNOSUCH0001' is not a known courier service"]);
  });

  it('ships to the shipping_* address when shipping_is_billing is false', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, {
      shipping_is_billing: false,
      shipping_customer_name: 'Meera',
      shipping_address: '22 Park Street',
      shipping_city: 'Kolkata',
      shipping_pincode: '700016',
      shipping_state: 'West Bengal',
      shipping_country: 'India',
      shipping_phone: '09830012345',
    });
    const [cheapest] = await ratesFor(m.apiKey, body);
    const payload = await orchestrate(ctx, m.apiKey, body);
    expect(payload.zone).toBe('zone_c');
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.charges).toEqual(bookedCharges(cheapest!.charges));
    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select shipping_name, shipping_city, shipping_pincode, shipping_phone, billing_city from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      shipping_name: 'Meera',
      shipping_city: 'Kolkata',
      shipping_pincode: '700016',
      shipping_phone: '9830012345',
      billing_city: 'Mumbai',
    });
  });
});

describe('AWB numbers', () => {
  it("number each courier's shipments in its own series, one after another", async () => {
    const m = await merchant(ctx);
    const cheapest: OrderPayload[] = [];
    for (let i = 0; i < 3; i++) cheapest.push(await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId)));
    const prefix = prefixOf(cheapest[0]!.courier_company_id!);
    expect(cheapest.map((p) => p.awb_code!.slice(0, 3))).toEqual([prefix, prefix, prefix]);
    const first = awbSequence(cheapest[0]!.awb_code!);
    expect(cheapest.map((p) => awbSequence(p.awb_code!))).toEqual([first, first + 1, first + 2]);

    const dls = [
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARDELHSURF01' })),
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARDELHSURF01' })),
    ];
    expect(dls.map((p) => p.awb_code!.slice(0, 3))).toEqual(['DLS', 'DLS']);
    expect(awbSequence(dls[1]!.awb_code!)).toBe(awbSequence(dls[0]!.awb_code!) + 1);

    // Another booking with the cheapest courier continues its own series, untouched by DLS.
    const next = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect(next.awb_code).toBe(`${prefix}${String(first + 3).padStart(10, '0')}`);
  });

  it('are unique under concurrent bookings, across accounts, with no number handed out twice', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const bookings = await Promise.all(
      Array.from({ length: 20 }, (_, i) => orchestrate(ctx, i % 2 ? a.apiKey : b.apiKey, orderBody(i % 2 ? a.warehouseId : b.warehouseId))),
    );
    const awbs = bookings.map((p) => p.awb_code!);
    expect(new Set(awbs).size).toBe(20);
    const prefix = prefixOf(bookings[0]!.courier_company_id!);
    expect(awbs.every((awb) => awb.startsWith(prefix))).toBe(true);
    const numbers = awbs.map(awbSequence).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => numbers[0]! + i));
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(distinct awb)::int as n from shipments where awb in (${sql.join(awbs.map((awb) => sql`${awb}`), sql`, `)})`,
    );
    expect(Number(row!.n)).toBe(20);
  });
});

describe('store_name on orders', () => {
  const routes = [FORWARD_ORDER, ORCHESTRATE];

  it.each(routes)('%s refuses an unknown store_name (422), writing nothing', async (url) => {
    const m = await merchant(ctx);
    await createStore(ctx, m.apiKey, { store_name: 'Real-Shop' });
    const message = "Store 'ghost-shop' not found: create it first";
    const response = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, orderBody(m.warehouseId, { store_name: 'ghost-shop' })));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'store_name', message }] });
  });

  it.each(routes)("%s refuses another account's store_name (422), writing nothing", async (url) => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    await createStore(ctx, a.apiKey, { store_name: 'A-Only-Shop', brand_name: 'A brand' });
    const message = "Store 'A-Only-Shop' not found: create it first";
    const response = await expectNothingWritten(ctx.database, () => post(ctx, b.apiKey, url, orderBody(b.warehouseId, { store_name: 'A-Only-Shop' })));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'store_name', message }] });
  });

  it.each(routes)('%s refuses a disconnected store (422), writing nothing', async (url) => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'Closed-Shop' });
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `${STORES}/${store.id}`, headers: authed(m.apiKey) });
    expect(deleted.statusCode).toBe(200);
    const message = "Store 'Closed-Shop' is not active";
    for (const name of ['Closed-Shop', 'closed-shop']) {
      const response = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, orderBody(m.warehouseId, { store_name: name })));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'store_name', message }] });
    }
  });

  it.each(routes)('%s links no store when store_name is omitted', async (url) => {
    const m = await merchant(ctx);
    await createStore(ctx, m.apiKey, { store_name: 'Some-Shop' });
    const response = await post(ctx, m.apiKey, url, orderBody(m.warehouseId));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.store_name).toBeNull();
    expect((await shipmentRow(response.json().payload.shipment_id)).store_id).toBeNull();
  });
});

describe('order_id uniqueness', () => {
  it.each([
    [FORWARD_ORDER, FORWARD_ORDER, false],
    [FORWARD_ORDER, ORCHESTRATE, true],
    [ORCHESTRATE, FORWARD_ORDER, false],
    [ORCHESTRATE, ORCHESTRATE, true],
  ])('refuses a second order with the same order_id (%s then %s: 422), writing nothing', async (firstUrl, secondUrl, awbGap) => {
    const m = await merchant(ctx);
    const orderId = nextOrderId('DUP');
    expect((await post(ctx, m.apiKey, firstUrl, orderBody(m.warehouseId, { order_id: orderId }))).statusCode).toBe(200);
    const message = `Order '${orderId}' already exists`;
    const response = await expectNothingWritten(
      ctx.database,
      () => post(ctx, m.apiKey, secondUrl, codOrderBody(m.warehouseId, { order_id: orderId })),
      { awbGap },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'order_id', message }] });
  });

  it('lets two accounts use the same order_id', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const orderId = nextOrderId('SHARED');
    const first = await orchestrate(ctx, a.apiKey, orderBody(a.warehouseId, { order_id: orderId }));
    const second = await orchestrate(ctx, b.apiKey, orderBody(b.warehouseId, { order_id: orderId }));
    expect(first.channel_order_id).toBe(orderId);
    expect(second.channel_order_id).toBe(orderId);
    expect(first.order_id).not.toBe(second.order_id);
  });

  it.each([FORWARD_ORDER, ORCHESTRATE])('%s: of two concurrent requests with one order_id, exactly one wins', async (url) => {
    const m = await merchant(ctx);
    const orderId = nextOrderId('RACE');
    const before = await orderCounts(ctx.database);
    const responses = await Promise.all([
      post(ctx, m.apiKey, url, orderBody(m.warehouseId, { order_id: orderId })),
      post(ctx, m.apiKey, url, orderBody(m.warehouseId, { order_id: orderId })),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    expect(responses.find((r) => r.statusCode === 422)!.json().errors).toEqual([`Order '${orderId}' already exists`]);
    const after = await orderCounts(ctx.database);
    expect([after.orders, after.order_items, after.shipments]).toEqual([before.orders + 1, before.order_items + 1, before.shipments + 1]);
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from orders where merchant_order_id = ${orderId}`,
    );
    expect(Number(row!.n)).toBe(1);
  });
});

describe('POST /custom/api/v1/cancel-order', () => {
  const cancel = (apiKey: string, awbs: unknown) => post(ctx, apiKey, CANCEL, { awbs });

  it('cancels a pending shipment, then reports it already cancelled', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    ctx.clock.advance(60_000);
    const first = await cancel(m.apiKey, [booked.awb_code]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: '1 of 1 shipment cancelled', results: [{ awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' }] });
    expect(await shipmentRow(booked.shipment_id)).toMatchObject({
      status: 'cancelled',
      sub_status: 'cancelled_by_merchant',
      cancelled_at: ctx.clock.now().toISOString(),
    });
    expect(await milestones(booked.shipment_id)).toEqual(['cancelled', ...BOOKING_MILESTONES]);

    const again = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, [booked.awb_code]));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: false, message: 'Shipment is already cancelled' }],
    });
  });

  it("reports unknown AWBs and another account's as not found, leaving the other account's shipment pending", async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aBooking = await orchestrate(ctx, a.apiKey, orderBody(a.warehouseId));
    const response = await cancel(b.apiKey, [aBooking.awb_code, 'DLS9999999999', 'nonsense']);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '0 of 3 shipments cancelled',
      results: [
        { awb: aBooking.awb_code, cancelled: false, message: 'AWB not found' },
        { awb: 'DLS9999999999', cancelled: false, message: 'AWB not found' },
        { awb: 'nonsense', cancelled: false, message: 'AWB not found' },
      ],
    });
    expect((await shipmentRow(aBooking.shipment_id)).status).toBe('pending');
  });

  it('answers each AWB in the order asked, a repeated AWB once cancelled then already cancelled', async () => {
    const m = await merchant(ctx);
    const one = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const two = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const response = await cancel(m.apiKey, [two.awb_code, 'UNKNOWN-1', one.awb_code, two.awb_code]);
    expect(response.json()).toEqual({
      message: '2 of 4 shipments cancelled',
      results: [
        { awb: two.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: 'UNKNOWN-1', cancelled: false, message: 'AWB not found' },
        { awb: one.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: two.awb_code, cancelled: false, message: 'Shipment is already cancelled' },
      ],
    });
  });

  it('refuses to cancel a shipment that is past pending', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    // Tracking events would move it; this test sets the state directly.
    await ctx.database.db.execute(sql`update shipments set status = 'in_transit' where id = ${booked.shipment_id}`);
    const response = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, [booked.awb_code]));
    expect(response.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: false, message: 'Shipment is in_transit and can no longer be cancelled' }],
    });
    expect((await shipmentRow(booked.shipment_id)).status).toBe('in_transit');
  });

  it('takes up to 50 AWBs and refuses more, or none (400)', async () => {
    const m = await merchant(ctx);
    const fifty = Array.from({ length: 50 }, (_, i) => `NOPE${i}`);
    const ok = await cancel(m.apiKey, fifty);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results).toHaveLength(50);

    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const message = 'awbs must list 1 to 50 AWBs';
    for (const awbs of [[...fifty, booked.awb_code], []]) {
      const response = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, awbs));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'awbs', message }] });
    }
    for (const payload of [{}, { awbs: booked.awb_code }, { awbs: [''] }, { awbs: [true] }]) {
      const response = await post(ctx, m.apiKey, CANCEL, payload);
      expect(response.statusCode).toBe(400);
    }
    expect((await shipmentRow(booked.shipment_id)).status).toBe('pending');
  });
});

describe('tenant isolation and credentials', () => {
  it.each([FORWARD_ORDER, ORCHESTRATE])("%s refuses another account's warehouse_id, and an unknown one (422)", async (url) => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    for (const warehouseId of [a.warehouseId, UNKNOWN_ID, 'WH-1']) {
      const response = await expectNothingWritten(ctx.database, () => post(ctx, b.apiKey, url, orderBody(warehouseId)));
      expect(response.statusCode).toBe(422);
      const message = `Warehouse '${warehouseId}' not found: create it first`;
      expect(response.json()).toEqual({ message, errors: [message], details: [{ field: 'warehouse_id', message }] });
    }
  });

  it('answers 401 on every order route without a valid credential, writing nothing', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const requests: [string, object][] = [
      [FORWARD_ORDER, orderBody(m.warehouseId)],
      [ORCHESTRATE, orderBody(m.warehouseId)],
      [ASSIGN, { shipment_id: booked.shipment_id }],
      [CANCEL, { awbs: [booked.awb_code] }],
    ];
    for (const [url, payload] of requests) {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-key' }]) {
        const response = await expectNothingWritten(ctx.database, () => ctx.app.inject({ method: 'POST', url, headers, payload }));
        expect(response.statusCode).toBe(401);
        expect(response.body).not.toContain(booked.awb_code!);
      }
    }
    expect((await shipmentRow(booked.shipment_id)).status).toBe('pending');
  });
});
