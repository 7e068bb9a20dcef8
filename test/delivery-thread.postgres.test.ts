import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from './databases.js';
import { ROOT } from './server-process.js';
import { processEnv } from './webhook-processes.js';
import { until } from './webhook-receiver.js';

/**
 * An API process's delivery thread (decision 105) whose database refuses its connections when it
 * starts (too many clients: another process starting, a fail-over) waits for the database rather
 * than ending, and the API process with it (main.ts ends the process when its thread ends). CI met
 * it: a test's server died of it while two files started servers on one PostgreSQL. The thread runs
 * as the API process runs it, from dist/, as a role that may hold no connection at first.
 */

const ROLE = 'dakiya_t_thread_role';
let database: { url: string; drop(): Promise<void> };
let running: ChildProcess | undefined;
const lines: { msg?: string; level?: number; attempt?: number }[] = [];

describePostgresOnly('the delivery thread, its database refusing it at start-up', {}, () => {
  beforeAll(async () => {
    database = await createEmptyDatabase('dthread');
    const owner = await openPostgres(database.url, 1);
    await migrate(owner.db);
    await owner.close();
    const name = new URL(database.url).pathname.slice(1);
    await withAdminClient(async (client) => {
      await client.query(`drop role if exists ${ROLE}`);
      // A role's CONNECTION LIMIT binds it (a superuser's would not): 0 refuses every connection.
      await client.query(`create role ${ROLE} login connection limit 0`);
      await client.query(`grant all on database ${name} to ${ROLE}`);
    });
    const grants = await openPostgres(database.url, 1);
    await grants.db.execute(sql.raw(`grant all on all tables in schema public to ${ROLE}`));
    await grants.db.execute(sql.raw(`grant all on all sequences in schema public to ${ROLE}`));
    await grants.close();
  });

  afterAll(async () => {
    if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
    await database?.drop();
    await withAdminClient((client) => client.query(`drop role if exists ${ROLE}`));
  });

  it('waits for the database and then sends, rather than ending the API process', async () => {
    const url = new URL(database.url);
    url.username = ROLE;
    // The API process's side as server.ts runs it (startDeliveryThread), in a process of its own
    // whose standard output is the thread's log (it writes to fd 1) and the harness's own lines.
    const harness = `
      import { startDeliveryThread } from ${JSON.stringify(`${ROOT}/dist/delivery-thread.js`)};
      const say = (msg, fields = {}) => console.log(JSON.stringify({ msg, ...fields }));
      const log = { warn: (m) => say(m), error: (f, m) => say(m, { error: String(f.err?.stack ?? f.err) }) };
      const thread = startDeliveryThread(log, (error) => say('harness: thread lost', { error: error.message }));
      process.on('SIGTERM', async () => { await thread.stop(); say('harness: stopped'); process.exit(0); });
    `;
    // A file rather than --eval: the thread would inherit --input-type and refuse to load.
    const harnessFile = path.join(
      fs.mkdtempSync(path.join(process.env.DAKIYA_TEST_TMP ?? os.tmpdir(), 'thread-')),
      'api.mjs',
    );
    fs.writeFileSync(harnessFile, harness);
    const child = spawn(process.execPath, [harnessFile], {
      env: { ...process.env, ...processEnv(url.toString()), SECRETS_KEY: 'k'.repeat(64) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running = child;
    let exited: number | null | undefined;
    child.on('exit', (code) => {
      exited = code;
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line));
    });
    const said = (msg: string) => lines.some((line) => line.msg === msg);
    const refusals = () => lines.filter((line) => line.msg?.startsWith('the delivery thread cannot start yet'));

    await until(() => refusals().length >= 2 || exited !== undefined, 'two refused starts');
    expect(exited).toBeUndefined();
    expect(said('harness: thread lost')).toBe(false);
    // Warnings, each naming its attempt, the waits growing.
    expect(refusals().map((line) => [line.level, line.attempt])).toEqual(refusals().map((_, i) => [40, i + 1]));

    await withAdminClient((client) => client.query(`alter role ${ROLE} connection limit -1`));
    await until(
      () => said('delivery thread is sending webhooks, customer e-mails and buyer messages'),
      'the thread to run',
    );
    expect(exited).toBeUndefined();
    expect(said('harness: thread lost')).toBe(false);

    child.kill('SIGTERM');
    await until(() => exited !== undefined, 'the process to stop when asked');
    expect(exited).toBe(0);
    expect(said('harness: stopped')).toBe(true);
    expect(said('harness: thread lost')).toBe(false);
  });
});
