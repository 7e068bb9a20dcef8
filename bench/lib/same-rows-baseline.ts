/**
 * The same-rows baseline of bench:bookings (issue 54), in a process of its own: a `node:http`
 * server with a `pg` pool (as many connections as the app's) that, per request, writes what one
 * booking writes into the clones of schema `bare` (bench/lib/same-rows.ts) in one transaction and
 * one round trip, and answers as many bytes as a booking's answer. A fraction of a row per booking
 * (an e-mail row for seven bookings in ten) is written as the running total asks: request n writes
 * floor((n + 1) × r) − floor(n × r) rows, so every table gets its rows per booking on average.
 *
 *   DATABASE_URL=… SAME_ROWS_PLAN='[{"inserted":1,"updated":2,"deleted":0}, …]' ANSWER_BYTES=1234 \
 *     node --import tsx bench/lib/same-rows-baseline.ts   → prints {"port": N}
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { serveBaseline } from './baseline-process.js';
import { BOOK_CALL, POOL_ROWS } from './same-rows.js';

const plan = JSON.parse(process.env.SAME_ROWS_PLAN!) as { inserted: number; updated: number; deleted: number }[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const answer = JSON.stringify({
  status: 1,
  payload: { pad: 'x'.repeat(Math.max(0, Number(process.env.ANSWER_BYTES) - 30)) },
});
const BOOK = { name: 'bare_book', text: BOOK_CALL };
const prefix = randomBytes(4).toString('hex');
let served = 0;

/** Of `perRequest` per request on average, what request n writes. */
const share = (perRequest: number, n: number) => Math.floor((n + 1) * perRequest) - Math.floor(n * perRequest);

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', async () => {
    const n = served++;
    try {
      await pool.query({
        ...BOOK,
        values: [
          `${prefix}${n}`,
          n % 1_000_000,
          plan.map((t) => share(t.inserted, n)),
          plan.map((t) => share(t.updated, n)),
          plan.map((t) => share(t.deleted, n)),
          plan.map(() => Math.floor(Math.random() * POOL_ROWS)),
        ],
      });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
      response.end(answer);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
});
serveBaseline(server, pool);
