import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/databases.js';
import { type Database, queryRows } from './client.js';

// Most test files run once, on the server (decision 168); they hold for the embedded engine too
// only while both drivers hand the code the same values. This table is that promise, on each
// engine: one expression of every kind of value the queries read, and what the row holds.
const ANSWERS: ReadonlyArray<[expression: string, value: unknown]> = [
  ['2::int2', 2],
  ['2::int4', 2],
  ['9007199254740993::int8', '9007199254740993'],
  ['count(*)', '1'],
  ['sum(5::int4)', '5'],
  ['sum(5::int8)', '5'],
  ['count(*)::int', 1],
  ['array[1, 2]::int8[]', ['1', '2']],
  ['12.50::numeric', '12.50'],
  ['0.25::float8', 0.25],
  ['true', true],
  ["'कुर्ता'::text", 'कुर्ता'],
  ["array['a', 'b']::text[]", ['a', 'b']],
  ["'2026-11-27'::date", '2026-11-27'],
  ["'2026-11-27 10:30:00.125'::timestamp", '2026-11-27 10:30:00.125'],
  ["'2026-11-27 16:00:00.125+05:30'::timestamptz", '2026-11-27 10:30:00.125+00'],
  ["'1 day 02:00:00'::interval", '1 day 02:00:00'],
  ['\'{"paise": 4999, "tags": ["cod"]}\'::jsonb', { paise: 4999, tags: ['cod'] }],
  ["'00000000-0000-4000-8000-000000000001'::uuid", '00000000-0000-4000-8000-000000000001'],
  ["'42'::xid8", '42'],
];

describe('what a query hands back, value by value, on this engine', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it.each(ANSWERS)('%s', async (expression, value) => {
    // A session's time zone changes how a timestamptz is written: the server's default here is UTC.
    const rows = await queryRows<{ value: unknown }>(database.db, sql.raw(`select ${expression} as value`));
    expect(rows).toEqual([{ value }]);
  });
});
