import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, post, V1 } from '../../../test/kit/http.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// An account's export when it cannot be written or read back (issue 52): given up after five
// starts, failed when the folder cannot take it, a failed export's archive refused, an archive
// missing from the server's folder answered 404, and the operator's export written in-process.
// The export itself: account-export.test.ts.

const EXPORTS = `${V1}/account/exports`;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const get = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
async function started(apiKey: string): Promise<string> {
  const answer = await post(ctx, apiKey, EXPORTS, {});
  expect(answer.statusCode, answer.body).toBe(202);
  return answer.json().data.id;
}

describe('an export that cannot be written', () => {
  it('is given up as failed after five starts, and its archive is refused with the reason', async () => {
    const m = await merchant(ctx);
    const id = await started(m.apiKey);
    // Five processes took it up and ended before writing it.
    await queryRows(ctx.database.db, sql`update account_exports set attempts = 5 where id = ${id}`);
    expect(await ctx.app.accountExports.runPending()).toEqual({ ready: 0, failed: 1, stopped: 0, gone: 0 });
    const status = (await get(m.apiKey, `${EXPORTS}/${id}`)).json().data;
    expect(status).toMatchObject({
      status: 'failed',
      error: 'stopped 5 times before it was written (the server restarted or ran out of memory)',
    });
    const archive = await get(m.apiKey, `${EXPORTS}/${id}/archive`);
    expect(archive.statusCode).toBe(409);
    expect(archive.json()).toMatchObject({
      code: 'export_not_ready',
      message: `export ${id} failed (stopped 5 times before it was written (the server restarted or ran out of memory)): start another`,
    });
    // A failed one is not running: another may start.
    expect((await post(ctx, m.apiKey, EXPORTS, {})).statusCode).toBe(202);
    await ctx.app.accountExports.runPending();
  });

  it('fails when the folder cannot take it, and the error reaches the server log', async () => {
    const errors: unknown[] = [];
    const dataDir = path.join(ctx.dataDir, 'blocked');
    // DATA_DIR/exports is a file: nothing can be written under it.
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'exports'), 'not a folder');
    const blocked = await createTestApp({ database: ctx.database, settings: { database: { dataDir } } });
    try {
      blocked.app.log.error = ((object: unknown) => errors.push(object)) as typeof blocked.app.log.error;
      const m = await merchant(blocked);
      const answer = await post(blocked, m.apiKey, EXPORTS, {});
      expect(answer.statusCode).toBe(202);
      const id = answer.json().data.id;
      expect(await blocked.app.accountExports.runPending()).toEqual({ ready: 0, failed: 1, stopped: 0, gone: 0 });
      const status = await blocked.app.inject({ method: 'GET', url: `${EXPORTS}/${id}`, headers: authed(m.apiKey) });
      expect(status.json().data).toMatchObject({
        status: 'failed',
        error: 'the archive could not be written: the server log says why',
      });
      expect(errors).toHaveLength(1);
      // The operator's export (the CLI's accounts export), written in its process, fails the same way and says so.
      const thrown = await blocked.app.accountExports.exportNow(m.id).then(
        () => undefined,
        (error: Error) => error.message,
      );
      const [other] = await queryRows<{ id: string; status: string }>(
        blocked.database.db,
        sql`select id, status from account_exports where account_id = ${m.id} and id <> ${id}`,
      );
      expect(other!.status).toBe('failed');
      expect(thrown).toBe(`export ${other!.id} failed: the archive could not be written: the server log says why`);
      expect(errors).toHaveLength(2);
    } finally {
      await blocked.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an export read back', () => {
  it('answers 404 when its archive is not in this server’s folder', async () => {
    const m = await merchant(ctx);
    const id = await started(m.apiKey);
    await ctx.app.accountExports.runPending();
    rmSync(path.join(ctx.dataDir, 'exports', `${id}.tar.gz`));
    const archive = await get(m.apiKey, `${EXPORTS}/${id}/archive`);
    expect(archive.statusCode).toBe(404);
    expect(archive.json()).toMatchObject({
      code: 'account_export_not_found',
      message: `export ${id}'s archive is not on this server (DATA_DIR/exports): it was deleted, or written by a server with another DATA_DIR`,
    });
  });

  it("the operator's export (the CLI's accounts export) is written in its process and named by its file", async () => {
    const m = await merchant(ctx);
    const written = await ctx.app.accountExports.exportNow(m.id);
    expect(written).toMatchObject({ status: 'ready', file: path.join(ctx.dataDir, 'exports', `${written.id}.tar.gz`) });
    await expect(ctx.app.accountExports.exportNow('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'no account 00000000-0000-4000-8000-000000000000',
    );
  });
});
