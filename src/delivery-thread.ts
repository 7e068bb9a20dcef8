import { parentPort, Worker } from 'node:worker_threads';
import { openPostgres } from './base/db/client.js';
import { logDestination } from './base/log-destination.js';
import { isDatabaseUnavailable } from './base/db/errors.js';
import { type DeliveryWorker, startDeliveryWorker } from './delivery-worker.js';
import { privateLogger } from './http/log-privacy.js';
import { DELIVERY_POOL_SIZE } from './cluster.settings.js';
import { loadSettings } from './settings.js';

/**
 * The API process's delivery thread (decision 105): on PostgreSQL, webhooks, customer e-mails and
 * buyer messages are sent from a thread of their own, on their own connections, so that a send's
 * steps never wait in the event loop behind the requests' (under a booking load they waited there
 * most of a second), and the requests' behind them. The thread is what `npm run worker` runs; the
 * two coordinate through the database like any two workers.
 */

const STOP = 'stop';
const READY = 'ready';
const STOP_GRACE_MS = 15_000;

/** What the API process says of its thread (its own logger). */
interface ThreadLog {
  warn(message: string): void;
  error(fields: object, message: string): void;
}

export interface DeliveryThread {
  /**
   * Asks the thread to stop its worker and close its connections, started or still starting;
   * resolves once it has exited.
   */
  stop(): Promise<void>;
}

/**
 * Starts the thread. `onExit` hears of a thread that ended without being asked to (an error its
 * worker could not keep to itself, at start-up or later): the process should end too, so that its
 * supervisor starts it again with its deliveries.
 */
export function startDeliveryThread(log: ThreadLog, onExit: (error: Error) => void): DeliveryThread {
  const thread = new Worker(new URL(import.meta.url));
  let stopping = false;
  let started = false;
  // It waits for a database that refuses it meanwhile, then says it runs.
  thread.once('message', (message) => {
    if (message === READY) started = true;
  });
  thread.on('error', (error) => log.error({ err: error }, 'the delivery thread failed'));
  const exited = new Promise<void>((resolve) =>
    thread.once('exit', (code) => {
      resolve();
      if (!stopping) onExit(new Error(`the delivery thread exited with ${code}${started ? '' : ' while starting'}`));
    }),
  );
  return {
    async stop() {
      stopping = true;
      thread.postMessage(STOP);
      // Its sends are aborted and its connections closed in well under a second; one that hangs
      // (a connection that never answers) must not keep the process from stopping.
      const timer = setTimeout(() => {
        log.warn('the delivery thread did not stop within 15 s: ending it');
        void thread.terminate();
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The thread's side: the delivery workers on a pool of DELIVERY_POOL_SIZE connections. */
async function runThread(port: NonNullable<typeof parentPort>) {
  const { settings } = loadSettings();
  const logStream = logDestination();
  const log = privateLogger({ level: settings.server.logLevel }, logStream).child({ thread: 'delivery' });
  const database = await openPostgres(settings.database.databaseUrl!, DELIVERY_POOL_SIZE, (error, message) =>
    log.warn({ err: error }, message),
  );
  let stopAsked = false;
  let delivery: DeliveryWorker | undefined;
  const stop = async () => {
    await delivery?.stop().catch((error: unknown) => log.error({ err: error }, 'stopping the delivery worker failed'));
    await database.close().catch(() => {});
    logStream.flushSync();
    port.close();
  };
  port.once('message', (message) => {
    if (message !== STOP) return;
    stopAsked = true;
    if (delivery) void stop();
  });
  // A database that cannot take the thread's connections now (too many clients, a restart) is
  // waited for: ending the thread would end the API process with it (main.ts), over a moment
  // another process's start-up or a fail-over causes. Any other failure is the thread's error.
  for (let attempt = 1; !delivery; attempt++) {
    try {
      delivery = await startDeliveryWorker({ settings, db: database.db, log, keepAlive: false, checkEndpoints: false });
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waitMs = Math.min(START_RETRY_MAX_MS, START_RETRY_FIRST_MS * 2 ** (attempt - 1));
      log.warn(
        { err: error, attempt, retryInMs: waitMs },
        'the delivery thread cannot start yet: the database refused',
      );
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    if (stopAsked) break;
  }
  if (stopAsked) return void (await stop());
  log.info('delivery thread is sending webhooks, customer e-mails and buyer messages');
  port.postMessage(READY);
}

/** The first retry of a start the database refused, doubled each time up to the last. */
const START_RETRY_FIRST_MS = 250;
const START_RETRY_MAX_MS = 5_000;

// A failed start (the database refused, say) is the thread's uncaught error: startDeliveryThread rejects with it.
if (parentPort) void runThread(parentPort);
