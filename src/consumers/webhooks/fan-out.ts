import type { StoredEvent } from '../../events/events.repository.js';
import type { OutboxConsumer } from '../../events/outbox.js';
import { velocityEventOf } from './velocity-webhooks.js';
import * as repo from './webhooks.repository.js';

/** The webhook outbox consumer's cursor name (event_consumers). */
export const WEBHOOK_FAN_OUT = 'webhooks';

/**
 * Turns each new event into one delivery per subscribed endpoint: the webhook outbox consumer.
 * `written` hears of the deliveries and the events they carry, for the worker to send at once once
 * the transaction commits.
 */
export function webhookFanOut(
  written: (deliveries: repo.QueuedDelivery[], events: StoredEvent[]) => void = () => {},
): OutboxConsumer {
  return {
    name: WEBHOOK_FAN_OUT,
    async handle(tx, events) {
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
