import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { keptScans } from '../../base/db/schema.js';

// Retention of kept scans (issue 52; decision 137 keeps what a courier sends that Dakiya could not
// apply): 180 days by default from the last time a record was seen, replayed or applied, applied
// or not. The test clock stands at 2026-11-20 06:30 UTC.

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 2 } } });
});
afterAll(async () => {
  await ctx.close();
});

const ago = (days: number | null) => (days === null ? null : new Date(ctx.clock.now().getTime() - days * DAY));

/** A kept scan first seen, last replayed and applied so many days ago (null: never); its id. */
async function kept(accountId: string | null, seen: number, replayed: number | null, applied: number | null) {
  const [row] = await ctx.database.db
    .insert(keptScans)
    .values({
      accountId,
      connector: 'delhivery',
      carrierId: accountId ? 'delhivery-surface' : null,
      awb: `1490${Math.floor(Math.random() * 1e10)}`,
      journey: accountId ? 'forward' : null,
      raw: { ScanType: 'UD', Scan: 'Dispatched', StatusCode: 'X-ZZ9' },
      reasonCode: accountId ? 'unread' : 'unknown_awb',
      reason: 'no table reads X-ZZ9',
      fingerprint: crypto.randomUUID(),
      firstSeenAt: ago(seen)!,
      replayedAt: ago(replayed),
      appliedAt: ago(applied),
    })
    .returning({ id: keptScans.id });
  return row!.id;
}

describe('retention of kept scans', () => {
  it('removes those untouched for 180 days, applied or not, of any account or none; a recent replay keeps one', async () => {
    const m = await merchant(ctx);
    const gone = [
      await kept(m.id, 181, null, null),
      await kept(null, 400, null, null),
      await kept(m.id, 300, 200, 200),
      await kept(m.id, 190, 180.5, null),
      await kept(null, 180.01, null, null),
    ];
    const stay = [
      await kept(m.id, 179.99, null, null),
      await kept(m.id, 365, 10, null),
      await kept(null, 250, 30, 30),
      await kept(m.id, 0, null, null),
    ];
    const before = (await queryRows<{ id: string }>(ctx.database.db, sql`select id from kept_scans order by id`)).map(
      (r) => r.id,
    );
    const report = await ctx.app.retention.pruneAll();
    expect(report.before.kept_scans).toBe('2026-05-24T06:30:00.000Z');
    expect(report.pruned.kept_scans).toBe(5);
    const after = (await queryRows<{ id: string }>(ctx.database.db, sql`select id from kept_scans order by id`)).map(
      (r) => r.id,
    );
    expect(after).toEqual(before.filter((id) => !gone.includes(id)));
    expect(after).toEqual(expect.arrayContaining(stay));
  });
});
