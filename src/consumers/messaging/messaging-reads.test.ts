import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import type { Tx } from '../../base/db/client.js';
import { insertEvent, registerConsumer, type StoredEvent } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpConsumer } from '../../events/outbox.js';
import { READS_BOOKING_WHEN_ASKING } from './messaging.repository.js';
import { NDR_REQUESTED } from './ndr-message.js';

// The buyer-messaging consumer reads a booking's event (its whole snapshot) only for an account
// whose confirmation policy asks; the other types it plans from are read for every account.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const policy = (apiKey: string, mode: string) =>
  ctx.app.inject({
    method: 'PUT',
    url: `${V1}/messaging/confirmation-policy`,
    headers: authed(apiKey),
    payload: { mode, channels: ['sms'], language: 'en', window_minutes: 60, hold_unconfirmed: false },
  });

describe("the buyer-messaging consumer's reads", () => {
  it("reads a booking's event only where the account's policy asks, and an NDR's request everywhere", async () => {
    const accounts = {
      none: await ctx.createAccount(),
      off: await ctx.createAccount(),
      asking: await ctx.createAccount(),
    };
    expect((await policy(accounts.off.apiKey, 'off')).statusCode).toBe(200);
    expect((await policy(accounts.asking.apiKey, 'all_cod')).statusCode).toBe(200);
    const seen: StoredEvent[] = [];
    const consumer: OutboxConsumer = {
      name: `test-${randomUUID()}`,
      reads: ['shipment.created', NDR_REQUESTED],
      readsWhen: READS_BOOKING_WHEN_ASKING,
      async handle(_tx: Tx, events: StoredEvent[]) {
        seen.push(...events);
      },
    };
    await registerConsumer(ctx.database.db, consumer.name, ctx.clock.now());

    const nameOf = new Map<string, string>();
    for (const [name, account] of Object.entries(accounts)) {
      nameOf.set(account.id, name);
      const booked = await book(ctx, account.apiKey, await createCityWarehouse(ctx, account.apiKey), { cod: true });
      await insertEvent(ctx.database.db, account.id, {
        type: NDR_REQUESTED,
        subjectType: 'shipment',
        subjectId: booked.shipment_id,
        data: { shipment_id: booked.shipment_id },
        createdAt: ctx.clock.now(),
      });
    }
    await eventsSettled(ctx.database);
    await pumpConsumer(ctx.database.db, consumer, ctx.clock.now());

    const read = seen
      .filter((e) => e.type === 'shipment.created' || e.type === NDR_REQUESTED)
      .map((e) => [nameOf.get(e.accountId), e.type, e.dataSkipped ? 'skipped' : 'read']);
    expect(read).toEqual([
      ['none', 'shipment.created', 'skipped'],
      ['none', NDR_REQUESTED, 'read'],
      ['off', 'shipment.created', 'skipped'],
      ['off', NDR_REQUESTED, 'read'],
      ['asking', 'shipment.created', 'read'],
      ['asking', NDR_REQUESTED, 'read'],
    ]);
    const asked = seen.find((e) => nameOf.get(e.accountId) === 'asking' && e.type === 'shipment.created')!;
    expect((asked.data as { shipment: { id: string } }).shipment.id).toBe(asked.subjectId);
  });
});
