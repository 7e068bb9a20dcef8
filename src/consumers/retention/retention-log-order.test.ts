import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { pruneRevivedEvents } from './retention-history.repository.js';

// The event log's walk follows its commit order, (txid, position), by the numbers. Transaction ids
// grow a digit now and then (999 → 1000): a place taken as text sorts "999" after "1000". The
// year's benchmark met it (docs/performance.md): five bookings made at its server's start, then a
// year of history written in one later transaction with one more digit; the first window held
// both, its end was taken by the text (a booking's, written now, past the cutoff), and every run
// stopped after that window, pruning 490 events of 3 million. Here the same log in small: the
// transaction ids are written as the rows' own, as a fill or an older install has them.

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  // Windows of 8 events: the first holds the recent subject's two and six of the year's.
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 8 } } });
});
afterAll(async () => {
  await ctx.close();
});

/** Events of one subject each at `txid`, written `daysAgo` before the test clock's now. */
async function history(accountId: string, txid: string, daysAgo: number, subjects: number, perSubject: number) {
  const at = new Date(ctx.clock.now().getTime() - daysAgo * DAY).toISOString();
  await ctx.database.db.execute(sql`
    insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at, txid)
    select ${accountId}::uuid, 'shipment.status_changed', 'shipment', s.subject, n.sequence, '{}'::jsonb,
      ${at}::timestamptz + make_interval(secs => n.sequence), ${txid}::xid8
    from (select gen_random_uuid() as subject from generate_series(1, ${subjects})) s,
      generate_series(1, ${perSubject}) n (sequence)
    order by s.subject, n.sequence`);
}

describe("the event log's walk across a transaction id's new digit", () => {
  it('goes on past a window whose events are 99 and 100, and prunes every old event but each subject last', async () => {
    const m = await merchant(ctx);
    // Every earlier event of the database out of the way: the walk starts at this test's own.
    await ctx.database.db.execute(sql`delete from events`);
    await history(m.id, '99', 0, 1, 2);
    await history(m.id, '100', 200, 10, 3);
    // Every consumer has read the log.
    await ctx.database.db.execute(sql`
      update event_consumers set after_txid = last.txid, after_position = last.position
      from (select txid, position from events order by txid desc, position desc limit 1) last`);

    const report = await ctx.app.retention.pruneAll();

    expect(report.pruned.events).toBe(20);
    const left = await queryRows<{ txid: string; subjects: number; events: number; lowest: number }>(
      ctx.database.db,
      sql`select txid::text as txid, count(distinct subject_id)::int as subjects, count(*)::int as events,
            min(sequence)::int as lowest
          from events where account_id = ${m.id} group by 1 order by 1`,
    );
    expect(left).toEqual([
      { txid: '100', subjects: 10, events: 10, lowest: 3 },
      { txid: '99', subjects: 1, events: 2, lowest: 1 },
    ]);
  });

  it('ends a window of newer events at its last event by the numbers, not by the text', async () => {
    const m = await merchant(ctx);
    await ctx.database.db.execute(sql`delete from events`);
    await history(m.id, '99', 200, 2, 1);
    await history(m.id, '100', 200, 3, 1);
    const [last] = await queryRows<{ position: number }>(
      ctx.database.db,
      sql`select max(position)::int as position from events where txid = '100'::xid8`,
    );

    const window = await pruneRevivedEvents(ctx.database.db, {
      cutoff: ctx.clock.now(),
      behind: { txid: '1', position: 0 },
      after: null,
      window: 10,
    });

    expect(window).toEqual({ events: 0, scanned: 5, end: { txid: '100', position: last!.position } });
  });
});
