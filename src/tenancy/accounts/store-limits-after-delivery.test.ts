import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { exchange, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { authed, CANCEL, ORDER_TRACKING, STORES, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { deliveredForward, returnBody } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's store-limited credentials, for what follows a delivery: buyers' return requests and
// refunds, returns and exchanges (a return's store is its forward shipment's), cash on delivery
// and weight disputes. A key limited to one store of two lists that store's rows only, and finds
// the other's nowhere, by id or by AWB (store-limits.test.ts: the shipments themselves).

let ctx: TestContext;
let owner: { id: string; apiKey: string };
let warehouseId: string;
let shoes: { id: string; store_name: string };
let bags: { id: string; store_name: string };
let inShoes: Booked;
let inBags: Booked;
/** A key limited to the shoes store. */
let limited: { authorization: string };

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Store Limits After Delivery');
  warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
  shoes = await createStore(ctx, owner.apiKey, { store_name: 'acme-shoes' });
  bags = await createStore(ctx, owner.apiKey, { store_name: 'acme-bags' });
  inShoes = await book(ctx, owner.apiKey, warehouseId, { storeName: 'acme-shoes', orderId: 'SHOES-1' });
  inBags = await book(ctx, owner.apiKey, warehouseId, { storeName: 'acme-bags', orderId: 'BAGS-1' });
  const key = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/api-keys`,
    headers: authed(owner.apiKey),
    payload: { stores: [shoes.id] },
  });
  limited = authed(key.json().data.api_key);
});
afterAll(async () => {
  await ctx?.close();
});

const send = (method: 'GET' | 'POST' | 'PUT', url: string, headers: object, payload?: object) =>
  ctx.app.inject({ method, url, headers: { ...headers }, ...(payload && { payload }) });
const outside = (kind: string, named: string) => ({
  code: 'outside_credential_stores',
  message: `${kind} ${named}: not found among this credential's stores`,
});

describe("a store's return requests, refunds and cash on delivery", () => {
  it("lists and opens its own store's requests only; another store's is not found, nor decided", async () => {
    const policy = { window_days: 10, reasons: ['size_issue'], non_returnable_skus: [], non_returnable_categories: [] };
    for (const store of [shoes, bags])
      expect((await send('PUT', `${STORES}/${store.id}/return-policy`, authed(owner.apiKey), policy)).statusCode).toBe(
        200,
      );
    const asked: Record<string, string> = {};
    for (const store of [shoes, bags]) {
      const forward = await deliveredForward(
        ctx,
        { apiKey: owner.apiKey, warehouseId },
        { storeName: store.store_name },
      );
      const made = await send('POST', `${V1}/return-requests`, authed(owner.apiKey), {
        shipment_id: forward.shipment_id,
        items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
      });
      expect(made.statusCode, made.body).toBe(201);
      asked[store.store_name] = made.json().data.id;
    }
    const listed = await send('GET', `${V1}/return-requests`, limited);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((request: { id: string }) => request.id)).toEqual([asked['acme-shoes']]);
    expect((await send('GET', `${V1}/return-requests/${asked['acme-shoes']}`, limited)).statusCode).toBe(200);
    const other = await send('GET', `${V1}/return-requests/${asked['acme-bags']}`, limited);
    expect(other.json()).toMatchObject(outside('return_request', asked['acme-bags']!));
    const rejected = await send('POST', `${V1}/return-requests/${asked['acme-bags']}/reject`, limited, {
      message: 'Worn',
    });
    expect(rejected.statusCode).toBe(404);
    const [row] = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from return_requests where id = ${asked['acme-bags']}`,
    );
    expect(row!.status).toBe('pending');
    expect((await send('GET', `${V1}/refunds`, limited)).json().data).toEqual([]);
  });

  it("lists and exports its own store's COD receivables only", async () => {
    const awbs: Record<string, string> = {};
    for (const store of [shoes, bags])
      awbs[store.store_name] = (
        await deliveredForward(ctx, { apiKey: owner.apiKey, warehouseId }, { storeName: store.store_name, cod: true })
      ).awb_code!;
    const owned = await send('GET', `${V1}/cod/receivables`, authed(owner.apiKey));
    expect(
      owned
        .json()
        .data.map((row: { awb: string }) => row.awb)
        .sort(),
    ).toEqual([awbs['acme-shoes'], awbs['acme-bags']].sort());
    const theirs = await send('GET', `${V1}/cod/receivables`, limited);
    expect(theirs.json().data.map((row: { awb: string }) => row.awb)).toEqual([awbs['acme-shoes']]);
    const exported = await send('GET', `${V1}/cod/receivables/export`, limited);
    const lines = exported.body.trim().split('\r\n');
    expect([lines.length, lines[1]?.includes(awbs['acme-shoes']!)]).toEqual([2, true]);
  });

  it("lists and opens its own store's weight disputes only", async () => {
    const report = await send('POST', `${V1}/weight-reports`, authed(owner.apiKey), {
      file: `awb,charged_weight_g\n${inShoes.awb_code},5000\n${inBags.awb_code},5000\n`,
    });
    expect(report.statusCode, report.body).toBe(200);
    const opened = report.json().data.opened as { id: string; awb: string }[];
    const idOf = (awb: string | null) => opened.find((row) => row.awb === awb)!.id;
    const listed = await send('GET', `${V1}/weight-disputes`, limited);
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([idOf(inShoes.awb_code)]);
    const other = await send('POST', `${V1}/weight-disputes/${idOf(inBags.awb_code)}/accept`, limited);
    expect(other.json()).toMatchObject(outside('weight_dispute', idOf(inBags.awb_code)));
    const accepted = await send('POST', `${V1}/weight-disputes/${idOf(inShoes.awb_code)}/accept`, limited);
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it("lists its own store's returns only, and finds another store's return nowhere, even by its AWB", async () => {
    const returned: Record<string, { return_id: string; awb_code: string }> = {};
    for (const store of [shoes, bags]) {
      const forward = await deliveredForward(
        ctx,
        { apiKey: owner.apiKey, warehouseId },
        { storeName: store.store_name },
      );
      const booked = await send('POST', `${V1}/reverse-order-orchestration`, authed(owner.apiKey), {
        ...returnBody(warehouseId),
        forward_awb: forward.awb_code,
      });
      expect(booked.statusCode, booked.body).toBe(200);
      returned[store.store_name] = booked.json().payload;
    }
    const listed = await send('POST', `${V1}/returns`, limited, {});
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed.json().data.map((row: { attributes: { tracking_number: string } }) => row.attributes.tracking_number),
    ).toEqual([returned['acme-shoes']!.awb_code]);
    const bagsReturn = returned['acme-bags']!;
    const cancelled = await send('POST', CANCEL, limited, { awbs: [bagsReturn.awb_code] });
    expect(cancelled.json()).toMatchObject(outside('return', bagsReturn.awb_code));
    const tracked = await send('POST', ORDER_TRACKING, limited, { awbs: [bagsReturn.awb_code] });
    expect(tracked.statusCode).toBe(404);
    const [row] = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from returns where id = ${bagsReturn.return_id}`,
    );
    expect(row!.status).not.toBe('cancelled');
  });

  it("lists its own store's exchanges only, an exchange being its replacement's store's", async () => {
    for (const store of [shoes, bags])
      await exchange(
        ctx,
        owner.apiKey,
        exchangeBody(warehouseId, { order_id: `EXC-${store.store_name}`, store_name: store.store_name }),
      );
    const listed = await send('POST', `${V1}/exchange-orders`, limited, {});
    expect(listed.statusCode, listed.body).toBe(200);
    expect([listed.body.includes('EXC-acme-shoes'), listed.body.includes('EXC-acme-bags')]).toEqual([true, false]);
    const everything = (await send('POST', `${V1}/exchange-orders`, authed(owner.apiKey), {})).body;
    expect([everything.includes('EXC-acme-shoes'), everything.includes('EXC-acme-bags')]).toEqual([true, true]);
  });
});
