import type { Db } from '../../base/db/client.js';
import { findEventsByIds } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpConsumer } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import { nextAttemptAt, shouldDisable } from '../../events/retry.js';
import type { SendLimits } from '../../base/config.js';
import { Agents, deliveryMessage, type Message, type SendResult, send } from './send.js';
import { velocityEventOf } from '../../domain/shipment/velocity-webhooks.js';
import { SendSlots } from './send-slots.js';
import { resolveTarget, type TargetRules, UnresolvedHostError, UnsafeTargetError } from './url-safety.js';
import * as repo from './webhooks.repository.js';

export interface DeliverySettings extends TargetRules {
  /** Seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** A 2xx must come within this; 10 s. */
  timeoutMs: number;
  /** WORKER_LEASE_MARGIN_MS: a lease outlasts the longest send by this much. */
  leaseMarginMs: number;
  /** Sends at once, in all, per account and per endpoint (WEBHOOK_CONCURRENCY…). */
  concurrency: SendLimits;
}

const FAN_OUT_BATCH = 200;
/** How many due deliveries a round looks at to choose from; a full account's are left out of it. */
const CANDIDATES = 200;
/** Reads of due deliveries in one round: each leaves out the accounts and endpoints the last filled. */
const MAX_PICKS = 8;
/**
 * How long a round waits for a send to free its slot before letting the worker's other tasks
 * (fan-out, e-mails) have their turn; the slot is refilled by a later round.
 */
const SLOT_WAIT_MS = 200;
/** How long one run of the delivery task keeps filling the slots sends free before the other tasks have their turn. */
const DELIVERY_BUDGET_MS = 250;
/** Successes recorded together: at most this many per statement, at most this long after the answer. */
const RECORD_BATCH = 100;
const RECORD_WAIT_MS = 5;

/** Turns each new event into one delivery per subscribed endpoint: the webhook outbox consumer. */
export const webhookFanOut: OutboxConsumer = {
  name: 'webhooks',
  handle: (tx, events) =>
    repo.fanOut(
      tx,
      events.map((e) => e.id),
      events.map((e) => velocityEventOf(e) ?? null),
      new Date(),
    ),
};

/**
 * The webhook worker's two tasks: fan events out into deliveries, and send the deliveries that are
 * due. Delivery times are real time (retries wait on the network, not on the API's clock).
 */
export function webhookTasks(
  db: Db,
  settings: DeliverySettings,
  // A send runs past its round, so its failure cannot reach the worker's own error handler.
  onSendError: (error: unknown) => void,
  now: () => Date = () => new Date(),
): WorkerTask[] {
  // A lease outlasts the longest exchange, so a live worker never loses its delivery to another.
  const leaseMs = settings.timeoutMs + settings.leaseMarginMs;
  const inFlight = new Set<Promise<void>>();
  const slots = new SendSlots(settings.concurrency);
  // Ends a round's wait for a slot: a send ended, or an event was recorded (wake).
  let interrupt: (() => void) | undefined;
  let ended = 0;
  const agents = new Agents();
  // Successes to endpoints with no failure to clear, recorded together (see recordSuccesses).
  let successes: { delivery: repo.DeliveryRow; endpoint: repo.EndpointRow; result: SendResult; at: Date }[] = [];
  let flushing: Promise<void> | undefined;
  // Set by wake(): events were recorded, and the fan-out should have its turn.
  let woken = false;

  async function attempt(endpoint: repo.EndpointRow, message: Message, signal: AbortSignal): Promise<SendResult> {
    try {
      const target = await resolveTarget(endpoint.url, settings);
      return await send(target, message.headers(now()), message.body, {
        timeoutMs: settings.timeoutMs,
        signal,
        userAgent: 'Dakiya-Webhooks/1.0',
        delivered: message.delivered,
        agents,
      });
    } catch (error) {
      if (error instanceof UnsafeTargetError) return { statusCode: null, durationMs: 0, error: `refused: ${error.message}` };
      if (error instanceof UnresolvedHostError) return { statusCode: null, durationMs: 0, error: error.message };
      throw error;
    }
  }

  /** Records an attempt, schedules the next or gives up, and keeps the endpoint's failure count. */
  async function record(delivery: repo.DeliveryRow, endpoint: repo.EndpointRow, result: SendResult) {
    const at = now();
    const attempts = delivery.attempts + 1;
    await db.transaction(async (tx) => {
      // The endpoint before the delivery, as disabling and deleting lock them: a record that locked
      // its delivery first deadlocked on PostgreSQL with one that was disabling the endpoint (and
      // giving up that delivery), losing the attempt until the lease ran out.
      const current = await repo.findEndpoint(tx, delivery.accountId, endpoint.id, true);
      const enabled = current?.status === 'enabled';
      // An endpoint disabled or deleted while this was sent has given up its deliveries: no retry.
      const next = result.error === null || !enabled ? null : nextAttemptAt(attempts, settings.retryDelaysSeconds, at, Math.random());
      const status = result.error === null ? 'succeeded' : next ? 'pending' : 'failed';
      await repo.insertAttempt(tx, { accountId: delivery.accountId, deliveryId: delivery.id, ...result, attemptedAt: at });
      await repo.finishAttempt(tx, delivery.id, { status, attempts, nextAttemptAt: next, updatedAt: at });
      if (!current || !enabled) return;
      if (result.error === null) {
        if (current.failedEvents > 0 || current.failingSince) await repo.updateEndpoint(tx, current.accountId, current.id, { failingSince: null, failedEvents: 0 });
        return;
      }
      // An event counts once towards disabling: on its first failed attempt.
      const failedEvents = current.failedEvents + (attempts === 1 ? 1 : 0);
      const failingSince = current.failingSince ?? at;
      if (shouldDisable(failingSince, failedEvents, at)) {
        await repo.updateEndpoint(tx, current.accountId, current.id, {
          status: 'disabled',
          disabledReason: `No successful delivery since ${failingSince.toISOString()} (${failedEvents} events failed in a row)`,
          failingSince,
          failedEvents,
          updatedAt: at,
        });
        await repo.failPending(tx, current.accountId, current.id, at);
      } else {
        await repo.updateEndpoint(tx, current.accountId, current.id, { failingSince, failedEvents });
      }
    });
  }

  /**
   * The common case, a 2xx from an endpoint that has no failure to clear, needs neither the
   * endpoint's lock nor a transaction of its own: such successes are recorded a few milliseconds
   * after their answers, many to one statement. Their leases keep them from being sent again
   * meanwhile. Should the statement fail, each is recorded on its own.
   */
  function recordSuccess(delivery: repo.DeliveryRow, endpoint: repo.EndpointRow, result: SendResult): Promise<void> {
    successes.push({ delivery, endpoint, result, at: now() });
    if (!flushing) {
      flushing = new Promise<void>((resolve) => setTimeout(resolve, successes.length >= RECORD_BATCH ? 0 : RECORD_WAIT_MS)).then(async () => {
        while (successes.length > 0) {
          const batch = successes.slice(0, RECORD_BATCH);
          successes = successes.slice(RECORD_BATCH);
          try {
            await repo.recordSuccesses(db, batch.map((s) => ({ ...s.delivery, durationMs: s.result.durationMs, statusCode: s.result.statusCode, at: s.at })));
          } catch {
            for (const s of batch) await record(s.delivery, s.endpoint, s.result).catch(onSendError);
          }
        }
        flushing = undefined;
      });
    }
    return flushing;
  }

  /**
   * Starts the leased deliveries' sends. Each holds its slot while its receiver has the request:
   * the slots bound what receivers are sent at once; recording the answer happens after.
   */
  async function start(due: repo.DeliveryRow[], signal: AbortSignal) {
    const endpoints = new Map((await repo.findEndpointsByIds(db, [...new Set(due.map((d) => d.endpointId))])).map((e) => [e.id, e]));
    const events = new Map((await findEventsByIds(db, [...new Set(due.map((d) => d.eventId))])).map((e) => [e.id, e]));
    for (const delivery of due) {
      const endpoint = endpoints.get(delivery.endpointId)!;
      const message = deliveryMessage(endpoint, events.get(delivery.eventId)!);
      slots.take(delivery);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        slots.release(delivery);
        ended++;
        interrupt?.();
      };
      const sending = (async () => {
        const result = await attempt(endpoint, message, signal).finally(release);
        // Stopped mid-send: record nothing; the lease runs out and the delivery is sent again.
        if (signal.aborted) return;
        const healthy = endpoint.status === 'enabled' && endpoint.failedEvents === 0 && !endpoint.failingSince;
        await (result.error === null && healthy ? recordSuccess(delivery, endpoint, result) : record(delivery, endpoint, result));
      })()
        .catch((error: unknown) => onSendError(error))
        .finally(() => {
          inFlight.delete(sending);
          release();
        });
      inFlight.add(sending);
    }
  }

  return [
    { name: 'webhook fan-out', run: async () => (await pumpConsumer(db, webhookFanOut, now(), FAN_OUT_BATCH)) === FAN_OUT_BATCH },
    {
      name: 'webhook deliveries',
      /**
       * Sends run in a pool of slots shared fairly between accounts and endpoints (send-slots.ts):
       * a round reads the due deliveries, leaving out those whose account or endpoint has no room,
       * chooses as many as there are free slots, leases only those and starts them. A delivery
       * waiting for its account's room is never leased, so it loses no lease time and no attempt.
       * No send waits for another, so a receiver that holds its requests until the timeout delays
       * only its own account's deliveries, within that account's share.
       */
      async run(signal) {
        // Slots freed by sends that ended are filled again within this run, for up to
        // DELIVERY_BUDGET_MS, rather than after a whole round of every task (fan-out, e-mails):
        // under load a round costs many statements, each queued behind the API's. New events
        // (wake) end the run, so the fan-out turns them into deliveries.
        const started = performance.now();
        woken = false;
        for (;;) {
          const freeAtStart = slots.free;
          const endedAtStart = ended;
          for (let pick = 0; pick < MAX_PICKS && slots.free > 0; pick++) {
            const at = now();
            const candidates = await repo.dueCandidates(db, at, slots.full(), CANDIDATES);
            const chosen = slots.pick(candidates);
            if (chosen.length === 0) break;
            const due = await repo.lease(db, chosen.map((c) => c.id), at, new Date(at.getTime() + leaseMs));
            if (due.length > 0) await start(due, signal);
            // Every due delivery was seen and each one left has no room: nothing more to choose.
            if (candidates.length < CANDIDATES && due.length === chosen.length) break;
          }
          const withinBudget = () => !woken && !signal.aborted && performance.now() - started < DELIVERY_BUDGET_MS;
          // A slot freed while this round chose, or while it waited, may be filled at once.
          if (ended !== endedAtStart) {
            if (withinBudget()) continue;
            return true;
          }
          if (inFlight.size === 0) return false;
          let interrupted = false;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, SLOT_WAIT_MS);
            interrupt = () => {
              interrupted = true;
              clearTimeout(timer);
              resolve();
            };
          });
          interrupt = undefined;
          if (!interrupted) return freeAtStart > 0 && slots.free === 0;
          if (!withinBudget()) return true;
        }
      },
      wake() {
        woken = true;
        interrupt?.();
      },
      async settled() {
        await Promise.all(inFlight);
        await flushing;
        agents.close();
      },
    },
  ];
}
