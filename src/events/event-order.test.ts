import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { authed, V1 } from '../../test/kit/http.js';
import { queryRows } from '../base/db/client.js';
import { registerConsumer } from './events.repository.js';
import { pumpConsumer } from './outbox.js';

/**
 * The log is read in (txid, position) order, txid a number. The reads once selected it as text
 * under its own name, and ORDER BY took that name for the text: "100" before "99". Where a server's
 * transaction ids cross a power of ten, a consumer would then move its cursor past events it never
 * read (a lost webhook or e-mail), and the event feed's pages would skip them.
 *
 * A test cannot run a hundred million transactions to cross a boundary, so it writes four events
 * itself with transaction ids 98–101, below every id the database has handed out (so they are
 * settled), and reads them back through the feed and a consumer.
 */
let ctx: TestContext;
let account: { id: string; apiKey: string };
const TXIDS = [98, 99, 100, 101];

beforeAll(async () => {
  ctx = await createTestApp();
  account = await ctx.createAccount();
  for (const [i, txid] of TXIDS.entries()) {
    await queryRows(
      ctx.database.db,
      sql`insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at, txid)
          values (${account.id}, 'shipment.created', 'shipment', gen_random_uuid(), 1, ${JSON.stringify({ txid })}::jsonb, ${new Date(Date.UTC(2026, 10, 20, 6, 30, i)).toISOString()}::timestamptz, ${String(txid)}::xid8)`,
    );
  }
});
afterAll(async () => {
  await ctx.close();
});

it('GET /events pages through transaction ids 98 to 101 in numeric order, skipping none', async () => {
  const page = async (after?: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?limit=2&type[]=shipment.created${after ? `&after=${after}` : ''}`,
      headers: authed(account.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      data: { id: string; data: { txid: number } }[];
      meta: { next_after: string; has_more: boolean };
    };
  };
  const first = await page();
  expect(first.data.map((e) => e.data.txid)).toEqual([98, 99]);
  expect(first.meta.has_more).toBe(true);
  const second = await page(first.meta.next_after);
  expect(second.data.map((e) => e.data.txid)).toEqual([100, 101]);
  expect(second.meta.has_more).toBe(false);
});

it('a consumer reading two at a time gets each of them once, in order', async () => {
  const seen: number[] = [];
  const consumer = {
    name: 'test-digit-boundary',
    handle: async (_tx: unknown, events: { data: Record<string, unknown> }[]) => {
      for (const event of events) if (typeof event.data.txid === 'number') seen.push(event.data.txid);
    },
  };
  // Registered at the log's end, then put back before the four.
  await registerConsumer(ctx.database.db, consumer.name, new Date());
  await ctx.database.db.execute(
    sql`update event_consumers set after_txid = '97'::xid8, after_position = 0 where name = ${consumer.name}`,
  );
  seen.length = 0;
  while ((await pumpConsumer(ctx.database.db, consumer, new Date(), 2)) > 0);
  expect(seen).toEqual(TXIDS);
});
