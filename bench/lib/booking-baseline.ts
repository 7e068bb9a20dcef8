/**
 * The bookings benchmark's bare baseline, in a process of its own: a `node:http` server with a `pg`
 * pool (as many connections as the app's) that stores every request's body as one row, by one
 * INSERT committed on its own (a WAL flush, like a booking), and answers its order_id. The least a
 * booking can cost this machine: one round trip and one durable commit, without our framework,
 * validation, auth, pricing, AWB series, courier, events or listing counters.
 *
 *   DATABASE_URL=… node --import tsx bench/lib/booking-baseline.ts   → prints {"port": N}
 */
import http from 'node:http';
import pg from 'pg';
import { serveBaseline } from './baseline-process.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
await pool.query(
  'create table if not exists bench_bookings (id uuid primary key default gen_random_uuid(), order_id text not null unique, body jsonb not null)',
);
const INSERT = {
  name: 'bench_booking',
  text: 'insert into bench_bookings (order_id, body) values ($1, $2) returning id',
};

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { order_id: string };
      const { rows } = await pool.query({ ...INSERT, values: [body.order_id, body] });
      const answer = JSON.stringify({ status: 1, payload: { order_id: rows[0].id, channel_order_id: body.order_id } });
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(answer),
      });
      response.end(answer);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
});
serveBaseline(server, pool);
