import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { auditLog } from '../../base/db/schema.js';

// An on-demand run (the operator route, the command) beside the background job: the job's run in
// progress stops at the end of its batch and the on-demand run prunes the rest alone, rather than
// both deleting the same rows, each behind the other's batches and the job's pauses. The test
// clock stands at 2026-11-20 06:30 UTC; audit entries are kept 365 days.

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 2 } } });
});
afterAll(async () => {
  await ctx.close();
});

async function entries(accountId: string, days: number, count: number) {
  await ctx.database.db.insert(auditLog).values(
    Array.from({ length: count }, () => ({
      accountId,
      at: new Date(ctx.clock.now().getTime() - days * DAY),
      actorType: 'member',
      actorId: crypto.randomUUID(),
      actorName: 'ops@acme.example',
      ip: '203.0.113.7',
      action: 'webhook.created',
      objectType: 'webhook',
      objectId: crypto.randomUUID(),
    })),
  );
}

/** This test's entries of the account (not those its making wrote), past their period and not. */
const ages = async (accountId: string) =>
  (
    await queryRows<{ old: number; recent: number }>(
      ctx.database.db,
      sql`select count(*) filter (where at < ${new Date(ctx.clock.now().getTime() - 365 * DAY).toISOString()}::timestamptz)::int as old,
                 count(*) filter (where at >= ${new Date(ctx.clock.now().getTime() - 365 * DAY).toISOString()}::timestamptz)::int as recent
            from audit_log where account_id = ${accountId} and actor_name = 'ops@acme.example'`,
    )
  )[0]!;

describe('pruning on demand', () => {
  it('with its signal already aborted, removes nothing from any table', async () => {
    const m = await merchant(ctx);
    await entries(m.id, 400, 3);
    const stop = new AbortController();
    stop.abort();
    const report = await ctx.app.retention.pruneAll({ signal: stop.signal });
    expect(Object.values(report.pruned).every((rows) => rows === 0)).toBe(true);
    expect(await ages(m.id)).toEqual({ old: 3, recent: 0 });
    await ctx.app.retention.pruneAll();
    expect(await ages(m.id)).toEqual({ old: 0, recent: 0 });
  });

  it('stops the job’s run in progress and removes the rest itself; together they remove exactly what is past its period', async () => {
    const m = await merchant(ctx);
    await entries(m.id, 400, 40);
    await entries(m.id, 364, 2);
    const { worker } = ctx.app.retention;
    worker.start();
    try {
      // The job prunes two rows a batch, pausing 200 ms after each: wait until it is in the audit log's.
      while ((await ages(m.id)).old === 40) await new Promise((resolve) => setTimeout(resolve, 20));
      const report = await ctx.app.retention.pruneAll();
      expect(await ages(m.id)).toEqual({ old: 0, recent: 2 });
      expect(report.pruned.audit_log).toBeGreaterThan(0);
      expect(report.pruned.audit_log).toBeLessThan(40);
      // The job's run ended with the on-demand one: old entries written now stay until its next run, an hour on.
      await entries(m.id, 400, 4);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await ages(m.id)).toEqual({ old: 4, recent: 2 });
    } finally {
      await worker.stop();
    }
  });
});
