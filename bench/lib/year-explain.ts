// The listing's statements for a request body, as the shipments reader builds them (the same calls
// as shipments.service.ts list(), as bench/listing.ts makes them), run under EXPLAIN (ANALYZE,
// BUFFERS) on a database: what bench/year.ts prints for a listing whose ratio misses its target.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../src/base/db/client.js';
import * as schema from '../../src/base/db/schema.js';
import { withStoreIds } from '../../src/readers/shipments/shipment-filters.repository.js';
import * as repo from '../../src/readers/shipments/shipments.repository.js';
import { toFilters } from '../../src/readers/shipments/shipments.service.js';

export async function explainListing(url: string, accountId: string, body: Record<string, unknown>): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const captured: { sql: string; params: unknown[] }[] = [];
    const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) };
    const db = drizzle(pool, { schema, logger }) as unknown as Db;
    const filters = await withStoreIds(db, accountId, toFilters(body as Parameters<typeof toFilters>[0]));
    const countMatches = filters.search !== undefined;
    await repo.findPage(db, accountId, filters, { limit: 21, descending: true, offset: 0, countMatches });
    const page = captured.find((q) => q.sql.includes('page_ids'));
    if (!page) return '(no page statement captured)';
    const rows = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${page.sql}`, page.params)).rows;
    return rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
  } finally {
    await pool.end();
  }
}
