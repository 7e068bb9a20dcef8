import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres } from '../src/base/db/client.js';
import type { Database } from '../src/base/db/client.js';
import { createTestApp, type TestContext } from './app.js';
import { createEmptyDatabase, pgliteTemplateBlob } from './databases.js';
import { dakiyaFile, listed, shipCod } from './kit/cod.js';
import { post, V1 } from './kit/http.js';
import { book } from './kit/orders.js';
import { merchantWithCityWarehouse } from './kit/warehouses.js';
import { ROOT } from './server-process.js';

// `cod import` and `weight-reports import` as an operator runs them: the CLI in a process of its
// own (dist/cli.js, what `npm run cli` runs), a FILE named relative to the folder npm was called
// from (INIT_CWD), against the data directory or DATABASE_URL a server of the same data would use.
// The shipments are made through the API first (the test's clock: delivered on 2026-11-20), the
// database closed for the CLI, which runs on the real clock: the files' dates must be past on it.

const engine = process.env.DAKIYA_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-cli-money-'));
cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));

/** The database the CLI and the in-process app take turns on, and the environment that names it. */
async function sharedDatabase(): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (engine === 'postgres') {
    const database = await createEmptyDatabase('cli_money');
    cleanups.push(database.drop);
    const env = { DATABASE_URL: database.url, DATA_DIR: '' };
    expect(JSON.parse((await cli(env, 'migrate')).stdout)).toMatchObject({ engine: 'postgres' });
    return { env, open: () => openPostgres(database.url, 2) };
  }
  const dataDir = path.join(folder, 'data');
  fs.mkdirSync(dataDir);
  // The run's migrated copy, as after a first start (a start from nothing: persistence.unit.test.ts).
  await (await openPglite(dataDir, await pgliteTemplateBlob())).close();
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, open: () => openPglite(dataDir) };
}

async function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string }> {
  const options = { cwd: ROOT, env: { ...process.env, ...env, INIT_CWD: folder, ADMIN_TOKEN: '' } };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/cli.js'), ...args], options);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe(`the money imports of the CLI (${engine})`, { timeout: 300_000 }, () => {
  it('cod import and weight-reports import take a file for the named account, line by line, once, and touch no other account', async () => {
    const { env, open } = await sharedDatabase();
    let ctx: TestContext = await createTestApp({ database: await open() });
    const owner = await merchantWithCityWarehouse(ctx);
    const stranger = await merchantWithCityWarehouse(ctx);
    const [paid, short, unpaid] = (await shipCod(ctx, owner, [998.5, 1499, 750])) as [string, string, string];
    const [theirs] = (await shipCod(ctx, stranger, [800])) as [string];
    const heavy = (await book(ctx, owner.apiKey, owner.warehouseId)).awb_code!;
    const theirHeavy = (await book(ctx, stranger.apiKey, stranger.warehouseId)).awb_code!;
    await ctx.close();

    fs.writeFileSync(
      path.join(folder, 'shadowfax-2026-11-21.csv'),
      dakiyaFile([
        [paid, '998.50', 'UTIB0000123456', '2026-11-21'],
        [short, '1450', 'UTIB0000123456', '2026-11-21'],
        [theirs, '800', 'UTIB0000123456', '2026-11-21'],
        [unpaid, 'lots', 'UTIB0000123456', '2026-11-21'],
      ]),
    );
    const first = await cli(env, 'cod', 'import', '--account', owner.id, 'shadowfax-2026-11-21.csv');
    expect(first.code, first.stdout).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      file_name: 'shadowfax-2026-11-21.csv',
      lines: 4,
      applied: 2,
      applied_amount: 2448.5,
      duplicates: 0,
      discrepancies: 1,
      problems: [
        { line: 4, awb: theirs, reason: `AWB ${theirs} not found` },
        { line: 5, awb: unpaid, reason: 'amount "lots" is not rupees with at most two decimals (e.g. 1499.50)' },
      ],
    });
    // The same file again: every good line is a duplicate, nothing applied.
    const again = await cli(env, 'cod', 'import', '--account', owner.id, 'shadowfax-2026-11-21.csv');
    expect(JSON.parse(again.stdout)).toMatchObject({
      lines: 4,
      applied: 0,
      applied_amount: 0,
      duplicates: 2,
      discrepancies: 0,
    });

    fs.writeFileSync(path.join(folder, 'weights.csv'), `awb,charged_weight_g\n${heavy},1200\n${theirHeavy},1200\n`);
    const weights = await cli(env, 'weight-reports', 'import', '--account', owner.id, 'weights.csv');
    expect(weights.code, weights.stdout).toBe(0);
    const report = JSON.parse(weights.stdout).data;
    expect(report.opened).toEqual([{ id: expect.any(String), awb: heavy, charged_weight: 1200, extra_charge: 80 }]);
    expect(report).toMatchObject({
      rows: 2,
      unchanged: 0,
      no_extra_charge: 0,
      errors: [{ line: 3, awb: theirHeavy, message: 'no shipment with this AWB in this account' }],
    });
    // What the API shows afterwards: the owner's ledger moved, the stranger's did not.
    ctx = await createTestApp({ database: await open() });
    try {
      const states = (await listed(ctx, owner.apiKey, `${V1}/cod/receivables`)).data.map(
        (r: { awb: string; state: string; received_amount: number }) => [r.awb, r.state, r.received_amount],
      );
      expect(states.sort()).toEqual(
        [
          [paid, 'reconciled', 998.5],
          [short, 'remitted', 1450],
          [unpaid, 'pending', 0],
        ].sort(),
      );
      expect(
        (await listed(ctx, stranger.apiKey, `${V1}/cod/receivables`)).data.map((r: { awb: string; state: string }) => [
          r.awb,
          r.state,
        ]),
      ).toEqual([[theirs, 'pending']]);
      expect((await listed(ctx, stranger.apiKey, `${V1}/cod/remittances`)).data).toEqual([]);
      const charges = async (apiKey: string, awb: string) =>
        (await post(ctx, apiKey, `${V1}/shipping-charges`, { awbs: [awb] })).json().payload[awb];
      expect(await charges(owner.apiKey, heavy)).toMatchObject({ total_charges: 42, pending_charges: 80 });
      expect(await charges(stranger.apiKey, theirHeavy)).toMatchObject({ total_charges: 42, pending_charges: 0 });
      expect((await listed(ctx, stranger.apiKey, `${V1}/weight-disputes`)).data).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
