import { createWorker, type Worker } from '../../events/worker.js';
import type { WeightDisputesService } from './weight-disputes.service.js';

/** How often each process looks for discrepancies whose window has run out: a window is days long. */
export const SWEEP_INTERVAL_MS = 60_000;
const BATCH = 100;

export interface DisputeSweeper extends Worker {
  /** One pass to the end (tests, after moving the clock); answers how many it accepted. */
  runOnce(): Promise<number>;
}

/**
 * Accepts open weight discrepancies past their window, in batches of 100, each batch one
 * transaction that locks its rows with SKIP LOCKED: two processes sweeping at once take different
 * rows, and a process that dies mid-batch leaves its rows open for the next sweep (the lock is the
 * lease, and it ends with the connection), never half-accepted.
 */
export function createDisputeSweeper(
  disputes: WeightDisputesService,
  onError: (error: unknown) => void,
): DisputeSweeper {
  const worker = createWorker(
    [{ name: 'weight-dispute-window', run: async () => (await disputes.acceptDue(BATCH)) === BATCH }],
    {
      pollIntervalMs: SWEEP_INTERVAL_MS,
      onError: (_task, error) => onError(error),
    },
  );
  return {
    ...worker,
    async runOnce() {
      let accepted = 0;
      for (;;) {
        const batch = await disputes.acceptDue(BATCH);
        accepted += batch;
        if (batch < BATCH) return accepted;
      }
    },
  };
}
