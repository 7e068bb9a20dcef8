import http from 'node:http';
import pg from 'pg';

// A year's disk with and without pruning (issue 52): the year's database as filled, then pruned to
// the default periods by the server as `npm start` runs it (POST /admin/v1/retention/prune: what
// the hourly job does, without its pauses), then compacted (VACUUM FULL) to read what the rows left
// take. A plain VACUUM, which autovacuum runs, makes the freed space reusable without giving it
// back: an install pruned every hour grows into it rather than past it.

export interface Sizes {
  databaseBytes: number;
  shipments: number;
  tables: { table: string; rows: number; bytes: number }[];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export async function readSizes(url: string, accountId: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [database] = (
      await client.query<{ bytes: string }>('select pg_database_size(current_database())::text as bytes')
    ).rows;
    const [shipments] = (
      await client.query<{ n: number }>('select count(*)::int as n from shipments where account_id = $1', [accountId])
    ).rows;
    const biggest = (
      await client.query<{ table: string; bytes: string }>(
        `select c.relname as table, pg_total_relation_size(c.oid)::text as bytes from pg_class c
           join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc limit 8`,
      )
    ).rows;
    const tables = [];
    for (const { table, bytes } of biggest) {
      const [count] = (await client.query<{ n: number }>(`select count(*)::int as n from "${table}"`)).rows;
      tables.push({ table, rows: count!.n, bytes: Number(bytes) });
    }
    return { databaseBytes: Number(database!.bytes), shipments: shipments!.n, tables };
  } finally {
    await client.end();
  }
}

export function describeSizes(label: string, sizes: Sizes): string[] {
  return [
    `${label}: database ${mib(sizes.databaseBytes)}, ${Math.round(sizes.databaseBytes / sizes.shipments).toLocaleString('en-US')} bytes per shipment`,
    ...sizes.tables.map(
      (t) => `  ${t.table.padEnd(26)} ${mib(t.bytes).padStart(10)} ${t.rows.toLocaleString('en-US').padStart(12)} rows`,
    ),
  ];
}

/**
 * One pruning run through the operator's route: what each table lost and how long it took. Sent
 * with node:http, which waits for the answer as long as it takes: fetch gives up on an answer's
 * headers after five minutes, and a year's first run (the event log's walk) takes longer than that
 * on a slow machine.
 */
export async function pruneOnce(
  serverUrl: string,
  adminToken: string,
): Promise<{ ms: number; pruned: Record<string, number> }> {
  const started = performance.now();
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      `${serverUrl}/admin/v1/retention/prune`,
      { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    // Bounded all the same: past three hours something is wrong.
    request.setTimeout(3 * 60 * 60_000, () => request.destroy(new Error('the prune route gave no answer in 3 hours')));
    request.on('error', reject);
    request.end();
  });
  if (status !== 200) throw new Error(`prune answered ${status}: ${text}`);
  const body = JSON.parse(text) as { data?: { pruned: Record<string, number> } };
  if (!body.data) throw new Error(`prune answered ${status} without data: ${text}`);
  return { ms: performance.now() - started, pruned: body.data.pruned };
}

/** VACUUM FULL of every table: the bytes the rows left take, once compacted. */
export async function compact(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('vacuum (full, analyze)');
    return performance.now() - started;
  } finally {
    await client.end();
  }
}
