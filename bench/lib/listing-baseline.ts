/**
 * The listing benchmark's bare baseline, in a process of its own: a `node:http` server with a `pg`
 * pool (as many connections as the app's) that answers every request with the first page of the
 * account given by running **the app's own statement** for an unfiltered first page
 * (`pageStatement` of the shipments reader, compiled once to text here, run as one named prepared
 * statement per connection as the app runs it): the page and one more row, each row's attributes
 * written as JSON by the database, the exact total from the counters. It writes the rows'
 * attributes into the answer as they come, with nothing added. What is left between the two is
 * ours: framework, auth, validation, logging and the fields only the API process writes (courier
 * name, tracking and label links, granular status).
 *
 *   DATABASE_URL=… ACCOUNT_ID=… node --import tsx bench/lib/listing-baseline.ts   → prints {"port": N}
 */
import http from 'node:http';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Executor } from '../../src/base/db/client.js';
import { pageStatement } from '../../src/readers/shipments/shipments.repository.js';
import { serveBaseline } from './baseline-process.js';

const PER_PAGE = 20;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const accountId = process.env.ACCOUNT_ID!;

// Drizzle only compiles the statement's text here; the requests go through `pg` alone.
const compiler = drizzle(pool) as unknown as Executor & {
  dialect: { sqlToQuery(query: unknown): { sql: string; params: unknown[] } };
};
const built = compiler.dialect.sqlToQuery(
  pageStatement(compiler, accountId, {}, { limit: PER_PAGE + 1, descending: true, offset: 0, countMatches: false }),
);
const PAGE = { name: 'listing_baseline_page', text: built.sql, values: built.params };

interface Row {
  id: string;
  created_ms: string;
  attributes: string;
  total: string | number;
}

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', async () => {
    try {
      const { rows } = await pool.query<Row>(PAGE);
      const shown = Math.min(rows.length, PER_PAGE);
      let data = '';
      for (let i = 0; i < shown; i++)
        data += `${i === 0 ? '' : ','}{"id":"${rows[i]!.id}","type":"shipment","attributes":${rows[i]!.attributes}}`;
      const last = rows[shown - 1];
      const next = rows.length > PER_PAGE && last ? `["${last.created_ms}","${last.id}"]` : 'null';
      const body = `{"data":[${data}],"meta":{"current_page":1,"per_page":${PER_PAGE},"total":${Number(rows[0]?.total ?? 0)},"next_search_after":${next}}}`;
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
});
serveBaseline(server, pool);
