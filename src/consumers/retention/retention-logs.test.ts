import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { auditLog, keptScans } from '../../base/db/schema.js';

// Retention of the logs kept for people to read (issue 52): kept scans (decision 137 keeps what a
// courier sends that Dakiya could not apply), 180 days by default from the last time a record was
// seen, replayed or applied; and the audit log, 365 days by default. The test clock stands at
// 2026-11-20 06:30 UTC.

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 2 } } });
});
afterAll(async () => {
  await ctx.close();
});

const ago = (days: number | null) => (days === null ? null : new Date(ctx.clock.now().getTime() - days * DAY));

let awbs = 0;

/** A kept scan first seen, last replayed and applied so many days ago (null: never); its id. */
async function kept(accountId: string | null, seen: number, replayed: number | null, applied: number | null) {
  const [row] = await ctx.database.db
    .insert(keptScans)
    .values({
      accountId,
      connector: 'delhivery',
      carrierId: accountId ? 'delhivery-surface' : null,
      awb: `1490${String(++awbs).padStart(10, '0')}`,
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

describe('retention of the audit log', () => {
  it('removes entries written more than 365 days ago, of every account, and no other', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const entry = async (accountId: string, days: number) => {
      const [row] = await ctx.database.db
        .insert(auditLog)
        .values({
          accountId,
          at: ago(days)!,
          actorType: 'member',
          actorId: crypto.randomUUID(),
          actorName: 'ops@acme.example',
          ip: '203.0.113.7',
          action: 'webhook.created',
          objectType: 'webhook',
          objectId: crypto.randomUUID(),
        })
        .returning({ id: auditLog.id });
      return row!.id;
    };
    const gone = [await entry(a.id, 366), await entry(b.id, 365.01), await entry(b.id, 900)];
    const stay = [await entry(a.id, 364.99), await entry(b.id, 30)];
    const listed = async () =>
      (
        await queryRows<{ id: string }>(
          ctx.database.db,
          sql`select id from audit_log where account_id in (${a.id}, ${b.id}) order by id`,
        )
      ).map((r) => r.id);
    const before = await listed();
    const report = await ctx.app.retention.pruneAll();
    expect(report.before.audit_log).toBe('2025-11-20T06:30:00.000Z');
    expect(report.pruned.audit_log).toBe(3);
    expect(await listed()).toEqual(before.filter((id) => !gone.includes(id)));
    expect(await listed()).toEqual(expect.arrayContaining(stay));
  });
});
