import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, post, REPORTS } from '../../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// The monthly totals (migration 0084) beside the daily ones: one trigger keeps both, and a report
// sums a range's whole India months from the months and only its other days from the days.

let ctx: TestContext;
let token: string;
useTestApp(async (app) => {
  ctx = app;
  token = await issueCarrierToken(ctx, SHADOWFAX);
});

/** Books `body` at `instant` (the test clock), on the courier whose scans the tests send. */
async function bookAt(instant: string, apiKey: string, body: Record<string, unknown>) {
  ctx.clock.set(instant);
  return orchestrate(ctx, apiKey, { ...body, carrier_id: SHADOWFAX });
}

/** Moves a booked shipment through `statuses`, a minute apart, ten minutes after the clock. */
async function scan(awb: string, statuses: string[]) {
  const start = ctx.clock.now().getTime();
  ctx.clock.advance(10 * 60_000);
  const results = await sendEvents(
    ctx,
    token,
    statuses.map((status, i) => ({ awb, status, event_time: new Date(start + (i + 1) * 60_000).toISOString() })),
  );
  expect(results.map((r) => r.error ?? r.accepted)).toEqual(statuses.map(() => true));
}

const byJson = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

/** Each level summed over its shards by account, month, store, status and COD; and the shipments counted so. */
async function threeWays() {
  const db = ctx.database.db;
  const months = await queryRows(
    db,
    sql`select account_id, month::text as month, store_id, status, is_cod, sum(shipments)::int as n, sum(value_paise)::text as paise
          from shipment_monthly_totals group by 1, 2, 3, 4, 5 having sum(shipments) <> 0 or sum(value_paise) <> 0`,
  );
  const days = await queryRows(
    db,
    sql`select account_id, date_trunc('month', day::timestamp)::date::text as month, store_id, status, is_cod,
               sum(shipments)::int as n, sum(value_paise)::text as paise
          from shipment_daily_totals group by 1, 2, 3, 4, 5 having sum(shipments) <> 0 or sum(value_paise) <> 0`,
  );
  const counted = await queryRows(
    db,
    sql`select account_id, date_trunc('month', (created_at + interval '330 minutes') at time zone 'UTC')::date::text as month,
               coalesce(store_id::text, '') as store_id, status, is_cod, count(*)::int as n, sum(total_price_paise)::text as paise
          from shipments group by 1, 2, 3, 4, 5`,
  );
  return { months: byJson(months), days: byJson(days), counted: byJson(counted) };
}

/** Deletes a shipment with the rows that refer to it (a booking's milestones, poll, actions). */
async function deleteShipment(id: string) {
  const children = await queryRows<{ child: string; column: string }>(
    ctx.database.db,
    sql`select c.relname as child, a.attname as column
          from pg_constraint k join pg_class c on c.oid = k.conrelid
          join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         where k.confrelid = 'shipments'::regclass and k.contype = 'f'`,
  );
  await ctx.database.db.transaction(async (tx) => {
    for (const { child, column } of children)
      await tx.execute(sql`delete from ${sql.identifier(child)} where ${sql.identifier(column)} = ${id}`);
    await tx.execute(sql`delete from shipments where id = ${id}`);
  });
}

describe('shipment_monthly_totals', () => {
  it('holds the daily totals summed by month, and the shipments counted by month, through bookings, scans, a store change, a delete and moves of created_at', async () => {
    const m = await merchant(ctx);
    const s1 = await createStore(ctx, m.apiKey, { store_name: `months-one-${m.id.slice(0, 8)}` });
    const s2 = await createStore(ctx, m.apiKey, { store_name: `months-two-${m.id.slice(0, 8)}` });
    const inS1 = { store_name: s1.store_name };
    // 2026-10-31T18:29:59Z is 23:59:59 on 31 October in India; a second later is 1 November.
    await bookAt('2026-10-31T18:29:59.000Z', m.apiKey, orderBody(m.warehouseId, inS1));
    const deleted = await bookAt('2026-10-31T18:30:00.000Z', m.apiKey, codOrderBody(m.warehouseId, inS1));
    const moved = await orchestrate(ctx, m.apiKey, { ...orderBody(m.warehouseId), carrier_id: SHADOWFAX });
    const delivered = await bookAt(
      '2026-11-15T06:30:00.000Z',
      m.apiKey,
      codOrderBody(m.warehouseId, { ...inS1, sub_total: 1499.5, cod_collectible: 1000 }),
    );
    await scan(delivered.awb_code!, ['in_transit', 'delivered']);
    const cancelled = await bookAt('2026-11-15T07:00:00.000Z', m.apiKey, orderBody(m.warehouseId, inS1));
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [cancelled.awb_code] })).statusCode).toBe(200);

    const db = ctx.database.db;
    await db.execute(sql`update shipments set store_id = ${s2.id} where id = ${moved.shipment_id}`);
    await deleteShipment(deleted.shipment_id);
    // Across a month's end: from 15 November to 23:59:59.999 on 30 September, India time.
    await db.execute(
      sql`update shipments set created_at = '2026-09-30T18:29:59.999Z' where id = ${cancelled.shipment_id}`,
    );
    // Within one month: the month's rows are not written at all (their row versions stay).
    const versions = sql`select month::text, store_id, status, is_cod, shard, xmin::text as version
                           from shipment_monthly_totals where account_id = ${m.id} order by 1, 2, 3, 4, 5`;
    const before = await queryRows(db, versions);
    await db.execute(
      sql`update shipments set created_at = '2026-11-20T06:30:00.000Z' where id = ${delivered.shipment_id}`,
    );
    expect(await queryRows(db, versions)).toEqual(before);

    const mine = (rows: string[]) =>
      rows.map((row) => JSON.parse(row)).filter((row: { account_id: string }) => row.account_id === m.id);
    const expected = byJson([
      { month: '2026-09-01', store_id: s1.id, status: 'cancelled', is_cod: false, n: 1, paise: '99800' },
      { month: '2026-10-01', store_id: s1.id, status: 'pending', is_cod: false, n: 1, paise: '99800' },
      { month: '2026-11-01', store_id: s1.id, status: 'delivered', is_cod: true, n: 1, paise: '149950' },
      { month: '2026-11-01', store_id: s2.id, status: 'pending', is_cod: false, n: 1, paise: '99800' },
    ]);
    const kept = await threeWays();
    expect(byJson(mine(kept.months).map(({ account_id: _, ...row }) => row))).toEqual(expected);
    expect(kept.months).toEqual(kept.days);
    expect(kept.months).toEqual(kept.counted);

    // The counters' rebuild (a bulk load's) writes the same months, on shard 0.
    await db.execute(sql`select dakiya_rebuild_shipment_counts()`);
    expect(await threeWays()).toEqual(kept);
    const [shards] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from shipment_monthly_totals where shard <> 0`,
    );
    expect(shards!.n).toBe(0);
  });
});

describe('a report over whole and partial months', () => {
  const summaryOf = async (apiKey: string, start_date_time: string, end_date_time: string) => {
    const answer = await post(ctx, apiKey, REPORTS, { start_date_time, end_date_time, shipment_type: 'forward' });
    expect(answer.statusCode, answer.body).toBe(200);
    const { pending, in_transit, delivered, total_shipments } = answer.json().payload.summary;
    return { pending, in_transit, delivered, total_shipments };
  };
  const zero = { count: 0, sum_of_prepaid_orders: 0, sum_of_cod_orders: 0 };

  it('counts shipments on both sides of each India month boundary exactly, summing whole months from their level', async () => {
    const m = await merchant(ctx);
    const w = m.warehouseId;
    // The range: 10:00 on 15 August to 12:00 on 10 December, India time. Whole months September to
    // November; whole days 16 to 31 August and 1 to 9 December; parts of 15 August and 10 December.
    const start = '2026-08-15T04:30:00.000Z';
    const end = '2026-12-10T06:30:00.000Z';
    await bookAt('2026-08-15T04:29:59.999Z', m.apiKey, orderBody(w)); // before the range
    await bookAt(start, m.apiKey, orderBody(w));
    await bookAt('2026-08-31T18:29:59.000Z', m.apiKey, codOrderBody(w)); // 31 August, 23:59:59
    await bookAt('2026-08-31T18:30:00.000Z', m.apiKey, orderBody(w)); // 1 September, 00:00
    const moving = await bookAt('2026-10-31T18:29:59.000Z', m.apiKey, codOrderBody(w)); // 31 October, 23:59:59
    await scan(moving.awb_code!, ['in_transit']);
    await bookAt('2026-10-31T18:30:00.000Z', m.apiKey, codOrderBody(w, { sub_total: 1499.5, cod_collectible: 1000 }));
    await bookAt('2026-11-30T18:29:59.000Z', m.apiKey, orderBody(w)); // 30 November, 23:59:59
    await bookAt('2026-11-30T18:30:00.000Z', m.apiKey, codOrderBody(w)); // 1 December, 00:00
    await bookAt(end, m.apiKey, orderBody(w));
    await bookAt('2026-12-10T06:30:00.001Z', m.apiKey, orderBody(w)); // after the range
    ctx.clock.set('2026-12-20T06:30:00.000Z');

    expect(await summaryOf(m.apiKey, start, end)).toEqual({
      pending: { count: 7, sum_of_prepaid_orders: 998 * 4, sum_of_cod_orders: 998 * 2 + 1499.5 },
      in_transit: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
      delivered: zero,
      total_shipments: 8,
    });
    // The three whole months alone, to their last millisecond.
    expect(await summaryOf(m.apiKey, '2026-08-31T18:30:00.000Z', '2026-11-30T18:29:59.999Z')).toEqual({
      pending: { count: 3, sum_of_prepaid_orders: 998 * 2, sum_of_cod_orders: 1499.5 },
      in_transit: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
      delivered: zero,
      total_shipments: 4,
    });
    // A month and a millisecond either side: the shipments at 23:59:59 and 00:00 around November.
    expect(await summaryOf(m.apiKey, '2026-10-31T18:29:59.000Z', '2026-11-30T18:30:00.000Z')).toEqual({
      pending: { count: 3, sum_of_prepaid_orders: 998, sum_of_cod_orders: 1499.5 + 998 },
      in_transit: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
      delivered: zero,
      total_shipments: 4,
    });

    // Which level answers: a row written to September's month alone shows in a range that holds
    // September whole, and one written to 10 September's day alone shows only in a range that
    // holds that day but not the whole month.
    const db = ctx.database.db;
    const marker = { count: 1, sum_of_prepaid_orders: 1, sum_of_cod_orders: 0 };
    await db.execute(
      sql`insert into shipment_monthly_totals (account_id, month, store_id, status, is_cod, shard, shipments, value_paise)
          values (${m.id}, '2026-09-01', '', 'delivered', false, 15, 1, 100)`,
    );
    await db.execute(
      sql`insert into shipment_daily_totals (account_id, day, store_id, status, is_cod, shard, shipments, value_paise)
          values (${m.id}, '2026-09-10', '', 'delivered', false, 15, 1, 100)`,
    );
    try {
      expect((await summaryOf(m.apiKey, start, end)).delivered).toEqual(marker);
      expect((await summaryOf(m.apiKey, '2026-08-31T18:30:00.000Z', '2026-09-30T18:29:59.999Z')).delivered).toEqual(
        marker,
      );
      // 1 to 29 September, whole days: the day's row, not the month's.
      expect((await summaryOf(m.apiKey, '2026-08-31T18:30:00.000Z', '2026-09-29T18:29:59.999Z')).delivered).toEqual(
        marker,
      );
      expect(await summaryOf(m.apiKey, '2026-09-10T18:30:00.000Z', '2026-09-29T18:29:59.999Z')).toEqual({
        pending: zero,
        in_transit: zero,
        delivered: zero,
        total_shipments: 0,
      });
    } finally {
      await db.execute(
        sql`delete from shipment_monthly_totals where account_id = ${m.id} and shard = 15 and status = 'delivered'`,
      );
      await db.execute(
        sql`delete from shipment_daily_totals where account_id = ${m.id} and shard = 15 and status = 'delivered'`,
      );
    }
  });
});
