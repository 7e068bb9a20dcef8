import { type ConnectionErrorLog, type Database, openPglite, openPostgres } from './client.js';
import { acquireDataDirLock } from './lock.js';

/**
 * The database the configuration names: the PostgreSQL server when DATABASE_URL is set, else the
 * embedded one in DATA_DIR, held under a lock file for as long as it is open.
 */
export async function openConfiguredDatabase(
  config: { dataDir: string; databaseUrl: string | undefined; poolSize: number },
  onConnectionError?: ConnectionErrorLog,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.poolSize, onConnectionError);
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const database = await openPglite(config.dataDir);
    return {
      ...database,
      async close() {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
