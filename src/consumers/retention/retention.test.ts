import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import {
  channelOrders,
  channelWebhookReceipts,
  channelWritebacks,
  salesChannels,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../base/db/schema.js';
import { createStore } from '../../../test/kit/stores.js';
import { TABLES } from './retention.service.js';

// Retention (issue 52): what is past its period is gone, everything else untouched, row for row.
// The rows are written as the webhook worker writes them, at the ages each case needs (the test
// clock stands at 2026-11-20 06:30 UTC; the period is 30 days by default).

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  // Batches of 10, so that a run takes several.
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 10 } } });
});
afterAll(async () => {
  await ctx.close();
});

/** An account with an endpoint and an event (a booking's) its deliveries can be of. */
async function accountWithEndpoint() {
  const m = await merchant(ctx);
  await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
  const [event] = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`select id from events where account_id = ${m.id} order by sequence limit 1`,
  );
  const now = ctx.clock.now();
  const [endpoint] = await ctx.database.db
    .insert(webhookEndpoints)
    .values({
      accountId: m.id,
      url: 'https://hooks.acme.example/dakiya',
      events: ['*'],
      status: 'enabled',
      secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { accountId: m.id, endpointId: endpoint!.id, eventId: event!.id };
}

/** A delivery last changed `ageDays` ago, with `attempts` attempts; its id. */
async function delivery(
  owner: { accountId: string; endpointId: string; eventId: string },
  status: 'pending' | 'succeeded' | 'failed',
  ageDays: number,
  attempts = 2,
): Promise<string> {
  const at = new Date(ctx.clock.now().getTime() - ageDays * DAY);
  const [row] = await ctx.database.db
    .insert(webhookDeliveries)
    .values({
      ...owner,
      status,
      attempts,
      createdAt: at,
      updatedAt: at,
      nextAttemptAt: status === 'pending' ? at : null,
    })
    .returning({ id: webhookDeliveries.id });
  for (let i = 0; i < attempts; i++)
    await ctx.database.db.insert(webhookAttempts).values({
      accountId: owner.accountId,
      deliveryId: row!.id,
      statusCode: status === 'succeeded' && i === attempts - 1 ? 200 : 503,
      durationMs: 40,
      attemptedAt: at,
    });
  return row!.id;
}

const remaining = async () => ({
  deliveries: (
    await queryRows<{ id: string }>(ctx.database.db, sql`select id from webhook_deliveries order by id`)
  ).map((r) => r.id),
  attempts: (
    await queryRows<{ id: string; delivery_id: string }>(
      ctx.database.db,
      sql`select id, delivery_id from webhook_attempts order by id`,
    )
  ).map((r) => `${r.delivery_id}/${r.id}`),
});

/** What a run that removed nothing reports. */
const NONE = {
  webhook_deliveries: 0,
  webhook_attempts: 0,
  channel_webhook_receipts: 0,
  notifications: 0,
  buyer_messages: 0,
  kept_scans: 0,
  audit_log: 0,
  idempotency_keys: 0,
  channel_writebacks: 0,
  tracking_events: 0,
  return_events: 0,
  events: 0,
  shipment_daily_totals: 0,
  shipment_monthly_totals: 0,
};

/** A store's sales channel, disconnected: what its receipts and write-backs hang from. */
async function salesChannel(
  m: { id: string; warehouseId: string },
  storeId: string,
  channel: 'shopify' | 'woocommerce',
  address: string,
) {
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(salesChannels)
    .values({
      accountId: m.id,
      storeId,
      channel,
      address,
      shopName: 'Acme',
      warehouseId: m.warehouseId,
      sealed: 'sealed',
      onImport: 'queue',
      notifyCustomer: false,
      lengthCm: 10,
      breadthCm: 10,
      heightCm: 10,
      status: 'disconnected',
      pullDue: false,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

const prune = () => ctx.app.inject({ method: 'POST', url: '/admin/v1/retention/prune', headers: admin });

describe('POST /admin/v1/retention/prune (and the hourly job)', () => {
  it('removes finished deliveries past 30 days with their attempts, over every account, and touches nothing else', async () => {
    const a = await accountWithEndpoint();
    const b = await accountWithEndpoint();
    const old = [
      await delivery(a, 'succeeded', 31),
      await delivery(a, 'failed', 45, 3),
      await delivery(b, 'succeeded', 30.01, 1),
    ];
    // Pending deliveries are live work whatever their age; finished ones within the period stay.
    const kept = [
      await delivery(a, 'pending', 60),
      await delivery(a, 'succeeded', 29.99),
      await delivery(b, 'failed', 1),
      await delivery(b, 'succeeded', 0),
    ];
    // A backlog of 23 more past the period: three batches of 10.
    for (let i = 0; i < 23; i++) old.push(await delivery(i % 2 ? a : b, 'succeeded', 90 + i, 1));
    const before = await remaining();
    const oldAttempts = before.attempts.filter((row) => old.some((id) => row.startsWith(`${id}/`)));
    expect(oldAttempts).toHaveLength(2 + 3 + 1 + 23);

    const response = await prune();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        pruned: { ...NONE, webhook_deliveries: 26, webhook_attempts: 29 },
        before: {
          webhook_deliveries: '2026-10-21T06:30:00.000Z',
          channel_webhook_receipts: '2026-10-21T06:30:00.000Z',
          notifications: '2026-08-22T06:30:00.000Z',
          buyer_messages: '2026-08-22T06:30:00.000Z',
          kept_scans: '2026-05-24T06:30:00.000Z',
          audit_log: '2025-11-20T06:30:00.000Z',
          idempotency_keys: '2026-11-19T06:30:00.000Z',
          channel_writebacks: '2026-10-21T06:30:00.000Z',
          tracking_events: '2025-11-20T06:30:00.000Z',
          return_events: '2025-11-20T06:30:00.000Z',
          events: '2026-08-22T06:30:00.000Z',
          shipment_daily_totals: '2026-11-19T18:30:00.000Z',
          shipment_monthly_totals: '2026-10-31T18:30:00.000Z',
        },
      },
    });
    expect(await remaining()).toEqual({
      deliveries: before.deliveries.filter((id) => !old.includes(id)),
      attempts: before.attempts.filter((row) => !oldAttempts.includes(row)),
    });
    expect((await remaining()).deliveries).toEqual([...kept].sort());

    // Again: nothing left to prune.
    expect((await prune()).json().data.pruned).toEqual(NONE);
    // A day later the delivery that was 29.99 days old is past its period, and only it.
    ctx.clock.advance(DAY);
    // The bookings' daily totals of the day before are folded too (their connections' shards).
    const [shards] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from shipment_daily_totals where shard <> 0`,
    );
    expect((await ctx.app.retention.pruneAll()).pruned).toEqual({
      ...NONE,
      shipment_daily_totals: shards!.n,
      webhook_deliveries: 1,
      webhook_attempts: 2,
    });
    expect((await remaining()).deliveries).toEqual([kept[0], kept[2], kept[3]].sort());
  });

  it("removes the ids of stores' webhooks received past 30 days, and only those", async () => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: `receipts-${crypto.randomUUID().slice(0, 8)}` });
    const now = ctx.clock.now();
    const channel = await salesChannel(m, store.id as string, 'shopify', 'acme.myshopify.com');
    const ages: [string, number][] = [
      ['w-old', 31],
      ['w-older', 200],
      ['w-edge', 29.99],
      ['w-new', 0],
    ];
    for (const [id, days] of ages)
      await ctx.database.db.insert(channelWebhookReceipts).values({
        salesChannelId: channel.id,
        deliveryId: id,
        accountId: m.id,
        receivedAt: new Date(now.getTime() - days * DAY),
      });
    expect((await prune()).json().data.pruned).toEqual({ ...NONE, channel_webhook_receipts: 2 });
    const left = await queryRows<{ delivery_id: string }>(
      ctx.database.db,
      sql`select delivery_id from channel_webhook_receipts where sales_channel_id = ${channel.id} order by delivery_id`,
    );
    expect(left.map((r) => r.delivery_id)).toEqual(['w-edge', 'w-new']);
  });

  it('removes write-backs to stores finished more than 30 days ago, pending ones never, and nothing else', async () => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: `writebacks-${crypto.randomUUID().slice(0, 8)}` });
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const [event] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from events where account_id = ${m.id} and subject_id = ${booked.shipment_id} limit 1`,
    );
    const now = ctx.clock.now();
    const channel = await salesChannel(m, store.id as string, 'woocommerce', 'https://shop.acme.example');
    const [order] = await ctx.database.db
      .insert(channelOrders)
      .values({
        accountId: m.id,
        salesChannelId: channel.id,
        channelOrderId: '5521',
        channelOrderName: '#5521',
        payload: {},
        cancelled: false,
        state: 'imported',
        shipmentId: booked.shipment_id!,
        firstSeenAt: now,
        updatedAt: now,
      })
      .returning();
    // One write-back per kind (the event and kind are its key): each at its age and status.
    const cases: [kind: string, status: string, days: number][] = [
      ['fulfil', 'done', 31],
      ['update', 'failed', 200],
      ['track', 'skipped', 30.5],
      ['cancel', 'pending', 400],
    ];
    const young: [kind: string, status: string, days: number][] = [['fulfil', 'done', 29.99]];
    const write = async (eventId: string, [kind, status, days]: [string, string, number]) => {
      const at = new Date(now.getTime() - days * DAY);
      const [row] = await ctx.database.db
        .insert(channelWritebacks)
        .values({
          accountId: m.id,
          salesChannelId: channel.id,
          channelOrderRowId: order!.id,
          shipmentId: booked.shipment_id!,
          eventId,
          kind,
          payload: { awb: booked.awb_code },
          status,
          nextAttemptAt: status === 'pending' ? at : null,
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: channelWritebacks.id });
      return row!.id;
    };
    const ids = [];
    for (const c of cases) ids.push(await write(event!.id, c));
    const [second] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from events where account_id = ${m.id} and id <> ${event!.id} limit 1`,
    );
    for (const c of young) ids.push(await write(second!.id, c));
    expect((await prune()).json().data.pruned).toEqual({ ...NONE, channel_writebacks: 3 });
    const left = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from channel_writebacks where account_id = ${m.id} order by id`,
    );
    expect(left.map((r) => r.id)).toEqual([ids[3], ids[4]].sort());
  });

  it('answers 401 without the operator token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/retention/prune' });
    expect(response.statusCode).toBe(401);
  });
});

describe('the tables the job deletes from', () => {
  // A row's deletion makes each foreign key that references its table look for referencing rows;
  // without an index led by the referencing column that is a scan of the whole table per row
  // deleted (webhook_attempts → webhook_deliveries: 9.4 s per batch of 500 at 400,000 attempts,
  // bench:retention).
  it('has every foreign key that references them indexed by its referencing column', async () => {
    const unindexed = await queryRows<{ referencing: string; column: string; referenced: string }>(
      ctx.database.db,
      sql`select c.conrelid::regclass::text as referencing, a.attname as column, c.confrelid::regclass::text as referenced
          from pg_constraint c
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f'
            and c.confrelid::regclass::text = any(${sql.param([...TABLES])}::text[])
            and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
          order by 1, 2`,
    );
    expect(unindexed).toEqual([]);
    // The check reads the foreign keys it should: attempts reference deliveries.
    const references = await queryRows<{ referencing: string }>(
      ctx.database.db,
      sql`select conrelid::regclass::text as referencing from pg_constraint
          where contype = 'f' and confrelid = 'webhook_deliveries'::regclass`,
    );
    expect(references).toEqual([{ referencing: 'webhook_attempts' }]);
  });
});
