/**
 * The tracking poller's lease of due parcels (src/couriers/couriers.repository.ts leaseDue, 500 at
 * a time) on a queue of a year's size, with the queue's pages filled as migration 0086 leaves them
 * (fillfactor 70) against filled to the brim (100, as before it), in the same run:
 *
 *   npx tsx bench/poll-lease.ts [--rows=15000] [--leases=15] [--rounds=3]
 *
 * A fresh database `dakiya_bench_<random>` on the local PostgreSQL, migrated, dropped at the end.
 * Each round fills `courier_polls` afresh for each fill factor (rows in booking order, due over
 * 15 minutes, as bench/lib/year-sql.ts writes a year's queue; foreign keys not checked, as the
 * year's fill), vacuums and analyses it, then times `leases` leases of the 500 earliest due, each in
 * a transaction rolled back (so each finds the same pages), and counts how many of the lease's
 * updates were HOT (no index entry written). 15,000 rows: the queue at 2,000 parcels a day, whose
 * lease took 1.50–2.08× the empty database's in `npm run bench:year` (performance.md).
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { type Executor, pooledDatabase, queryRows } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { leaseDue } from '../src/couriers/couriers.repository.js';
import { benchArgs, log } from './lib/year-setup.js';
import { scratchDatabase } from './lib/scratch-database.js';

const args = benchArgs();
const rows = Number(args.rows ?? 15_000);
const leases = Number(args.leases ?? 15);
const rounds = Number(args.rounds ?? 3);
const CARRIER = 'CARBENCH001';
const now = new Date('2026-11-28T00:00:00Z');

const scratch = await scratchDatabase(log);
const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
const db = pooledDatabase(pool);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

class Rollback extends Error {}

// The backend's count (its transactions' not yet reported to the statistics included): a difference.
async function hotUpdates(ex: Executor): Promise<number> {
  const [row] = await queryRows<{ hot: number }>(
    ex,
    sql`select pg_stat_get_xact_tuples_hot_updated('courier_polls'::regclass)::int as hot`,
  );
  return row!.hot;
}

async function fill(fillfactor: number) {
  const client = await pool.connect();
  try {
    await client.query(`alter table courier_polls set (fillfactor = ${fillfactor})`);
    await client.query('truncate courier_polls');
    await client.query('set session_replication_role = replica');
    await client.query(
      `insert into courier_polls (subject_id, journey, shipment_id, account_id, carrier_id, awb, booked_at, next_poll_at)
       select id, 'forward', id, gen_random_uuid(), $1, 'BENCH' || lpad(n::text, 10, '0'), $2::timestamptz,
         $2::timestamptz + make_interval(secs => n % 900)
       from (select n, gen_random_uuid() as id from generate_series(1, $3::int) n) g`,
      [CARRIER, now.toISOString(), rows],
    );
    await client.query('set session_replication_role = default');
    await client.query('vacuum analyze courier_polls');
  } finally {
    client.release();
  }
}

async function timeLeases(): Promise<{ ms: number; hot: number }> {
  const times: number[] = [];
  const hots: number[] = [];
  const at = new Date(now.getTime() + 2 * 86_400_000);
  for (let i = 0; i < leases; i++) {
    await db
      .transaction(async (tx) => {
        const before = await hotUpdates(tx);
        const started = performance.now();
        const leased = await leaseDue(tx, [CARRIER], at, 500, 120_000);
        times.push(performance.now() - started);
        hots.push(((await hotUpdates(tx)) - before) / leased.length);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  }
  return { ms: median(times), hot: median(hots) };
}

try {
  await migrate(db);
  log(`${rows} polls, ${leases} leases of 500 a fill, ${rounds} rounds`);
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    const measured: Record<number, number> = {};
    for (const fillfactor of [70, 100]) {
      await fill(fillfactor);
      const { ms, hot } = await timeLeases();
      measured[fillfactor] = ms;
      line.push(`fillfactor ${fillfactor}: lease ${ms.toFixed(1)} ms (median), ${Math.round(hot * 100)} % HOT`);
    }
    log(`round ${round}: ${line.join('; ')}; 70 / 100 = ${(measured[70]! / measured[100]!).toFixed(2)}×`);
  }
} finally {
  await pool.end();
  await scratch.drop();
}
