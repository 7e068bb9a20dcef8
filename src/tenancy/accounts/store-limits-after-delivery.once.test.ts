import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { EXCHANGE, exchange, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { authed, CANCEL, ORDER_TRACKING, STORES, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { deliveredForward, returnBody } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { STORE_REACH } from '../../route-permissions.js';

// Issue 51's store-limited credentials, for what follows a delivery: buyers' return requests and
// refunds, returns and exchanges (a return's store is its forward shipment's), cash on delivery
// and weight disputes. A key limited to one store of two lists that store's rows only, and finds
// the other's nowhere, by id or by AWB (store-limits.once.test.ts: the shipments themselves).

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

const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: object, payload?: object) =>
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
    // Approved by the owner: a refund of the bags store, which the limited key's listing leaves out.
    const approved = await send(
      'POST',
      `${V1}/return-requests/${asked['acme-bags']}/approve`,
      authed(owner.apiKey),
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
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
    // Per AWB, Velocity's way: another store's AWB is not found, the whole request refused as another account's.
    for (const url of ['cod-remittance', 'settlement-status', 'shipping-charges']) {
      const other = await send('POST', `${V1}/${url}`, limited, { awbs: [awbs['acme-shoes'], awbs['acme-bags']] });
      expect(other.json(), url).toMatchObject(outside('shipment', awbs['acme-bags']!));
      const own = await send('POST', `${V1}/${url}`, limited, { awbs: [awbs['acme-shoes']] });
      expect([own.statusCode, own.body.includes(awbs['acme-shoes']!)], url).toEqual([200, true]);
    }
    // Paid short, each: remittances and discrepancies of both stores for the walk below.
    const file = `awb,amount,utr,remittance_date\n${awbs['acme-shoes']},1,UTIB9,2026-11-20\n${awbs['acme-bags']},1,UTIB9,2026-11-20\n`;
    expect((await send('POST', `${V1}/cod/remittance-files`, authed(owner.apiKey), { file })).statusCode).toBe(200);
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

  it("books returns of its own store's shipments only, a return without its forward shipment being of no store", async () => {
    const RETURN = `${V1}/reverse-order-orchestration`;
    const unplaced = await send('POST', RETURN, limited, returnBody(warehouseId));
    expect([unplaced.statusCode, unplaced.json()]).toEqual([
      422,
      expect.objectContaining({
        code: 'store_required',
        details: [
          {
            field: 'forward_awb',
            message:
              'forward_awb: this credential is limited to stores, so a return it books names the forward shipment it returns (forward_awb or forward_order_id)',
          },
        ],
      }),
    ]);
    const bagsForward = await deliveredForward(
      ctx,
      { apiKey: owner.apiKey, warehouseId },
      { storeName: 'acme-bags', orderId: 'BAGS-SOLD' },
    );
    // Padded as the service trims it, and by its order: another store's shipment either way.
    const padded = await send('POST', RETURN, limited, {
      ...returnBody(warehouseId),
      forward_awb: ` ${bagsForward.awb_code} `,
    });
    expect(padded.json()).toMatchObject(outside('shipment', bagsForward.awb_code!));
    const byOrder = await send('POST', RETURN, limited, {
      ...returnBody(warehouseId),
      forward_order_id: 'BAGS-SOLD',
    });
    expect(byOrder.json()).toMatchObject(outside('order', 'BAGS-SOLD'));
    const count = async () =>
      (await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from returns`))[0]!.n;
    const before = await count();
    await deliveredForward(
      ctx,
      { apiKey: owner.apiKey, warehouseId },
      { storeName: 'acme-shoes', orderId: 'SHOES-SOLD' },
    );
    const own = await send('POST', RETURN, limited, { ...returnBody(warehouseId), forward_order_id: 'SHOES-SOLD' });
    expect(own.statusCode, own.body).toBe(200);
    expect(await count()).toBe(before + 1);
    const listed = await send('POST', `${V1}/returns`, limited, {});
    expect(listed.body).toContain(own.json().payload.awb_code);
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

  it("books exchanges into its own store only, of its own store's orders", async () => {
    const body = exchangeBody(warehouseId, { order_id: 'EXC-LIMITED' });
    const unplaced = await send('POST', EXCHANGE, limited, body);
    expect([unplaced.statusCode, unplaced.json().code]).toEqual([422, 'store_required']);
    const elsewhere = await send('POST', EXCHANGE, limited, { ...body, store_name: 'acme-bags' });
    expect(elsewhere.json()).toMatchObject(outside('store', 'acme-bags'));
    const oldOrder = await send('POST', EXCHANGE, limited, {
      ...body,
      store_name: 'acme-shoes',
      original_order_id: 'BAGS-1',
    });
    expect(oldOrder.json()).toMatchObject(outside('order', 'BAGS-1'));
    const own = await send('POST', EXCHANGE, limited, { ...body, store_name: 'acme-shoes' });
    expect(own.statusCode, own.body).toBe(200);
    const exchanges = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from orders where merchant_order_id = 'EXC-LIMITED'`,
    );
    expect(exchanges[0]!.n).toBe(1);
  });
});

/** Every name a row of the store goes by: AWBs, ids, order ids, its name. */
const marksOf = async (storeId: string) =>
  (
    await queryRows<{ mark: string }>(
      ctx.database.db,
      sql`select awb as mark from shipments where store_id = ${storeId} and awb is not null
        union select id::text from shipments where store_id = ${storeId}
        union select merchant_order_id from orders where store_id = ${storeId}
        union select r.awb from returns r join shipments s on s.id = r.forward_shipment_id
          where s.store_id = ${storeId} and r.awb is not null
        union select id::text from return_requests where store_id = ${storeId}
        union select id::text from refunds where store_id = ${storeId}
        union select w.id::text from weight_discrepancies w join shipments s on s.id = w.shipment_id
          where s.store_id = ${storeId}
        union select distinct pickup_id::text from shipments where store_id = ${storeId} and pickup_id is not null
        union select store_name from stores where id = ${storeId}`,
    )
  ).map((row) => row.mark);

/** How the walk below asks each listing, report and export; `counts`: an answer of totals, not rows. */
const ASKED: Record<string, { payload?: object; query?: string; counts?: true }> = {
  'POST /shipments': { payload: {} },
  'POST /returns': { payload: {} },
  'POST /exchange-orders': { payload: {} },
  'POST /reports': {
    payload: { start_date_time: '2026-11-01 00:00', end_date_time: '2026-11-30 23:59', shipment_type: 'forward' },
    counts: true,
  },
  'GET /client-stores': {},
  'GET /cod/receivables': {},
  'GET /cod/receivables/export': {},
  'GET /cod/remittances': {},
  'GET /cod/remittances/export': {},
  'GET /cod/discrepancies': {},
  'GET /cod/discrepancies/export': {},
  'GET /cod/reconciliation': { counts: true },
  'GET /cod/reconciliation/export': { counts: true },
  'GET /return-requests': {},
  'GET /refunds': {},
  'GET /weight-disputes': {},
  'GET /pickups': {},
  'GET /shipping-charges': {},
  'GET /shipping-charges?format=csv': {},
  'GET /return-reports': { query: '?group_by=pincode', counts: true },
  'GET /return-reports/refunds': { counts: true },
};
/** Routes the store table keeps to a credential's stores that are not listings: what they make is. */
const NOT_LISTINGS = ['POST /api-keys'];

describe('the store table against every listing, report and export', () => {
  it("answers a limited key none of another store's rows, by any name, where the owner sees them", async () => {
    const filtered = [...STORE_REACH].filter(([, how]) => how === 'filtered').map(([route]) => route);
    expect(Object.keys(ASKED).map((route) => route.split('?')[0])).toEqual(
      expect.arrayContaining(filtered.filter((route) => !NOT_LISTINGS.includes(route))),
    );
    for (const parcel of [inShoes, inBags]) {
      const pickup = await send('POST', `${V1}/pickups`, authed(owner.apiKey), {
        warehouse_id: warehouseId,
        carrier_id: parcel.courier_company_id,
        awbs: [parcel.awb_code],
      });
      expect(pickup.statusCode, pickup.body).toBe(201);
    }
    const [marks, shoesMarks] = [await marksOf(bags.id), await marksOf(shoes.id)];
    expect(Math.min(marks.length, shoesMarks.length)).toBeGreaterThan(10);
    // A key that reaches no store: made by a member of both stores for the bags store alone, the
    // member then limited to the shoes store. Its answers are empty, never an error.
    const member = await inviteAndJoin(ctx, owner.apiKey, {
      email: 'both.stores@acme.example',
      role: 'admin',
      password: 'correct horse battery staple',
      stores: [shoes.id, bags.id],
    });
    const made = await send('POST', `${V1}/api-keys`, member.headers, { stores: [bags.id] });
    expect(made.statusCode, made.body).toBe(201);
    const narrowed = await send('PATCH', `${V1}/members/${member.id}`, authed(owner.apiKey), { stores: [shoes.id] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const nowhere = authed(made.json().data.api_key);
    for (const [route, how] of Object.entries(ASKED)) {
      const [method, path] = route.split(' ') as ['GET' | 'POST', string];
      const ask = (headers: object) => send(method, `${V1}${path}${how.query ?? ''}`, headers, how.payload);
      const [theirs, everything, none] = [await ask(limited), await ask(authed(owner.apiKey)), await ask(nowhere)];
      expect([theirs.statusCode, everything.statusCode, none.statusCode], `${route}: ${theirs.body}`).toEqual([
        200, 200, 200,
      ]);
      expect(
        marks.filter((mark) => theirs.body.includes(mark)),
        `${route} names another store's rows`,
      ).toEqual([]);
      expect(
        [...marks, ...shoesMarks].filter((mark) => none.body.includes(mark)),
        `${route} names a row to a key of no store`,
      ).toEqual([]);
      // The owner's answer shows what the limited key's leaves out: the walk has something to find.
      if (how.counts) expect(theirs.body, route).not.toBe(everything.body);
      else
        expect(
          marks.some((mark) => everything.body.includes(mark)),
          `${route} (owner)`,
        ).toBe(true);
    }
  });
});
