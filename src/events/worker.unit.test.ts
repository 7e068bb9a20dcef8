import { afterEach, describe, expect, it } from 'vitest';
import { createWorker, type Worker } from './worker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let worker: Worker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

/** Longer than any of these tests may take: a round that waits for it cannot come before the test fails. */
const NEVER_MS = 3_600_000;

/** Waits until `done` holds; failing after a minute, which a loaded machine never needs. */
async function until(what: string, done: () => boolean) {
  const end = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A worker with one task that counts its rounds; `more` makes the task ask to run again at once, that many times. */
function counting(options: { pollIntervalMs: number; batchWindowMs?: number }, more = 0) {
  const rounds: number[] = [];
  const started = performance.now();
  let left = more;
  const run = async () => {
    rounds.push(performance.now() - started);
    return left-- > 0;
  };
  worker = createWorker([{ name: 'count', run }], { ...options, onError: () => {} });
  return { worker, rounds };
}

// The poll interval and windows are set so long that a round the test waits for can only have come
// from what it tests (a wake, a task's "more"): a slow machine delays a round but cannot fake one.
describe('the background worker', () => {
  it('without a batch window, runs a round after each wake', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: NEVER_MS });
    worker.start();
    await until('the first round', () => rounds.length === 1);
    for (let i = 1; i <= 3; i++) {
      worker.wake();
      // A wake's follow-up look after 50 ms may add a round of its own: at least one per wake.
      await until(`the round after wake ${i}`, () => rounds.length >= i + 1);
    }
  });

  it('with a batch window, folds the wakes of a window into one round', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: NEVER_MS, batchWindowMs: 300 });
    worker.start();
    await until('the first round', () => rounds.length === 1);
    // Twenty wakes at once: one round, when the window since the first round's start ends.
    for (let i = 0; i < 20; i++) worker.wake();
    await until('the round after the window', () => rounds.length === 2);
    // A lower bound, which no load can break: a timer never fires early (5 ms for the clocks' rounding).
    expect(rounds[1]! - rounds[0]!).toBeGreaterThanOrEqual(295);
  });

  it('runs again at once, window or not, when a task says it left work', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: NEVER_MS, batchWindowMs: NEVER_MS }, 3);
    worker.start();
    await until('four rounds without waiting for the window', () => rounds.length === 4);
  });

  it('never waits longer after a wake than its poll interval', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: 100, batchWindowMs: NEVER_MS });
    worker.start();
    await until('the first round', () => rounds.length === 1);
    worker.wake();
    await until('the next round, at the poll interval rather than the window', () => rounds.length >= 2);
  });

  it('on a sole writer, runs a task that waits for writes only after a wake, every other task each round', async () => {
    const polls: number[] = [];
    const reads: number[] = [];
    let nudge: (() => void) | undefined;
    const tasks = [
      {
        name: 'due work',
        run: async (_signal: AbortSignal, wake?: () => void) => {
          nudge = wake;
          polls.push(polls.length);
          return false;
        },
      },
      { name: 'records', afterWrites: true, run: async () => reads.push(polls.length) < 0 },
    ];
    worker = createWorker(tasks, { pollIntervalMs: 10, soleWriter: true, onError: () => {} });
    worker.start();
    await until('six rounds of the due work', () => polls.length >= 6);
    // The first round reads (whatever was written before the start), no later one without a wake.
    expect(reads).toEqual([1]);
    // A wake as the work done here gives one (worker.wake() adds a second look a moment later).
    nudge!();
    await until('the read after the wake', () => reads.length === 2);
    const since = polls.length;
    await until('six more rounds', () => polls.length >= since + 6);
    expect(reads).toHaveLength(2);
  });

  it('with other writers, runs a task that waits for writes in every round', async () => {
    let reads = 0;
    worker = createWorker([{ name: 'records', afterWrites: true, run: async () => ++reads < 0 }], {
      pollIntervalMs: 10,
      onError: () => {},
    });
    worker.start();
    await until('five rounds without a wake', () => reads >= 5);
  });
});
