import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import type { TestProject } from 'vitest/node';
import type { Db } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import './databases.js';

/**
 * Migrates one embedded database per run and keeps its data directory as a tarball, which every
 * test file's database starts from: a fresh PGlite pays an initdb and the migrations (seconds on
 * this machine), a copy only the unpacking. Uncompressed (read once per worker): a gzipped one
 * costs every database opened from it a gunzip of its own. And small, since every test file's
 * database unpacks all of it (43 MB made it 1 s of CPU a file): write-ahead log segments of 1 MB
 * instead of 16, and without the template0 and template1 databases, which a database that is never
 * asked to CREATE DATABASE does not use (19 MB in all).
 */
export async function setup(project: TestProject) {
  const tarball = await migratedDataDirTarball();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A migrated embedded database's data directory as a tarball, made in memory (an initdb on disk
 * takes twice as long): the run's template, and that of a unit test that opens embedded databases
 * in DATA_DIRs of its own (persistence.unit.test.ts) without the PGlite project's set-up.
 */
export async function migratedDataDirTarball(): Promise<Blob> {
  // The extensions openPglite loads: the migrations create pg_trgm.
  const client = new PGlite({ extensions: { pg_trgm }, initDbStartParams: ['--wal-segsize=1'] });
  try {
    await migrate(drizzle(client) as unknown as Db);
    for (const name of ['template0', 'template1']) {
      await client.exec(`update pg_database set datistemplate = false where datname = '${name}'`);
      await client.exec(`drop database ${name}`);
    }
    await client.exec('checkpoint');
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
