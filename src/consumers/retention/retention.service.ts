import { setTimeout as pause } from 'node:timers/promises';
import type { Clock } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import { formatDay, type IndiaDay, indiaDayOf, indiaDayStartOf, monthStartOf } from '../../domain/calendar.js';
import { createWorker, type Worker } from '../../events/worker.js';
import { eventLogPruning } from './retention-events.js';
import * as history from './retention-history.repository.js';
import type { HistoryOwner } from './retention-history.repository.js';
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
  | 'channel_writebacks'
  | 'notifications'
  | 'buyer_messages'
  | 'kept_scans'
  | 'audit_log'
  | 'idempotency_keys'
  | 'tracking_events'
  | 'return_events'
  | 'events'
  | 'shipment_daily_totals'
  | 'shipment_monthly_totals';
type Table = OwnTable | 'webhook_attempts';
type Removed = Partial<Record<Table, number>>;

/**
 * One kind of row kept to a period: its batches, each one statement of its own that removes at
 * most about `limit` rows and answers what it removed by table (its own rows first; rows that go
 * with them after). The run pauses after each batch, and stops when the kind's batches end.
 */
interface Prunable {
  table: OwnTable;
  /** How long its rows stay: the time before which a run removes them is now less this. */
  keepMs(periods: Periods): number;
  /** The time before which a run removes rows, when it is not a period before now. */
  cutoff?(now: Date): Date;
  batches(db: Executor, at: { cutoff: Date; now: Date }, limit: number): AsyncIterable<Removed>;
}

/** Batches of a plain "older than" delete, until one finds fewer than `limit` rows to remove. */
const untilShort = (
  table: OwnTable,
  keepMs: Prunable['keepMs'],
  batch: (db: Executor, cutoff: Date, limit: number) => Promise<Removed>,
): Prunable => ({
  table,
  keepMs,
  async *batches(db, { cutoff }, limit) {
    for (;;) {
      const gone = await batch(db, cutoff, limit);
      yield gone;
      if ((gone[table] ?? 0) < limit) return;
    }
  },
});

/** Scans per parcel, about: a batch of the histories' pruning takes `limit` scans' worth of parcels. */
const SCANS_PER_PARCEL = 16;

/** Finished parcels' scans, all but each one's last, batch after batch of parcels. */
const histories = (table: 'tracking_events' | 'return_events', owner: HistoryOwner): Prunable => ({
  table,
  keepMs: (p) => p.trackingHistoryDays * DAY_MS,
  async *batches(db, { cutoff, now }, limit) {
    const parcels = Math.max(1, Math.floor(limit / SCANS_PER_PARCEL));
    for (;;) {
      const gone = await history.pruneFinishedHistories(db, owner, { cutoff, parcels, now });
      yield { [table]: gone.scans };
      if (gone.parcels < parcels) return;
    }
  },
});

/**
 * Not a period: the reports' totals of closed days or months, written to a shard per connection,
 * folded into one (retention.repository.ts). `open` gives the first India day still open from
 * today: the cutoff is its start, so the day or month before it is the last one folded.
 */
const totalShards = (level: repo.TotalsLevel, open: (today: IndiaDay) => IndiaDay): Prunable => {
  const { table } = repo.TOTALS[level];
  return {
    ...untilShort(
      table,
      () => 0,
      async (db, cutoff, limit) => ({
        [table]: await repo.foldTotalShards(db, level, formatDay(indiaDayOf(cutoff)), limit),
      }),
    ),
    cutoff: (now) => indiaDayStartOf(open(indiaDayOf(now))),
  };
};

/**
 * The tables that grow with traffic and are not the merchant's records, each with its period
 * (docs/operations.md, Retention). A table is added here, with its setting and a test of its edge.
 * The logs that name events go before the events, so that one run frees what they held.
 */
const prunables = (eventLog: Prunable['batches']): readonly Prunable[] => [
  untilShort(
    'webhook_deliveries',
    (p) => p.webhookDeliveriesDays * DAY_MS,
    async (db, cutoff, limit) => {
      const gone = await repo.pruneWebhookDeliveries(db, cutoff, limit);
      return { webhook_deliveries: gone.deliveries, webhook_attempts: gone.attempts };
    },
  ),
  untilShort(
    'channel_webhook_receipts',
    (p) => p.channelWebhookReceiptsDays * DAY_MS,
    async (db, cutoff, limit) => ({
      channel_webhook_receipts: await repo.pruneChannelWebhookReceipts(db, cutoff, limit),
    }),
  ),
  untilShort(
    'channel_writebacks',
    (p) => p.channelWritebacksDays * DAY_MS,
    async (db, cutoff, limit) => ({ channel_writebacks: await repo.pruneFinishedWritebacks(db, cutoff, limit) }),
  ),
  untilShort(
    'notifications',
    (p) => p.emailsDays * DAY_MS,
    async (db, cutoff, limit) => ({
      notifications: await repo.pruneFinishedJobs(db, 'notifications', cutoff, limit),
    }),
  ),
  untilShort(
    'buyer_messages',
    (p) => p.buyerMessagesDays * DAY_MS,
    async (db, cutoff, limit) => ({
      buyer_messages: await repo.pruneFinishedJobs(db, 'buyer_messages', cutoff, limit),
    }),
  ),
  untilShort(
    'kept_scans',
    (p) => p.keptScansDays * DAY_MS,
    async (db, cutoff, limit) => ({ kept_scans: await repo.pruneKeptScans(db, cutoff, limit) }),
  ),
  untilShort(
    'idempotency_keys',
    (p) => p.idempotencyKeyKeepMs,
    async (db, cutoff, limit) => ({ idempotency_keys: await repo.pruneIdempotencyKeys(db, cutoff, limit) }),
  ),
  untilShort(
    'audit_log',
    (p) => p.auditLogDays * DAY_MS,
    async (db, cutoff, limit) => ({ audit_log: await repo.pruneAuditLog(db, cutoff, limit) }),
  ),
  histories('tracking_events', 'shipments'),
  histories('return_events', 'returns'),
  { table: 'events', keepMs: (p) => p.eventsDays * DAY_MS, batches: eventLog },
  totalShards('day', (today) => today),
  totalShards('month', monthStartOf),
];

/** Every table a run removes rows of: each kind's own, and those that go with them. */
export const TABLES: readonly Table[] = [
  ...prunables(async function* () {}).map((prunable) => prunable.table),
  'webhook_attempts',
];

/** What a pruning run removed, table by table, and the time before which each kind was removed. */
export interface PruneReport {
  pruned: Record<Table, number>;
  before: Record<OwnTable, string>;
}

export interface Retention {
  /**
   * Prunes every table to its period, batch after batch, and reports what each lost: the route's
   * and the command's run. The background job's run in progress in this process is stopped first
   * (at the end of its batch), rather than raced batch for batch behind its pauses.
   */
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
  /**
   * A background run that removed rows, when it ends (stopped half-way too): what it removed and how
   * long it took, for the operator's log. Runs that found nothing say nothing: they come every hour.
   */
  onJobPruned: (run: { pruned: Removed; ms: number; stopped: boolean }) => void;
}): Retention {
  const { db, clock, settings } = deps;
  const limit = settings.pruneBatchRows;
  const periods: Periods = { ...settings, idempotencyKeyKeepMs: deps.idempotencyKeyKeepMs };
  const kinds = prunables(eventLogPruning(() => clock.now().getTime()));

  async function pruneAll({ pauseMs = 0, signal }: { pauseMs?: number; signal?: AbortSignal } = {}) {
    const now = clock.now().getTime();
    // Every table at 0 before the first batch: a report names each table, whatever it lost.
    const report: PruneReport = {
      pruned: Object.fromEntries(TABLES.map((table) => [table, 0])) as PruneReport['pruned'],
      before: {} as PruneReport['before'],
    };
    for (const prunable of kinds) {
      if (signal?.aborted) break;
      const cutoff = prunable.cutoff?.(new Date(now)) ?? new Date(now - prunable.keepMs(periods));
      report.before[prunable.table] = cutoff.toISOString();
      // The pause follows each batch, the last too: a kind's batches say they are done only when asked for the next.
      for await (const gone of prunable.batches(db, { cutoff, now: new Date(now) }, limit)) {
        for (const [table, rows] of Object.entries(gone) as [Table, number][]) report.pruned[table] += rows;
        if (signal?.aborted) break;
        if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
      }
    }
    return report;
  }

  // The job's run in progress. An on-demand run beside it deleted the same rows as the job, each
  // waiting on the other's batches, and its report missed what the job took meanwhile. The job's
  // next run comes at its interval.
  let jobRun: { stop: AbortController; ended: Promise<unknown> } | undefined;
  // On-demand runs one after another, and the job's after them: no two runs of this process race.
  let demanded: Promise<unknown> = Promise.resolve();

  const worker = createWorker(
    [
      {
        name: 'retention',
        run: async (signal) => {
          await demanded;
          const stop = new AbortController();
          const abort = () => stop.abort();
          signal.addEventListener('abort', abort, { once: true });
          const started = performance.now();
          const run = pruneAll({ pauseMs: PAUSE_BETWEEN_BATCHES_MS, signal: stop.signal });
          jobRun = { stop, ended: run.catch(() => undefined) };
          try {
            const removed = Object.entries((await run).pruned).filter(([, rows]) => rows > 0);
            if (removed.length > 0)
              deps.onJobPruned({
                pruned: Object.fromEntries(removed),
                ms: Math.round(performance.now() - started),
                stopped: stop.signal.aborted,
              });
          } finally {
            jobRun = undefined;
            signal.removeEventListener('abort', abort);
          }
          return false;
        },
      },
    ],
    { pollIntervalMs: PRUNE_INTERVAL_MS, onError: (_task, error) => deps.onError(error) },
  );
  return {
    pruneAll(options) {
      const run = demanded.then(async () => {
        const running = jobRun;
        if (running) {
          running.stop.abort();
          await running.ended;
        }
        return pruneAll(options);
      });
      demanded = run.catch(() => undefined);
      return run;
    },
    worker,
  };
}
