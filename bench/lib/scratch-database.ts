import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The local PostgreSQL server the benchmarks make their own databases on. */
export const BENCH_SERVER = 'postgres://postgres@127.0.0.1:5432/';

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: BENCH_SERVER });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database dakiya_bench_<random> on BENCH_SERVER, its URL, and how to drop it (connections forced off). */
export async function scratchDatabase(
  log: (line: string) => void,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `dakiya_bench_${randomBytes(5).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(BENCH_SERVER);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      log(`dropped database ${name}`);
    },
  };
}
