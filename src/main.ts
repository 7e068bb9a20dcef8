import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/lock.js';
import { migrate } from './db/migrate.js';
import { openConfiguredDatabase } from './db/open.js';
import { DataFileError } from './modules/geo/data-files.js';
import { loadRatesContext } from './modules/rates/context.js';

async function main() {
  const config = loadConfig();
  // The data files first: a mistake in an operator's edit stops start-up before the database opens.
  const rates = loadRatesContext();
  const database = await openConfiguredDatabase(config);
  await migrate(database.db);
  const app = await buildApp({
    db: database.db,
    publicBaseUrl: config.publicBaseUrl,
    adminToken: config.adminToken,
    labelUrlTtlSeconds: config.labelUrlTtlSeconds,
    rates,
    logger: { level: config.logLevel },
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    // close() stops accepting and resolves once in-flight requests have been answered.
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { engine: database.engine, dataDir: database.engine === 'pglite' ? config.dataDir : undefined },
    `Dakiya is serving; API docs at ${config.publicBaseUrl}/docs`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DataFileError) {
    console.error(`dakiya: ${error.message}`);
  } else {
    console.error('dakiya: failed to start', error);
  }
  process.exit(1);
});
