import { setMaxListeners } from 'node:events';

/** One unit of background work; answers true when it left work it could do at once (run again). */
export interface WorkerTask {
  readonly name: string;
  /** `wake` asks for another round soon, for work the task finished outside its round. */
  run(signal: AbortSignal, wake?: () => void): Promise<boolean>;
  /** Work the task started and left running past its round; stop() waits for it after aborting. */
  settled?(): Promise<void>;
  /** Told of wake(): a task waiting within its round (for a free send slot) stops waiting, so new work is not held up behind it. */
  wake?(): void;
  /**
   * The task has work only once something is written (it reads the event log's new records). On a
   * database no other process writes (the embedded one: `soleWriter`), it runs after a wake()
   * rather than in every round, and once every QUIET_ROUND_MS besides, should anything have been
   * written without one.
   */
  readonly afterWrites?: boolean;
}

export interface Worker {
  start(): void;
  /** Runs the tasks soon rather than at the next poll (an event was just recorded in process). */
  wake(): void;
  /** Stops polling, aborts work in flight and resolves once the current round has ended. */
  stop(): Promise<void>;
}

/** How long after wake() the tasks run again, for the change that woke them to have committed. */
const COMMIT_SETTLE_MS = 50;
/**
 * How often a sole writer's `afterWrites` tasks run with no wake: they read what only this
 * process writes, and every write of it wakes them, so this is a safety net, not their pace.
 */
export const QUIET_ROUND_MS = 30_000;

interface Options {
  /** How often the tasks run when nothing wakes them. */
  pollIntervalMs: number;
  onError(task: string, error: unknown): void;
  /** Whether the timer keeps the process alive: only for a process that does nothing else (npm run worker). */
  keepAlive?: boolean;
  /**
   * A round that wake() asks for starts no sooner than this after the previous round started (at
   * most the poll interval): under a steady stream of events the worker takes them in batches
   * rather than running a round, with its statements, for every few. 0 (the default) runs at once.
   * A task that answers true (work it could do at once) is run again without waiting.
   */
  batchWindowMs?: number;
  /**
   * Whether this process is the only one that writes to the database (the embedded one): its
   * `afterWrites` tasks then wait for a wake(). An idle install's rounds cost 25–60 ms of CPU a
   * second on the embedded database, most of it the event log's consumers looking for new records.
   */
  soleWriter?: boolean;
}

/**
 * Runs background tasks in rounds: one round at a time, the next one after the poll interval, or at
 * once when a task says it has more or someone calls wake(). The timer is unref'd unless keepAlive,
 * so an API process (or a test) is never kept alive by it, and stop() leaves no timer behind.
 */
export function createWorker(tasks: readonly WorkerTask[], options: Options): Worker {
  const abort = new AbortController();
  // Every send in flight listens to this one signal; a batch has more than Node's default 10.
  setMaxListeners(256, abort.signal);
  const windowMs = Math.min(options.batchWindowMs ?? 0, options.pollIntervalMs);
  let timer: NodeJS.Timeout | undefined;
  let timerDue = 0;
  let round: Promise<void> | undefined;
  let again = false;
  let started = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  // Per task: woken since it last ran (or left work then), and when it last ran.
  const woken = tasks.map(() => true);
  const lastRun = tasks.map(() => Number.NEGATIVE_INFINITY);
  const mayRun = (i: number) =>
    !options.soleWriter || !tasks[i]!.afterWrites || woken[i]! || performance.now() - lastRun[i]! >= QUIET_ROUND_MS;

  const schedule = (ms: number) => {
    if (abort.signal.aborted || !started) return;
    const due = performance.now() + ms;
    // Under load wake() comes every few milliseconds: a round already due as soon stays as it is.
    if (timer && timerDue <= due) return;
    clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(() => {
      timer = undefined;
      round = runRounds();
    }, ms);
    if (!options.keepAlive) timer.unref();
  };
  const afterWindow = () => Math.max(0, lastStart + windowMs - performance.now());

  let followUp: NodeJS.Timeout | undefined;
  const nudge = () => {
    if (abort.signal.aborted) return;
    woken.fill(true);
    if (round) {
      again = true;
      for (const task of tasks) task.wake?.();
    } else schedule(afterWindow());
  };

  async function runRounds() {
    // Never ends before its caller has kept it in `round`, even when every task is skipped.
    await null;
    let more: boolean;
    do {
      again = false;
      more = false;
      lastStart = performance.now();
      for (const [i, task] of tasks.entries()) {
        if (abort.signal.aborted) return;
        if (!mayRun(i)) continue;
        // Cleared before it runs: a wake while it runs (a write it did not see) runs it again.
        woken[i] = false;
        lastRun[i] = performance.now();
        try {
          if (await task.run(abort.signal, nudge)) {
            more = true;
            woken[i] = true;
          }
        } catch (error) {
          woken[i] = true;
          if (!abort.signal.aborted) options.onError(task.name, error);
        }
      }
    } while ((more || (again && afterWindow() === 0)) && !abort.signal.aborted);
    round = undefined;
    if (timer) clearTimeout(timer);
    timer = undefined;
    schedule(again ? afterWindow() : options.pollIntervalMs);
  }

  return {
    start() {
      started = true;
      schedule(0);
    },
    wake() {
      nudge();
      // wake() is called from inside the transaction that recorded the event, or just after a
      // statement that wrote it committed while earlier transactions still run (its event is not
      // readable until they end): look again a moment later rather than at the poll. Not put off
      // by later wakes, which under steady load come every few milliseconds: it was, and under
      // load no round ran until the load stopped.
      if (followUp) return;
      followUp = setTimeout(() => {
        followUp = undefined;
        nudge();
      }, COMMIT_SETTLE_MS);
      followUp.unref();
    },
    async stop() {
      abort.abort();
      clearTimeout(timer);
      clearTimeout(followUp);
      await round;
      await Promise.all(tasks.map((task) => task.settled?.()));
    },
  };
}
