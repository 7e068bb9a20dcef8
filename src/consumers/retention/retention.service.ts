import { setTimeout as pause } from 'node:timers/promises';
import type { Clock } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import { createWorker, type Worker } from '../../events/worker.js';
import * as repo from './retention.repository.js';
import type { RetentionSettings } from './retention.settings.js';

const DAY_MS = 86_400_000;
/** How often each process with timers looks for rows past their period: periods are a day or more. */
export const PRUNE_INTERVAL_MS = 60 * 60_000;
/** Between two batches of the background job: a backlog drains over minutes, never as one burst. */
export const PAUSE_BETWEEN_BATCHES_MS = 200;

/** The periods rows are kept for: the settings', and the idempotency contract's fixed one. */
type Periods = RetentionSettings & { idempotencyKeyKeepMs: number };

/** The tables kept to a period of their own; and every table a run removes rows of. */
type OwnTable =
  | 'webhook_deliveries'
  | 'channel_webhook_receipts'
  | 'notifications'
  | 'buyer_messages'
  | 'kept_scans'
  | 'audit_log'
  | 'idempotency_keys';
type Table = OwnTable | 'webhook_attempts';

/**
 * One kind of row kept to a period: the rows a batch removed, by table (its own rows first; rows
 * that go with them after), at most `limit` of its own.
 */
interface Prunable {
  table: OwnTable;
  keepMs(periods: Periods): number;
  batch(db: Executor, cutoff: Date, limit: number): Promise<Partial<Record<Table, number>>>;
}

/**
 * The tables that grow with traffic and are not the merchant's records, each with its period
 * (docs/operations.md, Retention). A table is added here, with its setting and a test of its edge.
 */
const PRUNABLES: readonly Prunable[] = [
  {
    table: 'webhook_deliveries',
    keepMs: (p) => p.webhookDeliveriesDays * DAY_MS,
    batch: async (db, cutoff, limit) => {
      const gone = await repo.pruneWebhookDeliveries(db, cutoff, limit);
      return { webhook_deliveries: gone.deliveries, webhook_attempts: gone.attempts };
    },
  },
  {
    table: 'channel_webhook_receipts',
    keepMs: (p) => p.channelWebhookReceiptsDays * DAY_MS,
    batch: async (db, cutoff, limit) => ({
      channel_webhook_receipts: await repo.pruneChannelWebhookReceipts(db, cutoff, limit),
    }),
  },
  {
    table: 'notifications',
    keepMs: (p) => p.emailsDays * DAY_MS,
    batch: async (db, cutoff, limit) => ({
      notifications: await repo.pruneFinishedJobs(db, 'notifications', cutoff, limit),
    }),
  },
  {
    table: 'buyer_messages',
    keepMs: (p) => p.buyerMessagesDays * DAY_MS,
    batch: async (db, cutoff, limit) => ({
      buyer_messages: await repo.pruneFinishedJobs(db, 'buyer_messages', cutoff, limit),
    }),
  },
  {
    table: 'kept_scans',
    keepMs: (p) => p.keptScansDays * DAY_MS,
    batch: async (db, cutoff, limit) => ({ kept_scans: await repo.pruneKeptScans(db, cutoff, limit) }),
  },
  {
    table: 'idempotency_keys',
    keepMs: (p) => p.idempotencyKeyKeepMs,
    batch: async (db, cutoff, limit) => ({ idempotency_keys: await repo.pruneIdempotencyKeys(db, cutoff, limit) }),
  },
  {
    table: 'audit_log',
    keepMs: (p) => p.auditLogDays * DAY_MS,
    batch: async (db, cutoff, limit) => ({ audit_log: await repo.pruneAuditLog(db, cutoff, limit) }),
  },
];

/** Every table a run removes rows of: each kind's own, and those that go with them. */
export const TABLES: readonly Table[] = [...PRUNABLES.map((prunable) => prunable.table), 'webhook_attempts'];

/** What a pruning run removed, table by table, and the time before which each kind was removed. */
export interface PruneReport {
  pruned: Record<Table, number>;
  before: Record<OwnTable, string>;
}

export interface Retention {
  /** Prunes every table to its period, batch after batch, and reports what each lost. */
  pruneAll(options?: { pauseMs?: number; signal?: AbortSignal }): Promise<PruneReport>;
  /** The background job: pruneAll with pauses, every PRUNE_INTERVAL_MS. */
  worker: Worker;
}

/** One statement per batch, each its own transaction: no lock is held longer than a batch's delete. */
export function createRetention(deps: {
  db: Executor;
  clock: Clock;
  settings: RetentionSettings;
  /** How long an idempotency key's answer is replayed (http/idempotency.ts): its rows go after it. */
  idempotencyKeyKeepMs: number;
  onError: (error: unknown) => void;
}): Retention {
  const { db, clock, settings } = deps;
  const limit = settings.pruneBatchRows;
  const periods: Periods = { ...settings, idempotencyKeyKeepMs: deps.idempotencyKeyKeepMs };

  async function pruneAll({ pauseMs = 0, signal }: { pauseMs?: number; signal?: AbortSignal } = {}) {
    const now = clock.now().getTime();
    // Every table at 0 before the first batch: a report names each table, whatever it lost.
    const report: PruneReport = {
      pruned: Object.fromEntries(TABLES.map((table) => [table, 0])) as PruneReport['pruned'],
      before: {} as PruneReport['before'],
    };
    for (const prunable of PRUNABLES) {
      const cutoff = new Date(now - prunable.keepMs(periods));
      report.before[prunable.table] = cutoff.toISOString();
      for (;;) {
        const gone = await prunable.batch(db, cutoff, limit);
        for (const [table, rows] of Object.entries(gone) as [Table, number][]) report.pruned[table] += rows;
        if ((gone[prunable.table] ?? 0) < limit || signal?.aborted) break;
        if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
      }
    }
    return report;
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
