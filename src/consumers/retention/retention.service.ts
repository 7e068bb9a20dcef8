import { setTimeout as pause } from 'node:timers/promises';
import type { Clock } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import { createWorker, type Worker } from '../../events/worker.js';
import * as repo from './retention.repository.js';
import type { RetentionSettings } from './retention.settings.js';

const DAY_MS = 86_400_000;
/** How often each process with timers looks for rows past their period: periods are days long. */
export const PRUNE_INTERVAL_MS = 60 * 60_000;
/** Between two batches of the background job: a backlog drains over minutes, never as one burst. */
export const PAUSE_BETWEEN_BATCHES_MS = 200;

/** What a pruning run removed, table by table, and the time before which it removed. */
export interface PruneReport {
  pruned: { webhook_deliveries: number; webhook_attempts: number };
  before: { webhook_deliveries: string };
}

export interface Retention {
  /** Prunes every table to its period, batch after batch, and reports what each lost. */
  pruneAll(options?: { pauseMs?: number; signal?: AbortSignal }): Promise<PruneReport>;
  /** The background job: pruneAll with pauses, every PRUNE_INTERVAL_MS. */
  worker: Worker;
}

/**
 * The tables that grow with traffic and are not the merchant's records, each pruned to its period
 * (docs/operations.md, Retention). One statement per batch, each its own transaction: no lock is
 * held longer than a batch's delete.
 */
export function createRetention(deps: {
  db: Executor;
  clock: Clock;
  settings: RetentionSettings;
  onError: (error: unknown) => void;
}): Retention {
  const { db, clock, settings } = deps;

  async function pruneAll({ pauseMs = 0, signal }: { pauseMs?: number; signal?: AbortSignal } = {}) {
    const cutoff = new Date(clock.now().getTime() - settings.webhookDeliveriesDays * DAY_MS);
    const pruned = { webhook_deliveries: 0, webhook_attempts: 0 };
    for (;;) {
      const batch = await repo.pruneWebhookDeliveries(db, cutoff, settings.pruneBatchRows);
      pruned.webhook_deliveries += batch.deliveries;
      pruned.webhook_attempts += batch.attempts;
      if (batch.deliveries < settings.pruneBatchRows || signal?.aborted) break;
      if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
    }
    return { pruned, before: { webhook_deliveries: cutoff.toISOString() } };
  }

  const worker = createWorker(
    [
      {
        name: 'retention',
        run: async (signal) => {
          await pruneAll({ pauseMs: PAUSE_BETWEEN_BATCHES_MS, signal });
          return false;
        },
      },
    ],
    { pollIntervalMs: PRUNE_INTERVAL_MS, onError: (_task, error) => deps.onError(error) },
  );
  return { pruneAll, worker };
}
