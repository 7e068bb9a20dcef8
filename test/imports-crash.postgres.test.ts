import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, queryRows } from '../src/base/db/client.js';
import { createTestApp, type TestContext } from './app.js';
import { createEmptyDatabase, describePostgresOnly } from './databases.js';
import { COD_FILES, dakiyaFile, importRemittances } from './kit/cod.js';
import { BOUNDARY } from './kit/uploads.js';
import { createAccount, type ServerProcess, startServerProcess } from './server-process.js';
import { ADMIN_TOKEN, processEnv } from './webhook-processes.js';
import { until } from './webhook-receiver.js';

/**
 * Issue 46: one import per account at a time holds across the processes of a cluster, and a
 * process that dies mid-import leaves nothing behind (base/db/import-slots.ts). A real server
 * (`npm start`) holds an upload open; this process, on the same database, is told 409 naming it;
 * the server is killed (SIGKILL) mid-upload, and the account imports again at once: its lock went
 * with the dead process's connection, and the row it left is overwritten.
 */

const cleanups: (() => Promise<unknown>)[] = [];
let server: ServerProcess;
let ctx: TestContext;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
});

describePostgresOnly('an account’s import across processes', {}, () => {
  beforeAll(async () => {
    const database = await createEmptyDatabase('imports');
    cleanups.push(database.drop);
    server = await startServerProcess({ env: processEnv(database.url) });
    cleanups.push(() => server.stop(15_000));
    ctx = await createTestApp({ database: await openPostgres(database.url, 2) });
    cleanups.push(() => ctx.close());
  });

  it('answers 409 naming the import another process holds, and takes the account once that process dies mid-import', async () => {
    const { accountId, apiKey } = await createAccount(server, ADMIN_TOKEN, 'Importer');
    const upload = http.request(`${server.url}${COD_FILES}`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    // The connection is cut by the kill: that is the point.
    upload.on('error', () => {});
    upload.write(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="held.csv"\r\nContent-Type: text/csv\r\n\r\n` +
        'awb,amount,utr,remittance_date\nSFX1,10,UTR1,2026-11-01\n',
    );
    type Row = { id: string; holder: number };
    let held: Row | undefined;
    await until(async () => {
      [held] = await queryRows<Row>(
        ctx.database.db,
        sql`select id, holder_pid as holder from running_imports where account_id = ${accountId} and file_name = 'held.csv'`,
      );
      return held !== undefined;
    }, 'the server to hold the upload');

    const file = dakiyaFile([['SFX2', '20', 'UTR2', '2026-11-01']]);
    const refused = await importRemittances(ctx, apiKey, file);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toMatch(
      new RegExp(
        `^Another import of this account is running: the remittance file "held.csv" \\(import ${held!.id}\\), started `,
      ),
    );

    server.signal('SIGKILL');
    // The dead process's connection ends on the database's side too, and its lock with it.
    const gone = async () =>
      (
        await queryRows<{ n: number }>(
          ctx.database.db,
          sql`select count(*)::int as n from pg_stat_activity where pid = ${held!.holder}`,
        )
      )[0]!.n === 0;
    await until(gone, "the killed server's connection to end");

    const taken = await importRemittances(ctx, apiKey, file);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ lines: 1, problem_count: 1 });
    expect(taken.json().id).not.toBe(held!.id);
    // Nothing left: the dead import's row was overwritten by this one, which removed it as it ended.
    const rows = await queryRows(ctx.database.db, sql`select 1 from running_imports where account_id = ${accountId}`);
    expect(rows).toEqual([]);
  });
});
