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
/** The app's log at info and above, as pino writes it: one JSON object a line. */
const logLines: string[] = [];
beforeAll(async () => {
  ctx = await createTestApp({
    settings: { retention: { pruneBatchRows: 2 } },
    logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } },
  });
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

/** The background job's lines: what each run that removed rows removed, and whether it was stopped. */
const jobLines = (lines = logLines) =>
  lines
    .map((line) => JSON.parse(line) as { msg: string; pruned?: unknown; ms?: number; stopped?: boolean })
    .filter((entry) => entry.msg === 'pruning job: rows past their periods removed');

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
      // The stopped run says so, with what it had removed: the 40 less what the on-demand run took.
      expect(jobLines().map(({ pruned, stopped }) => ({ pruned, stopped }))).toEqual([
        { pruned: { audit_log: 40 - report.pruned.audit_log }, stopped: true },
      ]);
    } finally {
      await worker.stop();
    }
  });

  it('the job’s run that removed rows says in the log what each table lost and how long it took', async () => {
    // A process of its own on the same database: the first's job was stopped above, for good.
    const lines: string[] = [];
    const own = await createTestApp({
      database: ctx.database,
      settings: { retention: { pruneBatchRows: 2 } },
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await own.app.retention.pruneAll();
      const m = await merchant(ctx);
      await entries(m.id, 400, 5);
      own.app.retention.worker.start();
      await expect.poll(() => jobLines(lines).length).toBe(1);
      const [line] = jobLines(lines);
      expect(line).toMatchObject({ level: 30, pruned: { audit_log: 5 }, stopped: false });
      expect(line!.ms).toBeGreaterThan(0);
      expect(await ages(m.id)).toEqual({ old: 0, recent: 0 });
    } finally {
      await own.app.retention.worker.stop();
      await own.app.close();
    }
  });
});
