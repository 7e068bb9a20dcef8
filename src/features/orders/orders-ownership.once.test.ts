import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import {
  ASSIGN,
  authed,
  CANCEL,
  FORWARD_ORDER,
  ORCHESTRATE,
  post,
  STORES,
  UNKNOWN_ID,
} from '../../../test/kit/http.js';
import { codOrderBody, nextOrderId, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten, orderCounts, shipmentRow } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('store_name on orders', () => {
  const routes = [FORWARD_ORDER, ORCHESTRATE];

  it.each(routes)('%s refuses an unknown store_name (422), writing nothing', async (url) => {
    const m = await merchant(ctx);
    await createStore(ctx, m.apiKey, { store_name: 'Real-Shop' });
    const message = "Store 'ghost-shop' not found: create it first";
    const response = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, url, orderBody(m.warehouseId, { store_name: 'ghost-shop' })),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'order_store_unknown',
      message,
      errors: [message],
      details: [{ field: 'store_name', message }],
    });
  });

  it.each(routes)("%s refuses another account's store_name (422), writing nothing", async (url) => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    await createStore(ctx, a.apiKey, { store_name: 'A-Only-Shop', brand_name: 'A brand' });
    const message = "Store 'A-Only-Shop' not found: create it first";
    const response = await expectNothingWritten(ctx.database, () =>
      post(ctx, b.apiKey, url, orderBody(b.warehouseId, { store_name: 'A-Only-Shop' })),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'order_store_unknown',
      message,
      errors: [message],
      details: [{ field: 'store_name', message }],
    });
  });

  it.each(routes)('%s refuses a disconnected store (422), writing nothing', async (url) => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'Closed-Shop' });
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `${STORES}/${store.id}`, headers: authed(m.apiKey) });
    expect(deleted.statusCode).toBe(200);
    const message = "Store 'Closed-Shop' is not active";
    for (const name of ['Closed-Shop', 'closed-shop']) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, url, orderBody(m.warehouseId, { store_name: name })),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'order_store_inactive',
        message,
        errors: [message],
        details: [{ field: 'store_name', message }],
      });
    }
  });

  it.each(routes)('%s links no store when store_name is omitted', async (url) => {
    const m = await merchant(ctx);
    await createStore(ctx, m.apiKey, { store_name: 'Some-Shop' });
    const response = await post(ctx, m.apiKey, url, orderBody(m.warehouseId));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.store_name).toBeNull();
    expect((await shipmentRow(ctx.database, response.json().payload.shipment_id)).store_id).toBeNull();
  });
});

describe('order_id uniqueness', () => {
  it.each([
    [FORWARD_ORDER, FORWARD_ORDER, false],
    [FORWARD_ORDER, ORCHESTRATE, true],
    [ORCHESTRATE, FORWARD_ORDER, false],
    [ORCHESTRATE, ORCHESTRATE, true],
  ])(
    'refuses a second order with the same order_id (%s then %s: 422), writing nothing',
    async (firstUrl, secondUrl, awbGap) => {
      const m = await merchant(ctx);
      const orderId = nextOrderId('DUP');
      expect((await post(ctx, m.apiKey, firstUrl, orderBody(m.warehouseId, { order_id: orderId }))).statusCode).toBe(
        200,
      );
      const message = `Order '${orderId}' already exists`;
      const response = await expectNothingWritten(
        ctx.database,
        () => post(ctx, m.apiKey, secondUrl, codOrderBody(m.warehouseId, { order_id: orderId })),
        { awbGap },
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'order_id_taken',
        message,
        errors: [message],
        details: [{ field: 'order_id', message }],
      });
    },
  );

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

  it.each([FORWARD_ORDER, ORCHESTRATE])(
    '%s: of two concurrent requests with one order_id, exactly one wins',
    async (url) => {
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
      expect([after.orders, after.order_items, after.shipments]).toEqual([
        before.orders + 1,
        before.order_items + 1,
        before.shipments + 1,
      ]);
      const [row] = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from orders where merchant_order_id = ${orderId}`,
      );
      expect(Number(row!.n)).toBe(1);
    },
  );
});

describe('tenant isolation and credentials', () => {
  it.each([FORWARD_ORDER, ORCHESTRATE])(
    "%s refuses another account's warehouse_id, and an unknown one (422)",
    async (url) => {
      const a = await merchant(ctx);
      const b = await merchant(ctx);
      for (const warehouseId of [a.warehouseId, UNKNOWN_ID, 'WH-1']) {
        const response = await expectNothingWritten(ctx.database, () =>
          post(ctx, b.apiKey, url, orderBody(warehouseId)),
        );
        expect(response.statusCode).toBe(422);
        const message = `Warehouse '${warehouseId}' not found: create it first`;
        expect(response.json()).toEqual({
          code: 'order_warehouse_unknown',
          message,
          errors: [message],
          details: [{ field: 'warehouse_id', message }],
        });
      }
    },
  );

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
        const response = await expectNothingWritten(ctx.database, () =>
          ctx.app.inject({ method: 'POST', url, headers, payload }),
        );
        expect(response.statusCode).toBe(401);
        expect(response.body).not.toContain(booked.awb_code!);
      }
    }
    expect((await shipmentRow(ctx.database, booked.shipment_id)).status).toBe('pending');
  });
});
