import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestContext } from '../../../test/app.js';
import { realPng } from '../../../test/kit/images.js';
import { authed, post, V1 } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { LEASE_MS } from './account-export.job.js';

// An account's export (issue 52) read in more than one batch: a table with bytes (store_logos) is
// read five rows at a time, so seven logos take two batches, with a pause between them. What the
// process does between two batches of one table: pause, stop when it is ending, notice that the
// export was taken up by another process meanwhile, renew its hold during a long copy. And two
// exports asked for at the same moment. The export's contents: account-export.test.ts; its failures:
// account-export-failures.test.ts.

const EXPORTS = `${V1}/account/exports`;
const LOGOS = 7;

/** A clock on which, once a step is set, each reading is that much later than the one before: time passing during a long copy. */
class SteppingClock extends TestClock {
  step = 0;
  override now(): Date {
    if (this.step > 0) this.advance(this.step);
    return super.now();
  }
}
const clock = new SteppingClock();
let ctx: TestContext;
const unpacked = mkdtempSync(path.join(tmpdir(), 'dakiya-export-batches-'));
beforeAll(async () => {
  ctx = await createTestApp({ clock });
});
afterAll(async () => {
  await ctx.close();
  rmSync(unpacked, { recursive: true, force: true });
});

const exportsDir = () => path.join(ctx.dataDir, 'exports');
const filesOf = (id: string) =>
  readdirSync(exportsDir())
    .filter((name) => name.startsWith(id))
    .sort();

/** An account with seven stores, each with a logo of its own colour: seven rows of store_logos. */
async function withLogos(name: string) {
  const m = await merchant(ctx, name);
  for (let i = 0; i < LOGOS; i += 1)
    await createStore(ctx, m.apiKey, {
      store_name: `logo-store-${i}`,
      logo: realPng(8, 8, [20 * i, 40, 200 - 10 * i]).toString('base64'),
    });
  return m;
}

async function started(apiKey: string): Promise<string> {
  const answer = await post(ctx, apiKey, EXPORTS, {});
  expect(answer.statusCode, answer.body).toBe(202);
  return answer.json().data.id;
}

const exportRow = async (id: string) =>
  (
    await queryRows<{ status: string; attempts: number; lease_until: string | null; rows_written: number }>(
      ctx.database.db,
      sql`select status, attempts, lease_until, rows_written::int as rows_written from account_exports where id = ${id}`,
    )
  )[0];

/** The rows each batch added, table by table, in the order the batches were written. */
function batchesOf(seen: { table: string; rowsWritten: number }[]) {
  return seen.map((batch, i) => ({ table: batch.table, rows: batch.rowsWritten - (seen[i - 1]?.rowsWritten ?? 0) }));
}

describe('an export of a table read in several batches', () => {
  it('reads the logos five at a time with a pause between, and writes each exactly while time passes during its copies', async () => {
    const m = await withLogos('Seven Logos');
    const id = await started(m.apiKey);
    const seen: { table: string; rowsWritten: number }[] = [];
    const ran = await ctx.app.accountExports.runPending({
      pauseMs: 1,
      afterBatch: ({ table, rowsWritten }) => {
        seen.push({ table, rowsWritten });
        // From the last batch of logos on, more than a quarter of the hold passes between two readings
        // of the clock: each copy into the archive renews the hold as it goes.
        if (table === 'store_logos' && seen.filter((s) => s.table === table).length === 2)
          clock.step = LEASE_MS / 4 + 1000;
      },
    });
    clock.step = 0;
    expect(ran).toEqual({ ready: 1, failed: 0, stopped: 0, gone: 0 });
    expect(batchesOf(seen).filter((batch) => batch.table === 'store_logos')).toEqual([
      { table: 'store_logos', rows: 5 },
      { table: 'store_logos', rows: 2 },
    ]);
    expect(batchesOf(seen).filter((batch) => batch.table === 'stores')).toEqual([{ table: 'stores', rows: LOGOS }]);
    const row = await exportRow(id);
    expect(row).toMatchObject({ status: 'ready', attempts: 1, rows_written: seen.at(-1)!.rowsWritten });

    // The archive, as the system's tar reads it: seven lines of logos, each one's bytes as the database holds them.
    const archive = await ctx.app.inject({ method: 'GET', url: `${EXPORTS}/${id}/archive`, headers: authed(m.apiKey) });
    expect(archive.statusCode).toBe(200);
    const file = path.join(unpacked, 'seven.tar.gz');
    writeFileSync(file, archive.rawPayload);
    execFileSync('tar', ['-xzf', file, '-C', unpacked]);
    const logos = readFileSync(path.join(unpacked, 'tables', 'store_logos.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { store_id: string; bytes: string });
    const held = await queryRows<{ store_id: string; bytes: string }>(
      ctx.database.db,
      sql`select store_id, translate(encode(bytes, 'base64'), E'\n', '') as bytes from store_logos
          where account_id = ${m.id} order by store_id`,
    );
    expect(held).toHaveLength(LOGOS);
    expect(logos.map(({ store_id, bytes }) => ({ store_id, bytes }))).toEqual(held);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    expect(manifest.tables.store_logos).toEqual({ file: 'tables/store_logos.jsonl', rows: LOGOS });
  });

  it('stops between two batches when its process ends, at once or in the pause, letting the export go; the next run writes it', async () => {
    const m = await withLogos('Stopped Between Batches');
    for (const during of ['between', 'pause'] as const) {
      const id = await started(m.apiKey);
      const stop = new AbortController();
      const ran = await ctx.app.accountExports.runPending({
        // In the pause: a minute long, ended by the stop 20 ms into it.
        pauseMs: during === 'pause' ? 60_000 : 0,
        signal: stop.signal,
        afterBatch: ({ table }) => {
          if (table !== 'store_logos') return;
          if (during === 'between') stop.abort();
          else setTimeout(() => stop.abort(), 20);
        },
      });
      expect(ran, during).toEqual({ ready: 0, failed: 0, stopped: 1, gone: 0 });
      expect(await exportRow(id), during).toMatchObject({ status: 'running', attempts: 1, lease_until: null });
      expect(filesOf(id), during).toEqual([]);
      expect(await ctx.app.accountExports.runPending(), during).toEqual({ ready: 1, failed: 0, stopped: 0, gone: 0 });
      expect(await exportRow(id), during).toMatchObject({ status: 'ready', attempts: 2 });
      expect(filesOf(id), during).toEqual([`${id}.tar.gz`]);
    }
  });

  it('gives the export up when another process took it between two of its batches, leaving that one’s archive alone', async () => {
    const m = await withLogos('Taken Between Batches');
    const id = await started(m.apiKey);
    const meanwhile: unknown[] = [];
    const first = await ctx.app.accountExports.runPending({
      afterBatch: async ({ table }) => {
        if (table !== 'store_logos' || meanwhile.length > 0) return;
        // This process stalls after the first five logos; its hold passes and another process writes the export.
        ctx.clock.advance(LEASE_MS + 1000);
        meanwhile.push(await ctx.app.accountExports.runPending());
      },
    });
    expect(meanwhile).toEqual([{ ready: 1, failed: 0, stopped: 0, gone: 0 }]);
    expect(first).toEqual({ ready: 0, failed: 0, stopped: 0, gone: 1 });
    expect(await exportRow(id)).toMatchObject({ status: 'ready', attempts: 2 });
    expect(filesOf(id)).toEqual([`${id}.tar.gz`]);
    const archive = await ctx.app.inject({ method: 'GET', url: `${EXPORTS}/${id}/archive`, headers: authed(m.apiKey) });
    expect(archive.statusCode).toBe(200);
  });
});

describe('two exports asked for at once', () => {
  it('starts one and refuses the other, naming the one being written', async () => {
    const m = await merchant(ctx, 'Asked Twice');
    const answers = await Promise.all([post(ctx, m.apiKey, EXPORTS, {}), post(ctx, m.apiKey, EXPORTS, {})]);
    const [accepted] = answers.filter((answer) => answer.statusCode === 202);
    const refused = answers.filter((answer) => answer.statusCode !== 202);
    expect(refused.map((answer) => answer.statusCode)).toEqual([409]);
    const id = accepted!.json().data.id as string;
    expect(refused[0]!.json()).toMatchObject({
      code: 'account_export_running',
      message: `export ${id} of the account is being written (0 of ${accepted!.json().data.tables_total} tables): wait for it`,
    });
    const rows = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from account_exports where account_id = ${m.id}`,
    );
    expect(rows).toEqual([{ id }]);
    expect(await ctx.app.accountExports.runPending()).toEqual({ ready: 1, failed: 0, stopped: 0, gone: 0 });
  });
});
