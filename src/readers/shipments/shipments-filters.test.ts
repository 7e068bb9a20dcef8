import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import type { Booked } from '../../../test/kit/orders.js';
import { list } from '../../../test/kit/shipments.js';
import { ALL, useListingFixture } from '../../../test/listing-fixture.js';
import { queryRows } from '../../base/db/client.js';

// The listing's filters, each on its own, and the counts the triggers keep, on the nine shipments
// of test/listing-fixture.ts. Search, date ranges and combined filters: shipments-search.test.ts.

let ctx: TestContext;
let apiKey: string;
let W1: string;
let W2: string;
let booked: Booked[];
const { ids, filtered } = useListingFixture((fixture) => {
  ({ ctx, apiKey, W1, W2, booked } = fixture);
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
  it('agree with a recount of the shipments, for every account (each key summed over its shards)', async () => {
    const kept = await queryRows(
      ctx.database.db,
      sql`select account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason,
                 sum(shipments)::int as n
            from shipment_counts group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 having sum(shipments) <> 0
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
      sql`select account_id, facet, value, sum(shipments)::int as n from shipment_facet_counts group by 1, 2, 3 having sum(shipments) <> 0 order by 1, 2, 3`,
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
    // The daily totals the reports and the created_at range total read (migration 0076).
    const daily = await queryRows(
      ctx.database.db,
      sql`select account_id, day::text as day, store_id, status, is_cod, sum(shipments)::int as n, sum(value_paise)::text as paise
            from shipment_daily_totals group by 1, 2, 3, 4, 5 having sum(shipments) <> 0 order by 1, 2, 3, 4, 5`,
    );
    const dailyRecount = await queryRows(
      ctx.database.db,
      sql`select account_id, ((created_at + interval '330 minutes') at time zone 'UTC')::date::text as day,
                 coalesce(store_id::text, '') as store_id, status, is_cod, count(*)::int as n, sum(total_price_paise)::text as paise
            from shipments group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
    );
    expect(daily).toEqual(dailyRecount);
    expect(daily.length).toBeGreaterThan(9);
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
