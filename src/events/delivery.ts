import { type Db, isEmbedded } from '../base/db/client.js';
import type { Host } from '../http/host.js';
import type { EventLog } from './event-log.js';
import { createWorker, type Worker, type WorkerTask } from './worker.js';

/** How a worker's rounds are paced: the poll interval, and the batch window of those that batch. */
export interface Pace {
  readonly pollIntervalMs: number;
  readonly batchWindowMs: number;
}

export interface SenderOptions {
  /** Whether the senders take the events of the batch window together (e-mails, messages), or each at once (webhooks). */
  readonly batched: boolean;
  /** The log message of a task's failure. */
  readonly failed: string;
}

/**
 * Where the event log's outside effects (webhooks, customer e-mails, buyer messages) are sent from
 * in this process: the composition chooses (in the API process, a delivery thread, `npm run
 * worker`), and each consumer's registrar hands its senders over without knowing which.
 */
export interface Delivery {
  /** The connections the senders use, apart from the requests'. */
  readonly db: Db;
  /** Whether `consumer`'s senders run in this process. */
  runs(consumer: string): boolean;
  /**
   * Runs `consumer`'s senders (`tasks` makes them) if they run here; `wake` runs them soon, for work
   * just queued, here or (through the database's signal) in the process that sends it.
   */
  run(consumer: string, tasks: () => readonly WorkerTask[], options: SenderOptions): { wake(): void };
}

/**
 * A worker of the host's process on `db`: started when it is ready, woken by each event recorded
 * here, stopped (waiting for its round) as it closes. Its timer never keeps the process alive. On
 * the embedded database every record is this process's own, so its consumers wait for one.
 */
export function hostWorker(
  host: Host,
  { db, events }: { db: Db; events: EventLog },
  tasks: readonly WorkerTask[],
  options: { pollIntervalMs: number; batchWindowMs?: number; failed: string },
): Worker {
  const worker = createWorker(tasks, {
    pollIntervalMs: options.pollIntervalMs,
    batchWindowMs: options.batchWindowMs,
    soleWriter: isEmbedded(db),
    onError: (task, error) => host.log.error({ err: error, task }, options.failed),
  });
  events.onRecorded(() => worker.wake());
  host.onReady(() => worker.start());
  host.onClose(() => worker.stop());
  return worker;
}

/**
 * Senders in the API process, on `db` (its workers' own pool): each consumer's in a worker of its
 * own, for the consumers `runs` names (true: all; false: none, a delivery thread or `npm run
 * worker` sends). Without a worker here, `wake` tells those of the other processes through the
 * database's signal rather than leaving them to their next poll.
 */
export function inProcessDelivery(
  host: Host,
  { db, events, runs, pace }: { db: Db; events: EventLog; runs: boolean | readonly string[]; pace: Pace },
): Delivery {
  const here = (consumer: string) => (typeof runs === 'boolean' ? runs : runs.includes(consumer));
  return {
    db,
    runs: here,
    run(consumer, tasks, options) {
      if (!here(consumer)) return { wake: () => events.announce() };
      return hostWorker(host, { db, events }, tasks(), {
        pollIntervalMs: pace.pollIntervalMs,
        batchWindowMs: options.batched ? pace.batchWindowMs : undefined,
        failed: options.failed,
      });
    },
  };
}

/**
 * Senders of a process that does nothing else (a delivery thread, `npm run worker`): the webhooks'
 * in a worker of their own, since theirs is the latency merchants wait on (issue 27), and the
 * batched ones (e-mails, messages) together in another, whose round takes the events of the batch
 * window at once. Woken by the other processes' signal (wakeAll); `keepAlive` when they are all
 * the process does.
 */
export function separateDelivery(
  host: Host,
  { db, keepAlive, pace }: { db: Db; keepAlive: boolean; pace: Pace },
): Delivery & { wakeAll(): void } {
  const groups = new Map<string, { tasks: WorkerTask[]; batched: boolean; failed: string; worker?: Worker }>();
  host.onReady(() => {
    for (const group of groups.values()) {
      group.worker = createWorker(group.tasks, {
        pollIntervalMs: pace.pollIntervalMs,
        batchWindowMs: group.batched ? pace.batchWindowMs : undefined,
        keepAlive,
        onError: (task, error) => host.log.error({ err: error, task }, group.failed),
      });
      group.worker.start();
    }
  });
  host.onClose(async () => {
    await Promise.all([...groups.values()].map((group) => group.worker?.stop()));
  });
  return {
    db,
    runs: () => true,
    run(_consumer, tasks, options) {
      const name = options.batched ? 'batched' : 'at once';
      const group = groups.get(name) ?? { tasks: [], batched: options.batched, failed: options.failed };
      group.tasks.push(...tasks());
      groups.set(name, group);
      return { wake: () => group.worker?.wake() };
    },
    wakeAll: () => {
      for (const group of groups.values()) group.worker?.wake();
    },
  };
}
