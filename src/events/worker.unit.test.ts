import { afterEach, describe, expect, it } from 'vitest';
import { createWorker, type Worker } from './worker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let worker: Worker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

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

describe('the background worker', () => {
  it('without a batch window, runs a round soon after each wake', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: 10_000 });
    worker.start();
    await sleep(30);
    for (let i = 0; i < 3; i++) {
      worker.wake();
      await sleep(30);
    }
    // The first round at start, then one per wake (a wake's follow-up look after 50 ms folds in).
    expect(rounds.length).toBeGreaterThanOrEqual(4);
  });

  it('with a batch window, folds the wakes of a window into one round', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: 10_000, batchWindowMs: 300 });
    worker.start();
    await sleep(20);
    expect(rounds.length).toBe(1);
    // Twenty wakes at once: one round, when the window since the first round's start ends.
    for (let i = 0; i < 20; i++) worker.wake();
    await sleep(450);
    expect(rounds.length).toBe(2);
    expect(rounds[1]! - rounds[0]!).toBeGreaterThanOrEqual(295);
  });

  it('runs again at once, window or not, when a task says it left work', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: 10_000, batchWindowMs: 5_000 }, 3);
    worker.start();
    await sleep(100);
    expect(rounds.length).toBe(4);
  });

  it('never waits longer after a wake than its poll interval', async () => {
    const { worker, rounds } = counting({ pollIntervalMs: 100, batchWindowMs: 5_000 });
    worker.start();
    await sleep(20);
    worker.wake();
    await sleep(150);
    expect(rounds.length).toBeGreaterThanOrEqual(2);
  });
});
