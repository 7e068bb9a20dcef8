import type { StoredEvent } from '../../events/events.repository.js';
import type { OutboxConsumer } from '../../events/outbox.js';
import { velocityEventOf } from './velocity-webhooks.js';
import * as repo from './webhooks.repository.js';

/** The webhook outbox consumer's cursor name (event_consumers). */
export const WEBHOOK_FAN_OUT = 'webhooks';

/**
 * Turns each new event into one delivery per subscribed endpoint: the webhook outbox consumer.
 * `written` hears of the deliveries and the events they carry, for the worker to send at once once
 * the transaction commits. An event is read whole only when its account had an enabled endpoint as
 * the batch was taken; the others are not fanned out (an endpoint that commits after that is one
 * registered after the event, which it does not get).
 */
export function webhookFanOut(
  written: (deliveries: repo.QueuedDelivery[], events: StoredEvent[]) => void = () => {},
): OutboxConsumer {
  return {
    name: WEBHOOK_FAN_OUT,
    readsWhen: repo.HAS_LIVE_ENDPOINT,
    async handle(tx, batch) {
      const events = batch.filter((e) => !e.dataSkipped);
      if (events.length === 0) return;
      const deliveries = await repo.fanOut(
        tx,
        events.map((e) => e.id),
        events.map((e) => velocityEventOf(e) ?? null),
        new Date(),
      );
      written(deliveries, events);
    },
  };
}

/** How many events one fan-out takes. */
export const FAN_OUT_BATCH = 200;
/**
 * A fan-out starts no sooner than this after the last one started, unless that one came full:
 * under load an event is recorded every millisecond or two, and a fan-out for every one or two
 * costs four statements. The events recorded in the wait go out together in the next one.
 */
const FAN_OUT_SPACING_MS = 10;

/** The fan-outs' pace: `wait` before one, `ended` after it (answers whether it came full). */
export function fanOutPace() {
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastFull = false;
  return {
    async wait(): Promise<void> {
      const wait = lastFull ? 0 : lastAt + FAN_OUT_SPACING_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastAt = performance.now();
    },
    ended(handled: number): boolean {
      lastFull = handled === FAN_OUT_BATCH;
      return lastFull;
    },
  };
}
