import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { BLUEDART_AIR, DELHIVERY_SURFACE, DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, MINUTE, post } from '../../../test/kit/http.js';
import { book, type Booked, type OrderFields } from '../../../test/kit/orders.js';
import { list } from '../../../test/kit/shipments.js';
import { createStore } from '../../../test/kit/stores.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';


/**
 * Nine shipments of one account, created a minute apart from 06:30Z (index = creation order), with
 * every listing column controlled:
 *
 *  # | from   | to      | zone | COD | weight g | courier   | skus                     | tags           | store       | status
 *  0 | Delhi  | Mumbai  | C    |     |   500    | Shadowfax | KURTA-M-BLUE             | gift           | Fashion-Hub | delivered
 *  1 | Delhi  | Jaipur  | D    | yes |  1200    | Delhivery | SAREE-RED, KURTA-M-BLUE  | priority, gift | home-goods  | ndr_raised
 *  2 | Delhi  | Kochi   | E    | yes |   250    | Blue Dart | MUG-SET                  |                |             | rto_initiated
 *  3 | Delhi  | Delhi   | A    |     |  3000    | DTDC      | YOGA-MAT                 | fragile        | Fashion-Hub | in_transit
 *  4 | Mumbai | Pune    | B    |     |   800    | Shadowfax | KURTA-M-BLUE             | b2b            |             | cancelled
 *  5 | Delhi  | Mumbai  | C    | yes |   500    | (none)    | SOCKS-3PK                |                | home-goods  | pending
 *  6 | Mumbai | Delhi   | C    | yes |  2000    | Delhivery | SAREE-RED                | gift, gift     | Fashion-Hub | delivered
 *  7 | Delhi  | Jaipur  | D    |     |   200    | Shadowfax | TEE-S                    |                |             | others (lost)
 *  8 | Delhi  | Kochi   | E    |     |  1000    | DTDC      | KURTA-M-BLUE             | priority       | home-goods  | rto_delivered
 */
const ROWS: (OrderFields & { warehouse: 'W1' | 'W2'; assign?: false })[] = [
  { warehouse: 'W1', to: 'mumbai', value: 998, weight: 0.5, carrierId: SHADOWFAX, items: [item('KURTA-M-BLUE')], tags: ['gift'], storeName: 'Fashion-Hub', customer: 'Asha', lastName: 'Menon', phone: '9123456780', email: 'asha@mail.test', orderDate: '2026-11-01 10:00' },
  { warehouse: 'W1', to: 'jaipur', cod: true, value: 1500, weight: 1.2, carrierId: DELHIVERY_SURFACE, items: [item('SAREE-RED'), item('KURTA-M-BLUE')], tags: ['priority', 'gift'], storeName: 'home-goods', customer: 'Ravi', lastName: 'Kumar', phone: '9988776655', email: 'ravi@mail.test', orderDate: '2026-11-05 10:00' },
  { warehouse: 'W1', to: 'kochi', cod: true, value: 450, weight: 0.25, carrierId: BLUEDART_AIR, items: [item('MUG-SET')], customer: 'Meera', lastName: 'Nair', phone: '9000012345', email: 'meera@mail.test', orderDate: '2026-11-10 10:00' },
  { warehouse: 'W1', to: 'delhi', value: 2000, weight: 3, carrierId: DTDC, items: [item('YOGA-MAT')], tags: ['fragile'], storeName: 'Fashion-Hub', customer: 'John', lastName: "D'Souza", phone: '9811122233', email: 'john@mail.test', orderDate: '2026-11-15 10:00', orderId: 'ORD_100%OFF' },
  { warehouse: 'W2', to: 'pune', value: 700, weight: 0.8, carrierId: SHADOWFAX, items: [item('KURTA-M-BLUE')], tags: ['b2b'], customer: 'Zoya', lastName: 'Khan', phone: '9876501234', email: 'zoya@mail.test', orderDate: '2026-11-18 10:00', orderId: 'BS\\7' },
  { warehouse: 'W1', to: 'mumbai', cod: true, value: 999, weight: 0.5, items: [item('SOCKS-3PK')], storeName: 'home-goods', customer: 'Imran', lastName: 'Qureshi', phone: '9123400000', email: 'imran@mail.test', orderDate: '2026-11-19 10:00', assign: false },
  { warehouse: 'W2', to: 'delhi', cod: true, value: 1200, weight: 2, carrierId: DELHIVERY_SURFACE, items: [item('SAREE-RED')], tags: ['gift', 'gift'], storeName: 'Fashion-Hub', customer: 'Priya', lastName: 'Sharma', phone: '9567812345', email: 'priya@mail.test', orderDate: '2026-11-19 18:00', orderId: 'SHOP-ABC-6006' },
  { warehouse: 'W1', to: 'jaipur', value: 300, weight: 0.1, carrierId: SHADOWFAX, items: [item('TEE-S')], customer: 'Karan', lastName: 'Mehta', phone: '7012345678', email: 'karan@mail.test', orderDate: '2026-11-20 09:00' },
  { warehouse: 'W1', to: 'kochi', value: 850, weight: 1, carrierId: DTDC, items: [item('KURTA-M-BLUE')], tags: ['priority'], storeName: 'home-goods', customer: 'Divya', lastName: 'Iyer', phone: '8012345678', email: 'divya@mail.test', orderDate: '2026-11-20 11:00' },
];

function item(sku: string) {
  return { name: `Item ${sku}`, sku, units: 1, selling_price: 100 };
}

let ctx: TestContext;
let apiKey: string;
let W1: string;
let W2: string;
let booked: Booked[];
/** Shipment ids of the given rows, in the listing's default order (newest first). */
const ids = (...rows: number[]) => [...rows].sort((a, b) => b - a).map((i) => booked[i]!.shipment_id);
const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8];
/** The ids a filter lists; its meta.total must be exactly that many (whichever way it is counted). */
async function filtered(body: Record<string, unknown>): Promise<string[]> {
  const { data, meta } = await list(ctx, apiKey, { per_page: 100, ...body });
  expect(meta.total).toBe(data.length);
  return data.map((s) => s.id);
}

beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await ctx.createAccount());
  W1 = await createCityWarehouse(ctx, apiKey, 'delhi');
  W2 = await createCityWarehouse(ctx, apiKey, 'mumbai');
  await createStore(ctx, apiKey, { store_name: 'Fashion-Hub' });
  await createStore(ctx, apiKey, { store_name: 'home-goods' });
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  booked = [];
  for (const { warehouse, assign, ...fields } of ROWS) {
    booked.push(await book(ctx, apiKey, warehouse === 'W1' ? W1 : W2, fields, assign !== false));
    ctx.clock.advance(MINUTE);
  }
  expect(booked.map((b) => b.zone)).toEqual(['zone_c', 'zone_d', 'zone_e', 'zone_a', 'zone_b', 'zone_c', 'zone_c', 'zone_d', 'zone_e']);

  ctx.clock.set('2026-11-20T08:00:00.000Z');
  const cancel = await post(ctx, apiKey, CANCEL, { awbs: [booked[4]!.awb_code] });
  expect(cancel.json().results[0].cancelled).toBe(true);

  ctx.clock.set('2026-11-25T00:00:00.000Z');
  const awb = (i: number) => booked[i]!.awb_code!;
  const scans: Record<string, CarrierEvent[]> = {
    [SHADOWFAX]: [
      { awb: awb(0), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z' },
      { awb: awb(0), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb: awb(0), status: 'delivered', sub_status: 'delivered', event_time: '2026-11-22T06:00:00Z' },
      { awb: awb(7), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T15:00:00Z' },
      { awb: awb(7), status: 'others', sub_status: 'lost', event_time: '2026-11-21T15:00:00Z' },
    ],
    [DELHIVERY_SURFACE]: [
      { awb: awb(1), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T11:00:00Z' },
      { awb: awb(1), status: 'out_for_delivery', event_time: '2026-11-22T05:00:00Z' },
      { awb: awb(1), status: 'ndr_raised', sub_status: 'customer_unavailable', ndr_reason: 'customer_unavailable', event_time: '2026-11-22T09:00:00Z' },
      { awb: awb(6), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T14:00:00Z' },
      { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
      { awb: awb(6), status: 'ndr_raised', sub_status: 'cod_not_ready', event_time: '2026-11-21T09:00:00Z' },
      { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb: awb(6), status: 'ndr_raised', sub_status: 'customer_unavailable', event_time: '2026-11-22T09:00:00Z' },
      { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-23T04:00:00Z' },
      { awb: awb(6), status: 'delivered', sub_status: 'delivered', event_time: '2026-11-23T07:00:00Z' },
    ],
    [BLUEDART_AIR]: [
      { awb: awb(2), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T12:00:00Z' },
      { awb: awb(2), status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
      { awb: awb(2), status: 'ndr_raised', sub_status: 'refused', event_time: '2026-11-21T08:00:00Z' },
      { awb: awb(2), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb: awb(2), status: 'ndr_raised', sub_status: 'refused', ndr_reason: 'refused', event_time: '2026-11-22T08:00:00Z' },
      { awb: awb(2), status: 'rto_initiated', sub_status: 'rto_initiated', rto_reason: 'customer_refused', event_time: '2026-11-23T08:00:00Z' },
    ],
    [DTDC]: [
      { awb: awb(3), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T13:00:00Z' },
      { awb: awb(3), status: 'in_transit', sub_status: 'reached_destination_hub', event_time: '2026-11-21T13:00:00Z' },
      { awb: awb(8), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T16:00:00Z' },
      { awb: awb(8), status: 'ndr_raised', sub_status: 'address_incomplete', event_time: '2026-11-21T09:00:00Z' },
      { awb: awb(8), status: 'rto_initiated', rto_reason: 'address_not_found', event_time: '2026-11-22T09:00:00Z' },
      { awb: awb(8), status: 'rto_in_transit', event_time: '2026-11-23T09:00:00Z' },
      { awb: awb(8), status: 'rto_delivered', sub_status: 'rto_delivered', event_time: '2026-11-24T09:00:00Z' },
    ],
  };
  for (const [carrierId, events] of Object.entries(scans)) {
    const results = await sendEvents(ctx, await issueCarrierToken(ctx, carrierId), events);
    expect(results.every((r) => r.accepted)).toBe(true);
  }
  // A second account with look-alike data, which no filter of the first may ever show.
  const other = await ctx.createAccount();
  const otherWarehouse = await createCityWarehouse(ctx, other.apiKey);
  await createStore(ctx, other.apiKey, { store_name: 'Fashion-Hub' });
  ctx.clock.set('2026-11-20T06:35:30.000Z');
  await book(ctx, other.apiKey, otherWarehouse, { ...ROWS[0], orderId: 'OTHER-1', phone: '9988776655', storeName: 'Fashion-Hub', tags: ['gift'] });
});

afterAll(async () => {
  await ctx.close();
});

describe('the fixture', () => {
  it('lists all nine, newest first, with the statuses the events produced', async () => {
    const { data, meta } = await list(ctx, apiKey, { per_page: 100 });
    expect(data.map((s) => s.id)).toEqual(ids(...ALL));
    expect(meta.total).toBe(9);
    const by = (i: number) => data.find((s) => s.id === booked[i]!.shipment_id)!.attributes;
    expect(ALL.map((i) => [by(i).status, by(i).sub_status, by(i).attempt_count])).toEqual([
      ['delivered', 'delivered', 1],
      ['ndr_raised', 'customer_unavailable', 1],
      ['rto_initiated', 'rto_initiated', 2],
      ['in_transit', 'reached_destination_hub', 0],
      ['cancelled', 'cancelled_by_merchant', 0],
      ['pending', null, 0],
      ['delivered', 'delivered', 3],
      ['others', 'lost', 0],
      ['rto_delivered', 'rto_delivered', 1],
    ]);
    expect(ALL.map((i) => by(i).applied_weight.value)).toEqual([500, 1200, 250, 3000, 800, 500, 2000, 200, 1000]);
  });
});

describe('the exact counts kept by triggers', () => {
  it('agree with a recount of the shipments, for every account', async () => {
    const kept = await queryRows(
      ctx.database.db,
      sql`select account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason,
                 shipments::int as n
            from shipment_counts where shipments <> 0
           order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`,
    );
    const recount = await queryRows(
      ctx.database.db,
      sql`select account_id, status, coalesce(sub_status, '') as sub_status, channel, zone, is_cod, coalesce(carrier_id, '') as carrier_id,
                 attempt_count, coalesce(ndr_reason, '') as ndr_reason, coalesce(rto_reason, '') as rto_reason, count(*)::int as n
            from shipments group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
           order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`,
    );
    expect(kept).toEqual(recount);
    expect(kept.length).toBeGreaterThan(9);
    const facets = await queryRows(
      ctx.database.db,
      sql`select account_id, facet, value, shipments::int as n from shipment_facet_counts where shipments <> 0 order by 1, 2, 3`,
    );
    const facetRecount = await queryRows(
      ctx.database.db,
      sql`select account_id, facet, value, count(*)::int as n from (
            select account_id, 'warehouse' as facet, warehouse_id::text as value from shipments
            union all select account_id, 'store', coalesce(store_id::text, '') from shipments
            union all select s.account_id, 'sku', u.v from shipments s cross join lateral (select distinct unnest(s.skus)) u (v)
            union all select s.account_id, 'tag', u.v from shipments s cross join lateral (select distinct unnest(s.tags)) u (v)
          ) f group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(facets).toEqual(facetRecount);
  });
});

describe('each filter on its own', () => {
  it.each([
    ['pending', [5]],
    ['in_transit', [3]],
    ['out_for_delivery', []],
    ['delivered', [0, 6]],
    ['ndr_raised', [1]],
    ['rto_initiated', [2]],
    ['rto_in_transit', []],
    ['rto_delivered', [8]],
    ['cancelled', [4]],
    ['others', [7]],
  ])('status %s', async (status, rows) => {
    expect(await filtered({ status })).toEqual(ids(...rows));
    expect((await list(ctx, apiKey, { status })).meta.total).toBe(rows.length);
  });

  it.each([
    [{ 'granular_status[]': ['customer_unavailable'] }, [1]],
    [{ granular_status: 'customer_unavailable' }, [1]],
    [{ granular_status: ['reached_destination_hub', 'lost'] }, [3, 7]],
    [{ 'granular_status[]': 'delivered' }, [0, 6]],
    [{ granular_status: ['picked_up'] }, []],
  ])('granular_status (sub_status) %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ 'carrier_id[]': [SHADOWFAX] }, [0, 4, 7]],
    [{ carrier_id: SHADOWFAX }, [0, 4, 7]],
    [{ carrier_id: [DELHIVERY_SURFACE, DTDC] }, [1, 3, 6, 8]],
    [{ 'carrier_id[]': 'CARNOPE000001' }, []],
  ])('carrier_id %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it('warehouse_ids', async () => {
    expect(await filtered({ 'warehouse_ids[]': [W2] })).toEqual(ids(4, 6));
    expect(await filtered({ warehouse_ids: W1 })).toEqual(ids(0, 1, 2, 3, 5, 7, 8));
    expect(await filtered({ warehouse_ids: [W1, W2] })).toEqual(ids(...ALL));
    expect(await filtered({ warehouse_ids: ['00000000-0000-4000-8000-000000000000'] })).toEqual([]);
  });

  it('channel', async () => {
    expect(await filtered({ 'channel[]': ['manual_order'] })).toEqual(ids(...ALL));
    expect(await filtered({ channel: 'manual_order' })).toEqual(ids(...ALL));
    expect(await filtered({ channel: ['shopify'] })).toEqual([]);
  });

  it.each([
    [{ 'zone[]': ['zone_a'] }, [3]],
    [{ zone: 'zone_b' }, [4]],
    [{ zone: ['zone_c'] }, [0, 5, 6]],
    [{ 'zone[]': 'zone_d' }, [1, 7]],
    [{ zone: ['zone_e', 'zone_a'] }, [2, 3, 8]],
  ])('zone %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it('is_cod', async () => {
    expect(await filtered({ is_cod: true })).toEqual(ids(1, 2, 5, 6));
    expect(await filtered({ is_cod: false })).toEqual(ids(0, 3, 4, 7, 8));
  });

  it.each([
    [{ 'sku[]': ['KURTA-M-BLUE'] }, [0, 1, 4, 8]],
    [{ sku: 'SAREE-RED' }, [1, 6]],
    [{ sku: ['MUG-SET', 'TEE-S'] }, [2, 7]],
    [{ sku: ['kurta-m-blue'] }, []],
  ])('sku %j (exact SKU codes, any of them)', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ 'tags[]': ['gift'] }, [0, 1, 6]],
    [{ tags: 'priority' }, [1, 8]],
    [{ tags: ['fragile', 'b2b'] }, [3, 4]],
    [{ tags: ['none-such'] }, []],
  ])('tags %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ 'ndr_reason[]': ['customer_unavailable'] }, [1, 6]],
    [{ ndr_reason: 'refused' }, [2]],
    [{ ndr_reason: ['address_incomplete', 'refused'] }, [2, 8]],
    [{ ndr_reason: ['cod_not_ready'] }, []],
  ])('ndr_reason %j (the latest NDR’s reason)', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ 'rto_reason[]': ['customer_refused'] }, [2]],
    [{ rto_reason: 'address_not_found' }, [8]],
    [{ rto_reason: ['customer_refused', 'address_not_found'] }, [2, 8]],
  ])('rto_reason %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ applied_weight_min: 500, applied_weight_max: 1200 }, [0, 1, 4, 5, 8]],
    [{ applied_weight_min: 2000 }, [3, 6]],
    [{ applied_weight_max: 250 }, [2, 7]],
    [{ applied_weight_min: 250.5, applied_weight_max: 499.9 }, []],
    [{ applied_weight_min: 800, applied_weight_max: 800 }, [4]],
  ])('applied_weight %j (grams, inclusive)', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ attempts_count__gte: 2 }, [2, 6]],
    [{ attempts_count__lte: 0 }, [3, 4, 5, 7]],
    [{ attempts_count__gte: 1, attempts_count__lte: 1 }, [0, 1, 8]],
    [{ attempts_count__gte: 3 }, [6]],
    [{ attempts_count__gte: 4 }, []],
  ])('attempts %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [{ 'store_name[]': ['Fashion-Hub'] }, [0, 3, 6]],
    [{ store_name: 'fashion-hub' }, [0, 3, 6]],
    [{ store_name: ['HOME-GOODS', 'fashion-HUB'] }, [0, 1, 3, 5, 6, 8]],
    [{ store_name: ['no-such-store'] }, []],
  ])('store_name %j (case-insensitive)', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });
});

describe('date ranges (inclusive; Unix seconds, or milliseconds from 10^12)', () => {
  const s = (iso: string) => Date.parse(iso) / 1000;
  const ms = (iso: string) => Date.parse(iso);

  it.each([
    ['created_at, seconds', { date_field: 'created_at', start_time: s('2026-11-20T06:32:00Z'), end_time: s('2026-11-20T06:34:00Z') }, [2, 3, 4]],
    ['created_at, milliseconds', { date_field: 'created_at', start_time: ms('2026-11-20T06:32:00Z'), end_time: ms('2026-11-20T06:33:59.999Z') }, [2, 3]],
    ['created_at is the default field', { start_time: s('2026-11-20T06:37:00Z') }, [7, 8]],
    ['only an end', { end_time: s('2026-11-20T06:30:00Z') }, [0]],
    ['order_date, seconds', { date_field: 'order_date', start_time: s('2026-11-10T04:30:00Z'), end_time: s('2026-11-18T04:30:00Z') }, [2, 3, 4]],
    ['order_date, milliseconds', { date_field: 'order_date', start_time: ms('2026-11-19T00:00:00Z'), end_time: ms('2026-11-20T23:59:59Z') }, [5, 6, 7, 8]],
    ['picked_up_at', { date_field: 'picked_up_at', start_time: s('2026-11-20T11:00:00Z'), end_time: s('2026-11-20T13:00:00Z') }, [1, 2, 3]],
    ['picked_up_at, all', { date_field: 'picked_up_at', start_time: 0 }, [0, 1, 2, 3, 6, 7, 8]],
    ['delivered_at', { date_field: 'delivered_at', start_time: s('2026-11-23T00:00:00Z'), end_time: s('2026-11-23T23:59:59Z') }, [6]],
    ['delivered_at, milliseconds', { date_field: 'delivered_at', start_time: ms('2026-11-22T06:00:00Z'), end_time: ms('2026-11-22T06:00:00Z') }, [0]],
    ['cancelled_at', { date_field: 'cancelled_at', start_time: s('2026-11-20T08:00:00Z'), end_time: s('2026-11-20T08:00:00Z') }, [4]],
    ['rto_initiated_at', { date_field: 'rto_initiated_at', start_time: s('2026-11-22T00:00:00Z') }, [2, 8]],
    ['rto_delivered_at', { date_field: 'rto_delivered_at', end_time: s('2026-12-01T00:00:00Z') }, [8]],
    ['updated_at', { date_field: 'updated_at', start_time: s('2026-11-24T00:00:00Z') }, [0, 1, 2, 3, 6, 7, 8]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });
});

describe('search: case-insensitive substring of AWB, order ids, customer, phone, email, city, pincode', () => {
  it('finds a shipment by its exact AWB, in any case', async () => {
    const awb = booked[6]!.awb_code!;
    expect(await filtered({ search: awb })).toEqual(ids(6));
    expect(await filtered({ search: awb.toLowerCase() })).toEqual(ids(6));
  });

  it.each([
    ['partial phone', '877665', [1]],
    ['phone digits shared by three', '012345', [2, 7, 8]],
    ['city', 'jaipur', [1, 7]],
    ['city, capitals', 'JAIPUR', [1, 7]],
    ['pincode', '682001', [2, 8]],
    ['customer first name', 'Priya', [6]],
    ['customer last name with an apostrophe', "d'souza", [3]],
    ['email', 'meera@mail', [2]],
    ['order id, partial', 'abc-60', [6]],
    ['order id, exact', 'SHOP-ABC-6006', [6]],
    ['% is a literal character', '%', [3]],
    ['_ is a literal character', '_', [3]],
    ['% and _ together', 'd_100%o', [3]],
    ['a backslash is a literal character', '\\', [4]],
    ['no match', 'zzzz', []],
  ])('%s: %s', async (_name, search, rows) => {
    expect(await filtered({ search })).toEqual(ids(...rows));
  });

  it('finds a shipment by its order UUID', async () => {
    expect(await filtered({ search: booked[5]!.order_id })).toEqual(ids(5));
    expect(await filtered({ search: booked[5]!.order_id.toUpperCase() })).toEqual(ids(5));
  });

  it('counts every match whatever the page: offset, past the end, or search_after', async () => {
    const all = ids(...ALL);
    const p3 = await list(ctx, apiKey, { search: 'MAIL.TEST', per_page: 2, page: 3 });
    expect(p3.data.map((s) => s.id)).toEqual(all.slice(4, 6));
    expect(p3.meta.total).toBe(9);
    const past = await list(ctx, apiKey, { search: 'mail.test', per_page: 2, page: 6 });
    expect(past.data).toEqual([]);
    expect(past.meta).toEqual({ current_page: 6, per_page: 2, total: 9, next_search_after: null });
    const after = await list(ctx, apiKey, { search: 'mail.test', per_page: 2, search_after: p3.meta.next_search_after });
    expect(after.data.map((s) => s.id)).toEqual(all.slice(6, 8));
    expect(after.meta.total).toBe(9);
    const none = await list(ctx, apiKey, { search: 'mail.test', is_cod: true, 'zone[]': ['zone_a'] });
    expect(none.meta.total).toBe(0);
  });

  it('an unassigned shipment is found by the rest of its text', async () => {
    expect(await filtered({ search: 'qureshi' })).toEqual(ids(5));
  });
});

describe('filters combined (AND), and both key forms', () => {
  it.each([
    ['status + is_cod + carrier', { status: 'delivered', is_cod: true, 'carrier_id[]': [DELHIVERY_SURFACE] }, [6]],
    ['zone + tags', { zone: ['zone_c', 'zone_d'], tags: ['gift'] }, [0, 1, 6]],
    ['store + sku', { store_name: 'fashion-hub', sku: 'KURTA-M-BLUE' }, [0]],
    ['search + status', { search: 'jaipur', status: 'others' }, [7]],
    ['date + weight', { date_field: 'picked_up_at', start_time: 0, applied_weight_min: 1000 }, [1, 3, 6, 8]],
    ['granular + ndr_reason', { granular_status: ['customer_unavailable'], ndr_reason: ['customer_unavailable'] }, [1]],
    ['four filters', { status: 'delivered', is_cod: true, zone: ['zone_c'], date_field: 'delivered_at', start_time: Date.parse('2026-11-23T00:00:00Z') / 1000 }, [6]],
    ['contradictory', { status: 'pending', 'carrier_id[]': [SHADOWFAX] }, []],
    ['name and name[] together: the union of both', { zone: 'zone_a', 'zone[]': ['zone_b'] }, [3, 4]],
    ['a value repeated in both forms', { tags: ['gift'], 'tags[]': 'gift' }, [0, 1, 6]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
    expect((await list(ctx, apiKey, body)).meta.total).toBe(rows.length);
  });

  it('warehouse + attempts', async () => {
    expect(await filtered({ warehouse_ids: [W2], attempts_count__gte: 1 })).toEqual(ids(6));
    expect(await filtered({ 'warehouse_ids[]': W1, status: 'delivered', is_cod: false })).toEqual(ids(0));
  });

  it('filters apply to the count, the page and search_after alike', async () => {
    const first = await list(ctx, apiKey, { per_page: 2, is_cod: true });
    expect(first.meta).toEqual({ current_page: 1, per_page: 2, total: 4, next_search_after: [String(Date.parse('2026-11-20T06:35:00Z')), booked[5]!.shipment_id] });
    expect(first.data.map((s) => s.id)).toEqual(ids(6, 5));
    const second = await list(ctx, apiKey, { per_page: 2, is_cod: true, search_after: first.meta.next_search_after, page: 2 });
    expect(second.data.map((s) => s.id)).toEqual(ids(2, 1));
    expect(second.meta).toEqual({ current_page: 2, per_page: 2, total: 4, next_search_after: null });
  });
});
