import type { Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from '../../../test/databases.js';
import { type Database, openPostgres } from './client.js';
import { isDatabaseUnavailable } from './errors.js';

/**
 * A pooled connection whose backend PostgreSQL terminated while it sat idle in the pool (a restart,
 * a fail-over, pg_terminate_backend), handed to a transaction before the client has read that its
 * server is gone: the transaction's BEGIN fails. Drizzle's own transaction then kept the client
 * checked out for good, and once the pool's clients were all lost so, every statement of the
 * process waited for one forever (`npm run worker` ended, having nothing else to wait on). The
 * transaction must fail as a lost connection does, and the pool keep serving.
 */
let database: { url: string; drop(): Promise<void> };
const opened: Database[] = [];

beforeAll(async () => {
  database = await createEmptyDatabase('pool');
});
afterAll(async () => {
  // A pool that lost a client for good never ends: not waited for past a few seconds.
  for (const db of opened) await withinSeconds(5, 'closing the pool', db.close()).catch(() => {});
  await database?.drop();
});

const withinSeconds = <T>(seconds: number, what: string, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer within ${seconds} s`)), seconds * 1000).unref(),
    ),
  ]);

/**
 * Leaves the pool's one client idle in the pool with its backend terminated and gone, its socket
 * not read meanwhile (as on a busy process, whose event loop has not come round to it): the
 * client does not know yet. Answers a function that lets it read again.
 */
async function idleClientWithItsBackendGone(pool: pg.Pool): Promise<() => void> {
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  socket.pause();
  client.release();
  const pid = rows[0]!.pid;
  await withAdminClient(async (admin) => {
    await admin.query('select pg_terminate_backend($1)', [pid]);
    for (let wait = 0; ; wait++) {
      const alive = await admin.query('select 1 from pg_stat_activity where pid = $1', [pid]);
      if (alive.rowCount === 0) break;
      if (wait > 200) throw new Error(`backend ${pid} still there after pg_terminate_backend`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
  return () => socket.resume();
}

describePostgresOnly('a pooled transaction on a connection PostgreSQL cut', {}, () => {
  it('fails as the database being unavailable, gives its client back, and the pool serves the next statement', async () => {
    const lost: Error[] = [];
    // One client: a single one kept checked out would leave the pool nothing to serve with.
    const opening = await openPostgres(database.url, 1, (error) => lost.push(error));
    opened.push(opening);
    const { db } = opening;
    const pool = (db as unknown as { $client: pg.Pool }).$client;
    for (let round = 1; round <= 3; round++) {
      const readAgain = await idleClientWithItsBackendGone(pool);
      let ran = false;
      const transaction = db.transaction(async (tx) => {
        ran = true;
        await tx.execute(sql`select 1`);
      });
      readAgain();
      const error = await withinSeconds(10, `round ${round}'s transaction`, transaction).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error, `round ${round}: the transaction on the dead connection`).toBeDefined();
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(ran).toBe(false);
      // The client went back and, its connection dead, was closed: the next statement gets a new one.
      expect(pool.totalCount, 'clients the pool counts: one kept checked out never goes').toBe(0);
      const answer = await withinSeconds(10, `the statement after round ${round}`, db.execute(sql`select 1 as one`));
      expect((answer as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
      const committed = await withinSeconds(
        10,
        `a transaction after round ${round}`,
        db.transaction(async (tx) => (await tx.execute(sql`select 2 as two`)) as unknown as { rows: unknown[] }),
      );
      expect(committed.rows).toEqual([{ two: 2 }]);
    }
  });
});
