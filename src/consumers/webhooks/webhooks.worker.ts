import type { Db } from '../../base/db/client.js';
import { findEventsByIds } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpConsumer } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import { nextAttemptAt, shouldDisable } from '../../events/retry.js';
import { deliveryMessage, type Message, type SendResult, send } from './send.js';
import { velocityEventOf } from '../../domain/shipment/velocity-webhooks.js';
import { resolveTarget, type TargetRules, UnsafeTargetError } from './url-safety.js';
import * as repo from './webhooks.repository.js';

export interface DeliverySettings extends TargetRules {
  /** Seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** A 2xx must come within this; 10 s. */
  timeoutMs: number;
  /** WORKER_LEASE_MARGIN_MS: a lease outlasts the longest send by this much. */
  leaseMarginMs: number;
}

const FAN_OUT_BATCH = 200;
/** Deliveries one worker sends at once. */
const SEND_SLOTS = 16;
/**
 * How long a round waits for a send to free its slot before letting the worker's other tasks
 * (fan-out, e-mails) have their turn; the slot is refilled by a later round.
 */
const SLOT_WAIT_MS = 200;

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
  let onFreed: (() => void) | undefined;
  const freed = () => onFreed?.();

  async function attempt(endpoint: repo.EndpointRow, message: Message, signal: AbortSignal): Promise<SendResult> {
    try {
      const target = await resolveTarget(endpoint.url, settings);
      return await send(target, message.headers(now()), message.body, {
        timeoutMs: settings.timeoutMs,
        signal,
        userAgent: 'Dakiya-Webhooks/1.0',
        delivered: message.delivered,
      });
    } catch (error) {
      if (error instanceof UnsafeTargetError) return { statusCode: null, durationMs: 0, error: `refused: ${error.message}` };
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

  return [
    { name: 'webhook fan-out', run: async () => (await pumpConsumer(db, webhookFanOut, now(), FAN_OUT_BATCH)) === FAN_OUT_BATCH },
    {
      name: 'webhook deliveries',
      /**
       * Sends run in a pool of SEND_SLOTS: a round claims as many due deliveries as there are free
       * slots and starts them, and a send frees its slot when it ends. No send waits for another, so
       * a receiver that holds its requests until the timeout delays only its own deliveries, not
       * every other endpoint's behind it in the same batch.
       */
      async run(signal) {
        const free = SEND_SLOTS - inFlight.size;
        let claimed = 0;
        if (free > 0) {
          const at = now();
          const due = await repo.claimDue(db, at, new Date(at.getTime() + leaseMs), free);
          claimed = due.length;
          if (claimed > 0) {
            const endpoints = new Map((await repo.findEndpointsByIds(db, [...new Set(due.map((d) => d.endpointId))])).map((e) => [e.id, e]));
            const events = new Map((await findEventsByIds(db, [...new Set(due.map((d) => d.eventId))])).map((e) => [e.id, e]));
            for (const delivery of due) {
              const endpoint = endpoints.get(delivery.endpointId)!;
              const message = deliveryMessage(endpoint, events.get(delivery.eventId)!);
              const sending = (async () => {
                const result = await attempt(endpoint, message, signal);
                // Stopped mid-send: record nothing; the lease runs out and the delivery is sent again.
                if (signal.aborted) return;
                await record(delivery, endpoint, result);
              })()
                .catch((error: unknown) => onSendError(error))
                .finally(() => {
                  inFlight.delete(sending);
                  freed();
                });
              inFlight.add(sending);
            }
          }
        }
        if (inFlight.size === 0) return false;
        // A slot freed while this round waited means more may be due at once: run again.
        let slotFreed = false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, SLOT_WAIT_MS);
          onFreed = () => {
            slotFreed = true;
            clearTimeout(timer);
            resolve();
          };
        });
        onFreed = undefined;
        return slotFreed || (free > 0 && claimed === free);
      },
      async settled() {
        await Promise.all(inFlight);
      },
    },
  ];
}
