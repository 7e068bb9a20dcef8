import { statfs } from 'node:fs/promises';
import type { Db } from './client.js';

/**
 * Less room than this on the embedded database's disk and it is not ready: one WAL segment (16 MiB
 * in PGlite, as in PostgreSQL). With less, the next segment cannot be made and the database stops
 * writing altogether; before that, tables that grow find no room (disk_full).
 */
export const MIN_DISK_ROOM_BYTES = 16 * 1024 * 1024;

/**
 * The bytes left on the disk of the embedded database's files, or undefined when the database is
 * not a directory of this machine's (PostgreSQL, whose server watches its own disk; an in-memory
 * PGlite in tests).
 */
export async function embeddedDiskRoom(db: Db): Promise<number | undefined> {
  const dataDir = (db as { $client?: { dataDir?: unknown } }).$client?.dataDir;
  if (typeof dataDir !== 'string' || dataDir === '' || dataDir.includes('://')) return undefined;
  const stats = await statfs(dataDir);
  return stats.bavail * stats.bsize;
}
