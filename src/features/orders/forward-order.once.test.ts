import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { FORWARD_ORDER, ORCHESTRATE, post, UUID } from '../../../test/kit/http.js';
import { codOrderBody, DELIVERY_PIN, NOW_IN_INDIA, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten, isoColumn, milestoneNames, orderCounts, shipmentRow } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { NO_ROUTING } from '../../http/examples.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

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
        assigned_date_time: NOW_IN_INDIA,
        manifest_url: null,
        allocation: null,
        ...NO_ROUTING,
        // A prepaid order to a full address, and a buyer and area with no history yet.
        address_validity: 'valid',
        address_reasons: [],
        rto_risk: 'low',
        rto_risk_score: 0,
        rto_risk_reasons: [],
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
      sql`select id, merchant_order_id, channel, store_id, warehouse_id, ${isoColumn('order_date')}, payment_method,
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
    expect(await shipmentRow(ctx.database, payload.shipment_id)).toMatchObject({
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
    expect(await milestoneNames(ctx.database, payload.shipment_id)).toEqual(['order_created']);
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
      sql`select ${isoColumn('order_date')}, payment_method, cod_collectible_paise::int as cod, billing_pincode, tags from orders where id = ${payload.order_id}`,
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
    expect(await shipmentRow(ctx.database, payload.shipment_id)).toMatchObject({
      is_cod: true,
      cod_amount: 50000,
      total_price: 99800,
    });
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
        const response = await expectNothingWritten(ctx.database, () =>
          post(ctx, m.apiKey, url, orderBody(m.warehouseId, overrides)),
        );
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ code: 'no_courier_serves', message, errors: [message] });
      }
    }
  });
});
