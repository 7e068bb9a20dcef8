import cluster from 'node:cluster';
import pino from 'pino';
import { ConfigError } from './base/config-error.js';
import { DataDirLockedError } from './base/db/lock.js';
import { logDestination } from './base/log-destination.js';
import { runPrimary, STOP_MESSAGE } from './cluster.js';
import { DataFileError } from './domain/data-file-issues.js';
import { ListenError, openServer, RedisUnreachableError } from './server.js';
import { loadSettings } from './settings.js';

// `npm start`: the process's concerns only, each once: the cluster, the signals, a graceful stop.
// What a server process opens and closes is server.ts's.

// Log lines are written asynchronously and in batches (base/log-destination.ts); stopping flushes
// what is left.
const logStream = logDestination();

async function main() {
  const { settings, warnings } = loadSettings();
  const { webConcurrency } = settings.processes;
  if (webConcurrency > 1 && cluster.isPrimary) {
    const log = pino({ level: settings.server.logLevel }, logStream);
    for (const warning of warnings) log.warn(warning);
    runPrimary(webConcurrency, log, () => logStream.flushSync());
    return;
  }
  const server = await openServer(settings, warnings, logStream);

  let stopping = false;
  let signalled = false;
  const stop = async (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    server.log.info({ signal: reason }, 'stopping: no new connections, finishing requests in flight');
    await server.close();
    logStream.flushSync();
    process.exit(exitCode);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      server.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    signalled = true;
    void stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // The cluster's primary stops its processes by message (cluster.ts says why not by signal).
  process.on('message', (message) => {
    if (message === STOP_MESSAGE) void stop('SIGTERM');
  });

  // Without its delivery thread the process would take bookings whose webhooks nobody sends: it
  // stops, with an error, for its supervisor (or the cluster's primary) to start it again.
  await server.listen((error) => {
    server.log.fatal({ err: error }, 'the delivery thread ended: stopping the server');
    void stop('delivery thread lost', 1);
  });
}

main().catch((error: unknown) => {
  logStream.flushSync();
  const known = [ConfigError, DataDirLockedError, DataFileError, RedisUnreachableError, ListenError];
  if (known.some((type) => error instanceof type)) {
    console.error(`dakiya: ${(error as Error).message}`);
  } else {
    console.error('dakiya: failed to start', error);
  }
  process.exit(1);
});
