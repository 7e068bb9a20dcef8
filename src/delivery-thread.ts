import { parentPort, Worker } from 'node:worker_threads';
import { openPostgres } from './base/db/client.js';
import { logDestination } from './base/log-destination.js';
import { startDeliveryWorker } from './delivery-worker.js';
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
  /** Asks the thread to stop its worker and close its connections; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the thread and resolves once its worker runs. `onExit` hears of a thread that ended
 * without being asked to (an error its worker could not keep to itself): the process should end
 * too, so that its supervisor starts it again with its deliveries.
 */
export async function startDeliveryThread(log: ThreadLog, onExit: (error: Error) => void): Promise<DeliveryThread> {
  const thread = new Worker(new URL(import.meta.url));
  let stopping = false;
  await new Promise<void>((resolve, reject) => {
    thread.once('message', (message) =>
      message === READY ? resolve() : reject(new Error(`the delivery thread said ${String(message)}`)),
    );
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the delivery thread exited with ${code} while starting`)));
  });
  thread.removeAllListeners();
  thread.on('error', (error) => log.error({ err: error }, 'the delivery thread failed'));
  // Kept from the start: stop() may come after the thread ended on its own (onExit asks for it).
  const exited = new Promise<void>((resolve) =>
    thread.once('exit', (code) => {
      resolve();
      if (!stopping) onExit(new Error(`the delivery thread exited with ${code}`));
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
  const delivery = await startDeliveryWorker({
    settings,
    db: database.db,
    log,
    keepAlive: false,
    checkEndpoints: false,
  });
  port.once('message', async (message) => {
    if (message !== STOP) return;
    await delivery.stop().catch((error: unknown) => log.error({ err: error }, 'stopping the delivery worker failed'));
    await database.close().catch(() => {});
    logStream.flushSync();
    port.close();
  });
  log.info('delivery thread is sending webhooks, customer e-mails and buyer messages');
  port.postMessage(READY);
}

// A failed start (the database refused, say) is the thread's uncaught error: startDeliveryThread rejects with it.
if (parentPort) void runThread(parentPort);
