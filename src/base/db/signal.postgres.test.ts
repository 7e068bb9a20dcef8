import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from '../../../test/databases.js';
import { postgresSignal, type Signal } from './signal.js';

/**
 * The wake-up API processes and workers send each other through PostgreSQL (LISTEN/NOTIFY): each
 * hears the others' and not its own, sends asked for while one is in flight are folded, and a
 * connection the server cut is opened again.
 */
let database: { url: string; drop(): Promise<void> };
const signals: Signal[] = [];

beforeAll(async () => {
  database = await createEmptyDatabase('signal');
});
afterAll(async () => {
  for (const signal of signals) await signal.close();
  await database?.drop();
});

async function until(condition: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A signal and how many times it heard another. */
async function listening() {
  const signal = postgresSignal(database.url);
  signals.push(signal);
  const heard = { count: 0 };
  signal.onSignal(() => heard.count++);
  return { signal, heard };
}

/** The backends of the signals' connections (nothing else connects to this file's database). */
async function listeners(): Promise<number[]> {
  const name = new URL(database.url).pathname.slice(1);
  return withAdminClient(async (client) =>
    (
      await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      )
    ).rows.map((r) => r.pid),
  );
}

describePostgresOnly('the event signal between processes', {}, () => {
  it('reaches the other processes, not the sender; sends during one in flight are folded; a cut connection comes back', async () => {
    const api = await listening();
    const worker = await listening();
    // Both listening: a signal sent before would be heard by nobody.
    const deadline = Date.now() + 10_000;
    while ((await listeners()).length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await listeners()).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 200));

    api.signal.send();
    await until(() => worker.heard.count === 1, "the worker hearing the API's signal");
    expect(api.heard.count).toBe(0);

    // Ten sends at once: the first goes, the other nine ride on one more.
    for (let i = 0; i < 10; i++) worker.signal.send();
    await until(() => api.heard.count >= 1, "the API hearing the worker's signals");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.heard.count).toBe(2);
    expect(worker.heard.count).toBe(1);

    // The server cuts both connections (a restart, a fail-over): each listens again by itself.
    const before = await listeners();
    await withAdminClient((client) =>
      client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]),
    );
    const back = Date.now() + 10_000;
    let now = await listeners();
    while ((now.length < 2 || now.some((pid) => before.includes(pid))) && Date.now() < back) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await listeners();
    }
    expect(now).toHaveLength(2);
    api.signal.send();
    await until(() => worker.heard.count === 2, 'the worker hearing the API again after the cut');
  });
});
