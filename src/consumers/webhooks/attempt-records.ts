import type { Db } from '../../base/db/client.js';
import { nextAttemptAt, shouldDisable } from '../../events/retry.js';
import type { SendResult } from './send.js';
import * as repo from './webhooks.repository.js';

/** Successes recorded together: at most this many per statement, at most this long after the answer. */
const RECORD_BATCH = 100;
const RECORD_WAIT_MS = 5;

/**
 * How the webhook worker records what each send got: `record` for an answer that needs the
 * endpoint's lock (a failure, with its retry or the endpoint's disabling, or a success that clears
 * failures), `recordSuccess` for the common case, batched, and `recordUnsendable` for a delivery
 * that could not be sent at all; `flushed` resolves once the batched ones are written.
 */
export function attemptRecorder(
  db: Db,
  retryDelaysSeconds: readonly number[],
  now: () => Date,
  onError: (error: unknown) => void,
) {
  // Successes to endpoints with no failure to clear, recorded together (see recordSuccesses).
  let successes: { delivery: repo.QueuedDelivery; endpoint: repo.EndpointRow; result: SendResult; at: Date }[] = [];
  let flushing: Promise<void> | undefined;

  /** Records an attempt, schedules the next or gives up, and keeps the endpoint's failure count. */
  async function record(delivery: repo.QueuedDelivery, endpoint: repo.EndpointRow, result: SendResult) {
    const at = now();
    const attempts = delivery.attempts + 1;
    await db.transaction(async (tx) => {
      // The endpoint before the delivery, as disabling and deleting lock them: a record that locked
      // its delivery first deadlocked on PostgreSQL with one that was disabling the endpoint (and
      // giving up that delivery), losing the attempt until the lease ran out.
      const current = await repo.findEndpoint(tx, delivery.accountId, endpoint.id, true);
      const enabled = current?.status === 'enabled';
      // An endpoint disabled or deleted while this was sent has given up its deliveries: no retry.
      const next =
        result.error === null || !enabled ? null : nextAttemptAt(attempts, retryDelaysSeconds, at, Math.random());
      const status = result.error === null ? 'succeeded' : next ? 'pending' : 'failed';
      await repo.insertAttempt(tx, {
        accountId: delivery.accountId,
        deliveryId: delivery.id,
        ...result,
        attemptedAt: at,
      });
      await repo.finishAttempt(tx, delivery.id, { status, attempts, nextAttemptAt: next, updatedAt: at });
      if (!current || !enabled) return;
      if (result.error === null) {
        if (current.failedEvents > 0 || current.failingSince)
          await repo.updateEndpoint(tx, current.accountId, current.id, { failingSince: null, failedEvents: 0 });
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
   * A delivery whose message cannot be written (its event has no form in the endpoint's format, as
   * after a switch to Velocity's): failed at once, with why, and not counted against the endpoint,
   * whose receiver never saw it. Left leased, it would be picked and refused again every lease.
   */
  async function recordUnsendable(delivery: repo.QueuedDelivery, endpoint: repo.EndpointRow, why: string) {
    const at = now();
    await db.transaction(async (tx) => {
      // The endpoint first, in the order record() and disabling lock them.
      await repo.findEndpoint(tx, delivery.accountId, endpoint.id, true);
      await repo.insertAttempt(tx, {
        accountId: delivery.accountId,
        deliveryId: delivery.id,
        statusCode: null,
        durationMs: 0,
        error: `not sent: ${why}`,
        attemptedAt: at,
      });
      await repo.finishAttempt(tx, delivery.id, {
        status: 'failed',
        attempts: delivery.attempts + 1,
        nextAttemptAt: null,
        updatedAt: at,
      });
    });
  }

  /**
   * The common case, a 2xx from an endpoint that has no failure to clear, needs neither the
   * endpoint's lock nor a transaction of its own: such successes are recorded a few milliseconds
   * after their answers, many to one statement. Their leases keep them from being sent again
   * meanwhile. Should the statement fail, each is recorded on its own.
   */
  function recordSuccess(delivery: repo.QueuedDelivery, endpoint: repo.EndpointRow, result: SendResult): Promise<void> {
    successes.push({ delivery, endpoint, result, at: now() });
    if (!flushing) {
      flushing = new Promise<void>((resolve) =>
        setTimeout(resolve, successes.length >= RECORD_BATCH ? 0 : RECORD_WAIT_MS),
      ).then(async () => {
        while (successes.length > 0) {
          const batch = successes.slice(0, RECORD_BATCH);
          successes = successes.slice(RECORD_BATCH);
          try {
            await repo.recordSuccesses(
              db,
              batch.map((s) => ({
                ...s.delivery,
                durationMs: s.result.durationMs,
                statusCode: s.result.statusCode,
                at: s.at,
              })),
            );
          } catch {
            for (const s of batch) await record(s.delivery, s.endpoint, s.result).catch(onError);
          }
        }
        flushing = undefined;
      });
    }
    return flushing;
  }

  return { record, recordSuccess, recordUnsendable, flushed: () => flushing ?? Promise.resolve() };
}
