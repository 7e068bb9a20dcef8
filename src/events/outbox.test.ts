import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { eventsSettled } from '../../test/databases.js';
import { authed } from '../../test/kit/http.js';
import { book } from '../../test/kit/orders.js';
import { createCityWarehouse } from '../../test/kit/warehouses.js';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../base/db/client.js';
import { insertEvent, registerConsumer, type StoredEvent, takeBatchStatement } from './events.repository.js';
import { type OutboxConsumer, pumpConsumer } from './outbox.js';

let ctx: TestContext;
let apiKey: string;
let accountId: string;
let warehouseId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey, id: accountId } = await ctx.createAccount());
  warehouseId = await createCityWarehouse(ctx, apiKey);
});
afterAll(async () => {
  await ctx.close();
});

/**
 * A consumer that keeps what it is handed, and can be told to fail its next batch. No migration
 * knows it: its cursor is made at its first pump, after the events settled then, as the migration
 * that introduces a consumer makes it on an install that already has events.
 */
function collector(name = `test-${randomUUID()}`, reads?: readonly string[], readsWhen?: SQL) {
  const seen: StoredEvent[] = [];
  let failNext = false;
  let registered: Promise<void> | undefined;
  const consumer: OutboxConsumer = {
    name,
    reads,
    readsWhen,
    async handle(_tx: Tx, events: StoredEvent[]) {
      if (failNext) {
        failNext = false;
        throw new Error('handler failed');
      }
      seen.push(...events);
    },
  };
  return {
    consumer,
    seen,
    failOnce: () => (failNext = true),
    pump: async () => {
      registered ??= registerConsumer(ctx.database.db, name, ctx.clock.now());
      await registered;
      return pumpConsumer(ctx.database.db, consumer, ctx.clock.now());
    },
  };
}

const eventIds = async () =>
  (await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/events?limit=100', headers: authed(apiKey) }))
    .json()
    .data.map((e: { id: string }) => e.id);

describe('outbox consumers', () => {
  it('new to a log that has events: start after them, then get each new event once, in log order', async () => {
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    const reader = collector();
    expect(await reader.pump()).toBe(0);
    const before = await eventIds();
    await book(ctx, apiKey, warehouseId);
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    expect(await reader.pump()).toBe(4);
    expect(await reader.pump()).toBe(0);
    const after = await eventIds();
    expect(reader.seen.map((e) => e.id)).toEqual(after.slice(before.length));
    expect(reader.seen.map((e) => e.type)).toEqual([
      'shipment.created',
      'shipment.booked',
      'shipment.created',
      'shipment.booked',
    ]);
  });

  it('a consumer no migration made a cursor for is refused at every read, and none is made for it', async () => {
    const name = `unmade-${randomUUID()}`;
    const consumer: OutboxConsumer = { name, handle: async () => {} };
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    for (let round = 0; round < 2; round++)
      await expect(pumpConsumer(ctx.database.db, consumer, ctx.clock.now())).rejects.toThrow(
        `the outbox consumer "${name}" has no cursor: a migration must make its row in event_consumers`,
      );
    const rows = await queryRows(ctx.database.db, sql`select name from event_consumers where name = ${name}`);
    expect(rows).toEqual([]);
  });

  it('a batch whose handler fails is handed again: the cursor moves only with the work', async () => {
    const reader = collector();
    await reader.pump();
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    reader.failOnce();
    await expect(reader.pump()).rejects.toThrow('handler failed');
    expect(reader.seen).toEqual([]);
    expect(await reader.pump()).toBe(2);
    expect(reader.seen.map((e) => e.type)).toEqual(['shipment.created', 'shipment.booked']);
  });

  it('a consumer that reads some types gets every event, with the data of those types only', async () => {
    const everything = collector();
    const bookedOnly = collector(`test-${randomUUID()}`, ['shipment.booked']);
    await everything.pump();
    await bookedOnly.pump();
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    expect(await everything.pump()).toBe(2);
    expect(await bookedOnly.pump()).toBe(2);
    expect(bookedOnly.seen.map((e) => e.id)).toEqual(everything.seen.map((e) => e.id));
    const [created, booked] = bookedOnly.seen;
    expect(created!.type).toBe('shipment.created');
    expect(created!.data).toEqual({});
    expect(booked!.type).toBe('shipment.booked');
    expect(booked!.data).toEqual(everything.seen[1]!.data);
    expect((booked!.data as { shipment: { id: string } }).shipment.id).toBe(booked!.subjectId);
    // The cursor moved past both: nothing is handed again.
    expect(await bookedOnly.pump()).toBe(0);
  });

  it('a consumer that reads on a condition gets every event, with the data of those it holds for', async () => {
    const other = await ctx.createAccount();
    const otherWarehouse = await createCityWarehouse(ctx, other.apiKey);
    const everything = collector();
    const oursOnly = collector(`test-${randomUUID()}`, undefined, sql`events.account_id = ${accountId}`);
    const oursBooked = collector(`test-${randomUUID()}`, ['shipment.booked'], sql`events.account_id = ${accountId}`);
    for (const reader of [everything, oursOnly, oursBooked]) await reader.pump();
    await book(ctx, other.apiKey, otherWarehouse);
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    for (const reader of [everything, oursOnly, oursBooked]) expect(await reader.pump()).toBe(4);
    const read = (event: StoredEvent) => (event.dataSkipped ? 'skipped' : 'read');
    expect(everything.seen.map(read)).toEqual(['read', 'read', 'read', 'read']);
    expect(oursOnly.seen.map((e) => [e.accountId === accountId, e.type, read(e)])).toEqual([
      [false, 'shipment.created', 'skipped'],
      [false, 'shipment.booked', 'skipped'],
      [true, 'shipment.created', 'read'],
      [true, 'shipment.booked', 'read'],
    ]);
    expect(oursBooked.seen.map(read)).toEqual(['skipped', 'skipped', 'skipped', 'read']);
    for (const [i, event] of oursOnly.seen.entries()) {
      expect(event.id).toBe(everything.seen[i]!.id);
      expect(event.data).toEqual(event.dataSkipped ? {} : everything.seen[i]!.data);
    }
    expect(oursBooked.seen[3]!.data).toEqual(everything.seen[3]!.data);
  });

  it('pumps running at once hand each event to exactly one of them', async () => {
    const name = `shared-${randomUUID()}`;
    const readers = [collector(name), collector(name), collector(name)];
    await readers[0]!.pump();
    for (let i = 0; i < 3; i++) await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    let handled = 0;
    for (let round = 0; round < 5; round++)
      handled += (await Promise.all(readers.map((r) => r.pump()))).reduce((a, b) => a + b, 0);
    const seen = readers.flatMap((r) => r.seen.map((e) => e.id));
    expect(handled).toBe(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('a round reads the log from its cursor on, however long the log behind it', async () => {
    // Another account's, so that the other cases' listings of this account's events are as they were.
    const { id: elsewhere } = await ctx.createAccount();
    await ctx.database.db.execute(sql`
      insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
      select ${elsewhere}, 'store.updated', 'store', gen_random_uuid(), 1, '{}'::jsonb, now() from generate_series(1, 2000)`);
    await eventsSettled(ctx.database);
    const reader = collector();
    expect(await reader.pump()).toBe(0);
    await book(ctx, apiKey, warehouseId);
    await eventsSettled(ctx.database);
    // The statement's shape, not the planner's choice on a small table: without scans and sorts to
    // fall back on, the log is read in its index's order, which must start at the cursor. Joined to
    // the cursor rather than lateral to it, the read walked every event from the first (2,020 here),
    // as it did on a large log whatever the settings.
    const eventsRead = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
        tx,
        sql`explain (analyze, format json) ${takeBatchStatement(reader.consumer.name, { limit: 200, now: ctx.clock.now() })}`,
      );
      const plan = row!['QUERY PLAN'];
      let read = 0;
      const walk = (node: Record<string, unknown>) => {
        if (node['Relation Name'] === 'events')
          read +=
            (node['Actual Rows'] as number) * (node['Actual Loops'] as number) +
            ((node['Rows Removed by Filter'] as number) ?? 0);
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: Record<string, unknown> }[])[0]!.Plan);
      return read;
    });
    expect(eventsRead).toBe(2);
  });

  it('an event still committing holds back the events after it, so a cursor never steps past it', async () => {
    const reader = collector();
    await eventsSettled(ctx.database);
    await reader.pump();
    if (ctx.database.engine === 'postgres') {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const written = new Promise<void>((resolve) => (started = resolve));
      const slow = ctx.database.db.transaction(async (tx) => {
        const subject = randomUUID();
        await insertEvent(tx, accountId, {
          type: 'store.updated',
          subjectType: 'store',
          subjectId: subject,
          data: { slow: true },
          createdAt: ctx.clock.now(),
        });
        started();
        await gate;
      });
      await written;
      await book(ctx, apiKey, warehouseId);
      // The booking committed, but an earlier transaction that wrote an event is still open.
      expect(await reader.pump()).toBe(0);
      const listedWhileOpen = await eventIds();
      release();
      await slow;
      await eventsSettled(ctx.database);
      expect(await reader.pump()).toBe(3);
      expect(reader.seen.map((e) => e.type)).toEqual(['store.updated', 'shipment.created', 'shipment.booked']);
      expect((await eventIds()).length).toBe(listedWhileOpen.length + 3);
    } else {
      // PGlite runs one transaction at a time: whatever is committed is settled.
      await book(ctx, apiKey, warehouseId);
      expect(await reader.pump()).toBe(2);
    }
  });
});
