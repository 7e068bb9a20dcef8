import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { admin } from '../../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// The fold of the reports' totals (issue 52): each booking's trigger adds to its connection's shard
// of a day's and a month's row (migrations 0076, 0084); the retention job folds the shards of days
// before today and of months before this one (India's) into shard 0, with the same sums. The tests
// spread the bookings' totals over shards as several connections leave them, and compare row for row.

const DAY = 86_400_000;
let ctx: TestContext;
useTestApp((app) => {
  ctx = app;
});

const prune = async () => {
  const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/retention/prune', headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { pruned: Record<string, number>; before: Record<string, string> };
};

/** The owner's report of `start` to `end`, forward shipments. */
async function report(apiKey: string, start: string, end: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/reports',
    headers: { authorization: apiKey },
    payload: { start_date_time: start, end_date_time: end, shipment_type: 'forward' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("the fold of the reports' daily totals", () => {
  it("leaves one row per day, store, status and COD of each past day, with the same sums, and today's alone", async () => {
    const owner = await merchant(ctx);
    const bookings = [];
    for (let i = 0; i < 3; i++)
      bookings.push(
        await orchestrate(
          ctx,
          owner.apiKey,
          orderBody(owner.warehouseId, {
            payment_method: i === 0 ? 'COD' : 'PREPAID',
            cod_collectible: i === 0 ? 998 : 0,
          }),
        ),
      );
    const rows = () =>
      queryRows<{
        day: string;
        status: string;
        is_cod: boolean;
        shard: number;
        shipments: number;
        value_paise: number;
      }>(
        ctx.database.db,
        sql`select day::text as day, status, is_cod, shard, shipments::int as shipments, value_paise::int as value_paise
            from shipment_daily_totals where account_id = ${owner.id} order by day, status, is_cod, shard`,
      );
    // Each key's totals, whatever shards the bookings' connections wrote them to.
    const booked = await queryRows<{
      day: string;
      status: string;
      is_cod: boolean;
      shipments: number;
      value_paise: number;
    }>(
      ctx.database.db,
      sql`select day::text as day, status, is_cod, sum(shipments)::int as shipments, sum(value_paise)::int as value_paise
          from shipment_daily_totals where account_id = ${owner.id} group by day, status, is_cod order by day, status, is_cod`,
    );
    expect(booked.length).toBeGreaterThan(0);
    // As several connections' bookings leave them: each key's totals spread over shards 3 and 9, and
    // a status one connection added to and another took from (a parcel that moved on).
    await ctx.database.db.execute(sql`delete from shipment_daily_totals where account_id = ${owner.id}`);
    for (const row of booked) {
      const rest = row.shipments - 1;
      await ctx.database.db.execute(
        sql`insert into shipment_daily_totals (account_id, day, store_id, status, is_cod, shard, shipments, value_paise) values
            (${owner.id}, ${row.day}::date, '', ${row.status}, ${row.is_cod}, 3, 1, ${row.value_paise - rest * 1000}),
            (${owner.id}, ${row.day}::date, '', ${row.status}, ${row.is_cod}, 9, ${rest}, ${rest * 1000})`,
      );
    }
    const day = booked[0]!.day;
    await ctx.database.db.execute(
      sql`insert into shipment_daily_totals (account_id, day, store_id, status, is_cod, shard, shipments, value_paise) values
          (${owner.id}, ${day}::date, '', 'in_transit', false, 5, 1, 49900),
          (${owner.id}, ${day}::date, '', 'in_transit', false, 12, -1, -49900)`,
    );
    const spread = await rows();
    const dayStart = Date.parse(`${day}T00:00:00+05:30`);
    const range = [new Date(dayStart - DAY).toISOString(), new Date(dayStart + 2 * DAY).toISOString()] as const;
    const before = await report(owner.apiKey, ...range);

    // Today's rows stay as they are: bookings still add to them.
    expect((await prune()).pruned.shipment_daily_totals).toBe(0);
    expect(await rows()).toEqual(spread);

    ctx.clock.advance(DAY);
    const folded = await prune();
    expect(folded.pruned.shipment_daily_totals).toBe(spread.length);
    const recount = await queryRows<{ status: string; is_cod: boolean; shipments: number; value_paise: number }>(
      ctx.database.db,
      sql`select status, is_cod, count(*)::int as shipments, sum(total_price_paise)::int as value_paise
          from shipments where account_id = ${owner.id} group by status, is_cod order by status, is_cod`,
    );
    expect(await rows()).toEqual(recount.map((row) => ({ day, shard: 0, ...row })));
    expect(await report(owner.apiKey, ...range)).toEqual(before);
    expect((await prune()).pruned.shipment_daily_totals).toBe(0);
  });
});

describe("the fold of the reports' monthly totals", () => {
  it("leaves one row per month, store, status and COD of each closed month, with the same sums, and this month's alone", async () => {
    const owner = await merchant(ctx);
    // Two bookings in October, one on 1 November (India time: 2026-10-31T18:30Z is its first instant).
    ctx.clock.set('2026-10-10T06:30:00.000Z');
    await orchestrate(ctx, owner.apiKey, codOrderBody(owner.warehouseId));
    await orchestrate(ctx, owner.apiKey, orderBody(owner.warehouseId));
    ctx.clock.set('2026-10-31T18:30:00.000Z');
    await orchestrate(ctx, owner.apiKey, orderBody(owner.warehouseId));
    type Row = {
      month: string;
      store_id: string;
      status: string;
      is_cod: boolean;
      shipments: number;
      value_paise: number;
    };
    const rows = () =>
      queryRows<Row & { shard: number }>(
        ctx.database.db,
        sql`select month::text as month, store_id, status, is_cod, shard, shipments::int as shipments, value_paise::int as value_paise
            from shipment_monthly_totals where account_id = ${owner.id} order by month, store_id, status, is_cod, shard`,
      );
    const booked = await queryRows<Row>(
      ctx.database.db,
      sql`select month::text as month, store_id, status, is_cod, sum(shipments)::int as shipments, sum(value_paise)::int as value_paise
          from shipment_monthly_totals where account_id = ${owner.id}
          group by month, store_id, status, is_cod order by month, store_id, status, is_cod`,
    );
    expect(booked.map((row) => row.month)).toEqual(['2026-10-01', '2026-10-01', '2026-11-01']);
    // Each key's totals over shards 3 and 9, and in each month a status one connection added to and another took from.
    await ctx.database.db.execute(sql`delete from shipment_monthly_totals where account_id = ${owner.id}`);
    const insert = (row: Row & { shard: number }) =>
      ctx.database.db.execute(
        sql`insert into shipment_monthly_totals (account_id, month, store_id, status, is_cod, shard, shipments, value_paise)
            values (${owner.id}, ${row.month}::date, ${row.store_id}, ${row.status}, ${row.is_cod}, ${row.shard}, ${row.shipments}, ${row.value_paise})`,
      );
    for (const row of booked) {
      const rest = row.shipments - 1;
      await insert({ ...row, shard: 3, shipments: 1, value_paise: row.value_paise - rest * 1000 });
      await insert({ ...row, shard: 9, shipments: rest, value_paise: rest * 1000 });
    }
    for (const month of ['2026-10-01', '2026-11-01']) {
      const moved = { month, store_id: '', status: 'in_transit', is_cod: false };
      await insert({ ...moved, shard: 5, shipments: 1, value_paise: 49900 });
      await insert({ ...moved, shard: 12, shipments: -1, value_paise: -49900 });
    }
    const spread = await rows();
    const october = spread.filter((row) => row.month === '2026-10-01');
    const november = spread.filter((row) => row.month === '2026-11-01');
    // October whole, India time: its sums come from the monthly totals alone.
    const octoberRange = ['2026-09-30T18:30:00.000Z', '2026-10-31T18:29:59.999Z'] as const;
    const before = await report(owner.apiKey, ...octoberRange);

    // At the last instant of October it is still this month: nothing folded.
    ctx.clock.set('2026-10-31T18:29:59.999Z');
    const open = await prune();
    expect([open.pruned.shipment_monthly_totals, open.before.shipment_monthly_totals]).toEqual([
      0,
      '2026-09-30T18:30:00.000Z',
    ]);
    expect(await rows()).toEqual(spread);

    ctx.clock.set('2026-10-31T18:30:00.000Z');
    const folded = await prune();
    expect([folded.pruned.shipment_monthly_totals, folded.before.shipment_monthly_totals]).toEqual([
      october.length,
      '2026-10-31T18:30:00.000Z',
    ]);
    const recount = await queryRows<Row>(
      ctx.database.db,
      sql`select '2026-10-01' as month, coalesce(store_id::text, '') as store_id, status, is_cod,
                 count(*)::int as shipments, sum(total_price_paise)::int as value_paise
          from shipments where account_id = ${owner.id} and created_at < '2026-10-31T18:30:00Z'
          group by store_id, status, is_cod order by store_id, status, is_cod`,
    );
    expect(recount.map((row) => row.shipments)).toEqual([1, 1]);
    expect(await rows()).toEqual([...recount.map((row) => ({ ...row, shard: 0 })), ...november]);
    expect(await report(owner.apiKey, ...octoberRange)).toEqual(before);
    expect((await prune()).pruned.shipment_monthly_totals).toBe(0);
  });
});
