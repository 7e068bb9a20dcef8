/**
 * The same-rows baseline of bench:bookings (issue 54), in a process of its own: a `node:http`
 * server with a `pg` pool (as many connections as the app's) that, per request, writes what one
 * booking writes into the clones of schema `bare` (bench/lib/same-rows.ts) in one transaction, and
 * answers as many bytes as a booking's answer. SAME_ROWS_MODE `statements` (the default) sends the
 * statements as a bare server would, one prepared statement at a time between BEGIN and COMMIT: a
 * table's rows in one INSERT, its counters' updates in one UPDATE, each update of a row it inserted
 * on its own; `function` makes one call of bare.book, which
 * runs them all inside PostgreSQL: one round trip.
 *
 * A fraction of a row per booking (an e-mail's delivery row for seven bookings in ten) is written
 * as a running total asks: request n writes floor((n + 1) × r) − floor(n × r) rows, so each table
 * gets its rows per booking on average.
 *
 *   DATABASE_URL=… SAME_ROWS_PLAN='[…SameRowsTable]' ANSWER_BYTES=1234 \
 *     node --import tsx bench/lib/same-rows-baseline.ts   → prints {"port": N}
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { serveBaseline } from './baseline-process.js';
import { BOOK_CALL, POOL_ROWS, type SameRowsTable } from './same-rows.js';

const plan = JSON.parse(process.env.SAME_ROWS_PLAN!) as SameRowsTable[];
const viaFunction = process.env.SAME_ROWS_MODE === 'function';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const answer = JSON.stringify({
  status: 1,
  payload: { pad: 'x'.repeat(Math.max(0, Number(process.env.ANSWER_BYTES) - 30)) },
});
const prefix = randomBytes(4).toString('hex');
let served = 0;

/** Of `perRequest` per request on average, what request n writes. */
const share = (perRequest: number, n: number) => Math.floor((n + 1) * perRequest) - Math.floor(n * perRequest);
const poolRow = () => Math.floor(Math.random() * POOL_ROWS);
/** `count` distinct pool rows (rows of one statement's update). */
function poolRows(count: number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, POOL_ROWS)) picked.add(poolRow());
  return [...picked];
}
const named = (table: number, kind: string, text: string) => ({ name: `bare_${kind}_${table}`, text });

async function viaStatements(n: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const [i, table] of plan.entries()) {
      const inserts = share(table.inserted, n);
      let last: string | undefined;
      if (inserts > 0) {
        const { rows } = await client.query<{ ctid: string }>({
          ...named(i, 'insert', table.insert),
          values: [`${prefix}${n}`, n % 1_000_000, inserts],
        });
        last = rows.at(-1)?.ctid;
      }
      let updates = share(table.updated, n);
      for (; updates > 0 && last !== undefined; updates--) {
        const { rows } = await client.query<{ ctid: string }>({
          ...named(i, 'update', table.updateInserted),
          values: [last],
        });
        last = rows[0]?.ctid;
      }
      // A table's pool rows in one statement, as a bare server would update several counters.
      if (updates > 0 && table.updatePool) {
        await client.query({ ...named(i, 'pool', table.updatePool), values: [poolRows(updates)] });
      }
      for (let d = share(table.deleted, n); d > 0 && last !== undefined; d--) {
        await client.query({ ...named(i, 'delete', table.deleteInserted), values: [last] });
        last = undefined;
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function inOneCall(n: number): Promise<void> {
  await pool.query({
    name: 'bare_book',
    text: BOOK_CALL,
    values: [
      `${prefix}${n}`,
      n % 1_000_000,
      plan.map((t) => share(t.inserted, n)),
      plan.map((t) => share(t.updated, n)),
      plan.map((t) => share(t.deleted, n)),
      plan.map(poolRow),
    ],
  });
}

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', async () => {
    const n = served++;
    try {
      await (viaFunction ? inOneCall(n) : viaStatements(n));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
      response.end(answer);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
});
serveBaseline(server, pool);
