import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import { ChannelCallError, type ChannelName, type Fulfilment } from '../../channels/channel-adapter.js';
import { openCredentials } from '../../channels/channel-credentials.js';
import type { ChannelAdapters } from '../../channels/channel-registry.js';
import { pumpTask } from '../../events/outbox.js';
import { nextAttemptAt } from '../../events/retry.js';
import type { WorkerTask } from '../../events/worker.js';
import { channelWritebackConsumer, type FulfilmentPayload, type TrackPayload } from './channel-writeback.plan.js';
import * as repo from './channel-writeback.repository.js';

export interface WritebackDeps {
  /** The senders' connections. */
  db: Db;
  /** When jobs are due and attempts happen: the app's clock (tests move it past a retry's delay). */
  clock: Clock;
  adapters: ChannelAdapters;
  secretBox: SecretBox;
  /** CHANNEL_RETRY_DELAYS: seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** One call to a store must end within this (channels.settings.ts). */
  callTimeoutMs: number;
  /** WORKER_LEASE_MARGIN_MS: a lease outlasts the longest send by this much. */
  leaseMarginMs: number;
  /** Told of a send whose outcome could not be recorded (its lease runs out and it is sent again). */
  onError(error: unknown): void;
  random?: () => number;
}

const CONSUME_BATCH = 200;
/** Jobs one worker sends at once, and of those at most this many to one store. */
export const SEND_SLOTS = 16;
export const PER_CHANNEL = 2;
/** A fulfilment is up to three calls (read the order, create, and a throttled answer waited out between). */
const CALLS_PER_JOB = 4;

type Attempt = { status: 'done' | 'skipped'; note: string | null };
const done: Attempt = { status: 'done', note: null };
const skipped = (note: string): Attempt => ({ status: 'skipped', note });

/** Why an attempt failed, as the job and the channel's health show it. */
export const failureOf = (error: unknown): string =>
  error instanceof ChannelCallError
    ? `${error.kind}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * When to try a failed job again, or null to give up. A call the store rejected (an order it does
 * not have, nothing left to fulfil) is not made again: the same call gets the same answer. One whose
 * credentials it refused, or whose address has no DNS, waits for the merchant to fix it: the
 * schedule's longest delay each time, still within its number of attempts. Anything else (the store
 * down, throttling, an answer we could not read) follows the schedule, no sooner than a
 * Retry-After the store gave.
 */
export function retryAt(
  error: unknown,
  attempts: number,
  delays: readonly number[],
  now: Date,
  random: number,
): Date | null {
  if (error instanceof ChannelCallError && error.kind === 'rejected') return null;
  if (error instanceof ChannelCallError && (error.kind === 'refused_credentials' || error.kind === 'unresolved')) {
    const longest = Math.max(...delays);
    return attempts > delays.length ? null : nextAttemptAt(1, [longest], now, random);
  }
  const next = nextAttemptAt(attempts, delays, now, random);
  const after = error instanceof ChannelCallError ? error.retryAfterMs : undefined;
  if (next === null || after === undefined) return next;
  return new Date(Math.max(next.getTime(), now.getTime() + after));
}

/**
 * The write-back's tasks: plan jobs from the event log, and send the due ones. Sends run past the
 * round that started them (a store answering slowly holds only its own slots: at most PER_CHANNEL
 * of SEND_SLOTS), each recording its outcome as it ends and waking the worker for what it
 * unblocked (the shipment's next job). `settled` waits for those in flight.
 */
export function channelWritebackTasks(deps: WritebackDeps): WorkerTask[] {
  const { db, clock } = deps;
  const random = deps.random ?? Math.random;
  const consumer = channelWritebackConsumer(() => clock.now());
  const consume = pumpTask('channel write-back jobs', db, consumer, () => clock.now(), CONSUME_BATCH);
  const leaseMs = CALLS_PER_JOB * deps.callTimeoutMs + deps.leaseMarginMs;
  const perChannel = new Map<string, number>();
  const sending = new Set<string>();
  const running = new Set<Promise<void>>();

  async function call(job: repo.WritebackRow, channel: repo.ChannelRow, order: repo.LedgerRow): Promise<Attempt> {
    const credentials = openCredentials(deps.secretBox, channel.sealed);
    const adapter = deps.adapters[channel.channel as ChannelName];
    const reference = order.fulfilmentReference;
    const at = () => clock.now();
    if (job.kind === 'fulfil' || job.kind === 'update') {
      const p = job.payload as unknown as FulfilmentPayload;
      const fulfilment: Fulfilment = { ...p, channelOrderId: order.channelOrderId, shippedAt: new Date(p.shippedAt) };
      if (reference !== null && order.fulfilledAwb === p.awb) return skipped(`the store already has AWB ${p.awb}`);
      // What the store has decides, not the kind planned: a booking after a cancelled fulfilment is a new one.
      const written =
        reference === null
          ? await adapter.writeFulfilment(credentials, fulfilment)
          : await adapter.updateFulfilment(credentials, reference, fulfilment);
      await repo.recordFulfilment(db, job.accountId, order.id, { reference: written.reference, awb: p.awb }, at());
      return done;
    }
    if (reference === null) return skipped('no fulfilment was written to the store');
    if (job.kind === 'track') {
      const p = job.payload as unknown as TrackPayload;
      await adapter.writeTrackingUpdate(credentials, reference, order.channelOrderId, {
        ...p,
        happenedAt: new Date(p.happenedAt),
      });
      return done;
    }
    await adapter.cancelFulfilment(credentials, reference, order.channelOrderId);
    await repo.recordFulfilment(db, job.accountId, order.id, { reference: null, awb: null }, at());
    return done;
  }

  async function send(job: repo.WritebackRow): Promise<void> {
    const target = await repo.targetOf(db, job.accountId, job);
    const attempts = job.attempts + 1;
    let outcome: repo.JobOutcome;
    try {
      const result =
        target && target.channel.status === 'connected'
          ? await call(job, target.channel, target.order)
          : skipped('the sales channel was disconnected');
      outcome = { status: result.status, attempts, nextAttemptAt: null, lastError: result.note, doneAt: clock.now() };
    } catch (error) {
      const at = clock.now();
      const next = retryAt(error, attempts, deps.retryDelaysSeconds, at, random());
      const lastError = failureOf(error);
      outcome = { status: next ? 'pending' : 'failed', attempts, nextAttemptAt: next, lastError, doneAt: null };
      await repo.recordChannelFailure(db, job.accountId, job.salesChannelId, lastError, at);
    }
    await repo.finishJob(db, job.accountId, job.id, outcome, clock.now());
  }

  function start(job: repo.WritebackRow, wake: (() => void) | undefined) {
    sending.add(job.id);
    perChannel.set(job.salesChannelId, (perChannel.get(job.salesChannelId) ?? 0) + 1);
    const sent: Promise<void> = send(job)
      .catch((error: unknown) => deps.onError(error))
      .finally(() => {
        sending.delete(job.id);
        perChannel.set(job.salesChannelId, (perChannel.get(job.salesChannelId) ?? 1) - 1);
        running.delete(sent);
        wake?.();
      });
    running.add(sent);
  }

  const sendDue: WorkerTask = {
    name: 'channel write-back sends',
    async run(signal, wake) {
      const free = SEND_SLOTS - sending.size;
      if (free <= 0 || signal.aborted) return false;
      const now = clock.now();
      const busy = [...perChannel].filter(([, n]) => n >= PER_CHANNEL).map(([id]) => id);
      const candidates = await repo.dueCandidates(db, now, busy, PER_CHANNEL, free + sending.size);
      const room = new Map<string, number>();
      const picked = candidates.filter((c) => {
        if (sending.has(c.id)) return false;
        const left = room.get(c.salesChannelId) ?? PER_CHANNEL - (perChannel.get(c.salesChannelId) ?? 0);
        if (left <= 0) return false;
        room.set(c.salesChannelId, left - 1);
        return true;
      });
      const jobs = await repo.lease(
        db,
        picked.slice(0, free).map((c) => c.id),
        now,
        new Date(now.getTime() + leaseMs),
      );
      for (const job of jobs) start(job, wake);
      // Each send wakes the worker as it ends; nothing more to do in this round.
      return false;
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
  return [consume, sendDue];
}
