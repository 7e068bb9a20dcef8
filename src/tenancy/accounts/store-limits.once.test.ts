import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, CANCEL, FORWARD_ORDER, ORDER_TRACKING, RATES, SHIPMENTS, STORES, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin, type JoinedMember } from '../../../test/kit/members.js';
import { book, type Booked, orderBodyFromFields } from '../../../test/kit/orders.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's store-limited members and keys: a 3PL or a brand manager sees and acts on their
// stores' orders and shipments only; another store's is not found, as another account's is; a
// route answering for every store at once is refused; what they make never reaches further.

const PASSWORD = 'correct horse battery staple';
let ctx: TestContext;
let owner: { id: string; apiKey: string };
let warehouseId: string;
let shoes: { id: string; store_name: string };
let bags: { id: string; store_name: string };
let inShoes: Booked;
let inBags: Booked;
let storeless: Booked;
let manager: JoinedMember;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Store Limits');
  warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
  shoes = await createStore(ctx, owner.apiKey, { store_name: 'acme-shoes' });
  bags = await createStore(ctx, owner.apiKey, { store_name: 'acme-bags' });
  // A minute apart: the listing's newest-first order is their booking order.
  inShoes = await book(ctx, owner.apiKey, warehouseId, { storeName: 'acme-shoes', orderId: 'SHOES-1' });
  ctx.clock.advance(60_000);
  inBags = await book(ctx, owner.apiKey, warehouseId, { storeName: 'acme-bags', orderId: 'BAGS-1' });
  ctx.clock.advance(60_000);
  storeless = await book(ctx, owner.apiKey, warehouseId, { orderId: 'NONE-1' });
  manager = await inviteAndJoin(ctx, owner.apiKey, {
    email: 'shoes.manager@acme.example',
    role: 'admin',
    password: PASSWORD,
    stores: [shoes.id],
  });
});
afterAll(async () => {
  await ctx?.close();
});

const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: object, payload?: object) =>
  ctx.app.inject({ method, url, headers: { ...headers }, ...(payload && { payload }) });
const listed = async (headers: object, filters: object = {}) => {
  const response = await send('POST', SHIPMENTS, headers, filters);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return {
    total: body.meta.total as number,
    awbs: body.data.map((row: { attributes: { tracking_number: string } }) => row.attributes.tracking_number),
  };
};
const outside = (kind: string, named: string) => ({
  code: 'outside_credential_stores',
  message: `${kind} ${named}: not found among this credential's stores`,
});

describe('a member limited to one store', () => {
  it("lists that store's shipments and stores only, whatever the filters ask", async () => {
    expect(await listed(authed(owner.apiKey))).toEqual({
      total: 3,
      awbs: [storeless.awb_code, inBags.awb_code, inShoes.awb_code],
    });
    expect(await listed(manager.headers)).toEqual({ total: 1, awbs: [inShoes.awb_code] });
    expect(await listed(manager.headers, { store_name: 'acme-bags' })).toEqual({ total: 0, awbs: [] });
    expect(await listed(manager.headers, { display_id: ['BAGS-1'] })).toEqual({ total: 0, awbs: [] });
    const stores = await send('GET', STORES, manager.headers);
    expect(stores.json().data.map((store: { id: string }) => store.id)).toEqual([shoes.id]);
    expect((await send('GET', `${STORES}/${shoes.id}`, manager.headers)).statusCode).toBe(200);
    const other = await send('GET', `${STORES}/${bags.id}`, manager.headers);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject(outside('store', bags.id));
  });

  it("finds another store's shipment nowhere: tracking, cancelling and re-attempting it are 404 and change nothing", async () => {
    const tracked = await send('POST', ORDER_TRACKING, manager.headers, { awbs: [inBags.awb_code] });
    expect(tracked.statusCode).toBe(404);
    expect(tracked.json()).toMatchObject(outside('shipment', inBags.awb_code!));
    expect((await send('POST', ORDER_TRACKING, manager.headers, { awbs: [inShoes.awb_code] })).statusCode).toBe(200);
    // A shipment of no store is outside every store's limit.
    const none = await send('POST', CANCEL, manager.headers, { awbs: [storeless.awb_code, inBags.awb_code] });
    expect(none.statusCode).toBe(404);
    expect(none.json().errors).toEqual([
      `shipment ${storeless.awb_code}: not found among this credential's stores`,
      `shipment ${inBags.awb_code}: not found among this credential's stores`,
    ]);
    const byId = await send('POST', CANCEL, manager.headers, { shipment_id: inBags.shipment_id });
    expect(byId.json()).toMatchObject(outside('shipment', inBags.shipment_id));
    const rto = await send('POST', `${V1}/initiate-rto`, manager.headers, { awb: inBags.awb_code });
    expect(rto.statusCode).toBe(404);
    const [row] = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from shipments where id = ${inBags.shipment_id}`,
    );
    expect(row!.status).toBe('pending');
    const audited = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from audit_log where account_id = ${owner.id} and object_id = ${inBags.shipment_id}`,
    );
    expect(audited[0]!.n).toBe(0);
  });

  it("books only into its own store, and changes only its own store's orders", async () => {
    const body = orderBodyFromFields(warehouseId, { orderId: 'SHOES-2' });
    const unnamed = await send('POST', FORWARD_ORDER, manager.headers, body);
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json()).toMatchObject({
      code: 'store_required',
      details: [
        {
          field: 'store_name',
          message: 'store_name: this credential is limited to stores, so an order it books names one of them',
        },
      ],
    });
    const elsewhere = await send('POST', FORWARD_ORDER, manager.headers, { ...body, store_name: 'ACME-BAGS' });
    expect(elsewhere.json()).toMatchObject(outside('store', 'ACME-BAGS'));
    const orders = () =>
      queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from orders where merchant_order_id = 'SHOES-2'`,
      );
    expect((await orders())[0]!.n).toBe(0);
    const own = await send('POST', FORWARD_ORDER, manager.headers, { ...body, store_name: 'acme-shoes' });
    expect(own.statusCode, own.body).toBe(200);
    expect((await listed(manager.headers, { display_id: ['SHOES-2'] })).total).toBe(1);
    const change = await send('PUT', `${V1}/order`, manager.headers, { order_id: 'BAGS-1', billing_city: 'Pune' });
    expect(change.json()).toMatchObject(outside('order', 'BAGS-1'));
    const move = await send('PUT', `${V1}/order`, manager.headers, { order_id: 'SHOES-2', store_name: 'acme-bags' });
    expect(move.json()).toMatchObject(outside('store', 'acme-bags'));
  });

  it("counts its own store's shipments only in the summary report", async () => {
    const report = async (headers: object) => {
      const response = await send('POST', `${V1}/reports`, headers, {
        start_date_time: '2026-11-01 00:00',
        end_date_time: '2026-11-30 23:59',
        shipment_type: 'forward',
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().payload.summary.total_shipments;
    };
    // The owner's three and SHOES-2 booked above; the manager's two of the shoes store.
    expect([await report(authed(owner.apiKey)), await report(manager.headers)]).toEqual([4, 2]);
  });

  it('is refused the routes that answer for every store, and keeps those of no store', async () => {
    const feed = await send('GET', `${V1}/events`, manager.headers);
    expect(feed.statusCode).toBe(403);
    expect(feed.json()).toMatchObject({
      code: 'store_limited',
      message: 'This route answers for every store of the account; this credential reaches 1 of them',
    });
    const rates = await send('POST', RATES, manager.headers, {
      journey_type: 'forward',
      origin_pincode: '110001',
      destination_pincode: '400001',
      dead_weight: 500,
      length: 10,
      width: 10,
      height: 10,
      payment_method: 'prepaid',
    });
    expect(rates.statusCode, rates.body).toBe(200);
  });
});

describe('what a limited credential makes, and limits given and changed', () => {
  it("makes keys within its stores only, and a key's limit holds as the member's does", async () => {
    const made = await send('POST', `${V1}/api-keys`, manager.headers, { name: 'Shoes printer' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.stores).toEqual([shoes.id]);
    expect(await listed(authed(made.json().data.api_key))).toEqual({
      total: 2,
      // SHOES-2, booked above without a courier, has no AWB yet.
      awbs: [null, inShoes.awb_code],
    });
    const beyond = await send('POST', `${V1}/api-keys`, manager.headers, { stores: [shoes.id, bags.id] });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json()).toMatchObject({
      code: 'permission_denied',
      details: [{ field: 'stores.1', message: "is beyond this credential's stores" }],
    });
    const every = await send('POST', `${V1}/api-keys`, manager.headers, { stores: null });
    expect(every.json()).toMatchObject({
      code: 'permission_denied',
      message: 'stores: this credential is limited to 1 store(s), so what it makes is too: name them',
    });
  });

  it("lets the owner limit a key to any of the account's stores, never to another account's", async () => {
    const stranger = await ctx.createAccount('Another Brand');
    const theirs = await createStore(ctx, stranger.apiKey, { store_name: 'their-store' });
    const refused = await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { stores: [bags.id, theirs.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'store_not_of_account',
      details: [{ field: 'stores.1', message: 'is not a store of this account' }],
    });
    const bagsKey = await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { stores: [bags.id] });
    expect(bagsKey.json().data.stores).toEqual([bags.id]);
    expect(await listed(authed(bagsKey.json().data.api_key))).toEqual({ total: 1, awbs: [inBags.awb_code] });
    const badShape = await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { stores: [] });
    expect(badShape.statusCode).toBe(400);
    expect(badShape.json().details).toEqual([
      {
        field: 'stores',
        message: 'stores must be a list of 1 to 100 store ids (GET /client-stores), or null for every store',
      },
    ]);
  });

  it('widens a member at once when the owner changes their stores, and writes the change down', async () => {
    const changed = await send('PATCH', `${V1}/members/${manager.id}`, authed(owner.apiKey), {
      stores: [shoes.id, bags.id],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.stores).toEqual([shoes.id, bags.id]);
    expect((await listed(manager.headers)).total).toBe(3);
    const [entry] = await queryRows<{ action: string; changes: object }>(
      ctx.database.db,
      sql`select action, changes from audit_log where account_id = ${owner.id} and action = 'member.changed'`,
    );
    expect(entry).toEqual({
      action: 'member.changed',
      changes: { stores: { after: [shoes.id, bags.id], before: [shoes.id] } },
    });
    const unlimited = await send('PATCH', `${V1}/members/${manager.id}`, authed(owner.apiKey), { stores: null });
    expect(unlimited.json().data.stores).toBeNull();
    expect((await listed(manager.headers)).total).toBe(4);
  });
});

describe('the store table against every route', () => {
  it('refuses a limited key, before its body is read, every route that answers for every store, and writes nothing', async () => {
    const key = (await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { stores: [shoes.id] })).json().data;
    const paths = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths as Record<
      string,
      Record<string, { 'x-stores'?: string }>
    >;
    const audit = async () =>
      (await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from audit_log`))[0]!.n;
    const before = await audit();
    const every: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      if (!path.startsWith(V1)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (operation['x-stores'] !== 'every') continue;
        every.push(`${method.toUpperCase()} ${path}`);
        const url = path.replace(/\{[^}]+\}/g, '0b0e7b7e-3c4f-4f3a-9d61-5d7a1c2b3e4f');
        const response = await ctx.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: authed(key.api_key),
        });
        expect([response.statusCode, response.json().code], `${method} ${path}`).toEqual([403, 'store_limited']);
      }
    }
    expect(every.length).toBeGreaterThan(50);
    expect(every).toEqual(
      expect.arrayContaining(['GET /custom/api/v1/events', 'POST /custom/api/v1/kept-scans/replay']),
    );
    expect(await audit()).toBe(before);
  });
});

// Last: its parcels would change the counts above.
describe('pickups of a limited member', () => {
  it("asks pickups of its own store's parcels only, and sees no pickup holding another store's", async () => {
    const PICKUPS = `${V1}/pickups`;
    const parcel = async (storeName: string) =>
      (await book(ctx, owner.apiKey, warehouseId, { storeName, carrierId: SHADOWFAX })).awb_code!;
    const [shoesA, shoesB, bagsA, bagsB] = [
      await parcel('acme-shoes'),
      await parcel('acme-shoes'),
      await parcel('acme-bags'),
      await parcel('acme-bags'),
    ];
    // A key of its own: the member was given every store above.
    const key = await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { stores: [shoes.id] });
    const limited = authed(key.json().data.api_key);
    const ask = { warehouse_id: warehouseId, carrier_id: SHADOWFAX };
    const every = await send('POST', PICKUPS, limited, ask);
    expect([every.statusCode, every.json().code, every.json().details?.[0]?.field], every.body).toEqual([
      422,
      'store_required',
      'awbs',
    ]);
    const mixed = await send('POST', PICKUPS, limited, { ...ask, awbs: [shoesA, bagsA] });
    expect(mixed.json()).toMatchObject(outside('shipment', bagsA));
    const theirs = await send('POST', PICKUPS, authed(owner.apiKey), { ...ask, awbs: [shoesB, bagsB] });
    expect(theirs.statusCode, theirs.body).toBe(201);
    ctx.clock.advance(60_000);
    const own = await send('POST', PICKUPS, limited, { ...ask, awbs: [shoesA] });
    expect(own.statusCode, own.body).toBe(201);
    const [ownId, theirId] = [own.json().data.id, theirs.json().data.id];
    const listed = (headers: object) =>
      send('GET', PICKUPS, headers).then((r) => r.json().data.map((p: { id: string }) => p.id));
    expect(await listed(limited)).toEqual([ownId]);
    expect(await listed(authed(owner.apiKey))).toEqual([ownId, theirId]);
    for (const url of [`${PICKUPS}/${theirId}`, `${PICKUPS}/${theirId}/manifest.pdf`])
      expect((await send('GET', url, limited)).json(), url).toMatchObject(outside('pickup', theirId));
    expect((await send('GET', `${PICKUPS}/${ownId}/manifest.pdf`, limited)).statusCode).toBe(200);
  });
});
