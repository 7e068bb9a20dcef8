import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import {
  type Buyer,
  buyerNeedles,
  distinctiveBuyer,
  findTraces,
  useBuyerEverywhere,
} from '../../../test/kit/buyer-everywhere.js';
import { findFileTraces } from '../../../test/kit/buyer-traces.js';
import { eventsSettled } from '../../../test/databases.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, CANCEL, post, UUID, V1 } from '../../../test/kit/http.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';

// Issue 52's test of an erasure: a buyer written through every feature that keeps one (a COD
// booking, its scans, an NDR and a reattempt to a corrected address and another phone, customer
// e-mails, SMS messages, webhooks, a return request with a bank refund, a return and a reverse
// order, a WooCommerce import: test/kit/buyer-everywhere.ts), found first in exactly the columns
// an erasure must reach, then erased by their phone, and then no trace of their names, phones,
// e-mail or street in any text or JSON column of any table.

const ERASE = `${V1}/buyer-erasures`;
const world = useBuyerEverywhere();

describe('the buyer written everywhere, and found by findTraces', () => {
  it('writes the buyer into one account through every feature, with their shipments', () => {
    const { written } = world;
    expect([written.orderIds.length, written.shipmentIds.length, written.awbs.length]).toEqual([4, 4, 3]);
    expect(written.messages).toEqual(MESSAGES);
    expect(written.smsSent).toBe(MESSAGES.length);
    expect(written.webhooksReceived).toBeGreaterThan(0);
  });

  it('finds each of their values in exactly the columns that keep them', async () => {
    const traces = await findTraces(world.ctx.database.db, buyerNeedles(world.buyer));
    const where = (needle: string) =>
      sorted([...new Set(traces.filter((t) => t.needle === needle).map((t) => `${t.table}.${t.column}`))]);
    expect(sorted([...new Set(traces.map((t) => t.table))])).toEqual(EXPECTED_TABLES);
    expect(
      Object.fromEntries(Object.keys(EXPECTED).map((key) => [key, where(needleOf(world.buyer, key as keyof Buyer))])),
    ).toEqual(EXPECTED);
  });

  it('finds nothing of a buyer nobody wrote, and takes a needle with % and _ literally', async () => {
    const stranger = buyerNeedles(distinctiveBuyer());
    expect(await findTraces(world.ctx.database.db, [...stranger, '%', '_', 'a%b_c\\'])).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ needle: stranger[0] })]),
    );
    expect(await findTraces(world.ctx.database.db, ['%%zz_%', 'Zorawarix%'])).toEqual([]);
  });

  it("finds each of their values in the database's files, which the compaction's check below reads", async () => {
    // As autovacuum would have on a live install: the planner's statistics now sample their values too.
    await world.ctx.database.db.execute(sql`analyze`);
    const needles = buyerNeedles(world.buyer);
    const found = await findFileTraces(world.ctx.database, needles);
    expect(new Set(found.map((t) => t.needle.toLowerCase()))).toEqual(new Set(needles.map((n) => n.toLowerCase())));
  });
});

describe("a buyer's erasure", () => {
  it('leaves no trace of the buyer in any table, once their parcels are done with', async () => {
    const before = await findTraces(world.ctx.database.db, buyerNeedles(world.buyer));

    const refused = await post(world.ctx, world.written.apiKey, ERASE, { phone: world.buyer.phone });
    const [, returnAwb, reverseAwb] = world.written.awbs;
    const imported = world.written.shipmentIds[3]!;
    expect([refused.statusCode, refused.json().code, refused.json().details]).toEqual([
      409,
      'buyer_parcels_on_the_way',
      [
        { field: 'shipment_id', message: `${imported} is not shipped yet; it needs the address` },
        { field: 'awb', message: `${returnAwb} is on its way; its courier needs the address` },
        { field: 'awb', message: `${reverseAwb} is on its way; its courier needs the address` },
      ],
    ]);
    expect(await findTraces(world.ctx.database.db, buyerNeedles(world.buyer))).toEqual(before);

    // The store's order is cancelled; the two returns come back to the warehouse.
    expect((await post(world.ctx, world.written.apiKey, CANCEL, { shipment_id: imported })).statusCode).toBe(200);
    const courier = await issueCarrierToken(world.ctx, SHADOWFAX);
    for (const awb of [returnAwb!, reverseAwb!]) {
      await sendEvents(world.ctx, courier, [
        { awb, status: 'return_picked_up', event_time: at(600) },
        { awb, status: 'return_delivered', event_time: at(700) },
      ]);
    }
    await eventsSettled(world.ctx.database);

    const erased = await post(world.ctx, world.written.apiKey, ERASE, { phone: world.buyer.phone });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data).toEqual({
      erasure_id: expect.stringMatching(UUID),
      found: { orders: 2, shipments: 2, returns: 2, return_requests: 1, exchanges: 0, refunds: 1 },
      erased: {
        orders: 2,
        shipments: 2,
        events: 46,
        notifications: 7,
        buyer_messages: 5,
        shipment_actions: 1,
        returns: 2,
        return_requests: 1,
        refunds: 1,
        channel_orders: 1,
      },
      deleted: { rto_history: 1, return_request_photos: 0, account_exports: 0 },
    });
    expect(await findTraces(world.ctx.database.db, buyerNeedles(world.buyer))).toEqual([]);
  });

  it("leaves no trace of the buyer in the database's files once the operator has compacted them", async () => {
    const { database } = world.ctx;
    // An erasure changes rows; their old versions are still in the files until rewritten.
    expect((await findFileTraces(database, buyerNeedles(world.buyer))).length).toBeGreaterThan(0);

    const compacted = await world.ctx.app.inject({ method: 'POST', url: '/admin/v1/privacy/compact', headers: admin });
    expect(compacted.statusCode).toBe(200);
    const { tables, statistics_rewritten, write_ahead_log, open_transactions } = compacted.json().data;
    const [{ recycle }] = (await queryRows<{ recycle: string }>(
      database.db,
      sql`select current_setting('wal_recycle') as recycle`,
    )) as [{ recycle: string }];
    // The embedded engine starts with wal_recycle off; the test server is as its operator set it.
    if (database.engine === 'pglite') expect(recycle).toBe('off');
    expect({ open_transactions, statistics_rewritten, segments: write_ahead_log.segments }).toEqual({
      open_transactions: null,
      statistics_rewritten: true,
      segments: recycle === 'off' ? 'removed' : 'recycled',
    });
    const orders = tables.find((t: { table: string }) => t.table === 'orders');
    expect(orders).toEqual({
      table: 'orders',
      bytes_before: expect.any(Number),
      bytes_after: expect.any(Number),
      rewritten: true,
    });
    expect(tables.filter((t: { rewritten: boolean }) => !t.rewritten)).toEqual([]);
    expect(tables.map((t: { table: string }) => t.table)).toEqual(expect.arrayContaining(EXPECTED_TABLES));

    expect(await findFileTraces(database, buyerNeedles(world.buyer))).toEqual([]);
  });
});

const sorted = (list: string[]) => [...list].sort();
const needleOf = (b: Buyer, key: keyof Buyer) => b[key];

/** Every buyer message, each sent by SMS to the buyer's phone. */
const MESSAGES = [
  'ndr sms sent',
  // The forward booking's and the WooCommerce order's: both COD.
  'order_confirmation sms sent',
  'order_confirmation sms sent',
  // The request received, and approved.
  'return_update sms sent',
  'return_update sms sent',
];

const EXPECTED_TABLES = [
  'buyer_messages',
  'channel_orders',
  'events',
  'notifications',
  'orders',
  'refunds',
  'return_requests',
  'returns',
  'rto_history',
  'shipment_actions',
  'shipments',
];
/** Where each of the buyer's values is kept: the table.column list an erasure must reach. */
const EXPECTED: Record<keyof Buyer, string[]> = {
  firstName: [
    'channel_orders.payload',
    'events.data',
    'notifications.body_html',
    'notifications.body_text',
    'orders.billing_name',
    'orders.shipping_name',
    'refunds.payee',
    'return_requests.comment',
    'return_requests.pickup',
    'return_requests.refund_to',
    'returns.pickup',
    'shipment_actions.payload',
    'shipments.search_text',
  ],
  lastName: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_last_name',
    'orders.shipping_last_name',
    'refunds.payee',
    'return_requests.pickup',
    'return_requests.refund_to',
    'returns.pickup',
    'shipments.search_text',
  ],
  phone: [
    'buyer_messages.recipient',
    'channel_orders.payload',
    'events.data',
    'orders.billing_phone',
    'orders.shipping_phone',
    'return_requests.pickup',
    'returns.pickup',
    'rto_history.key',
    'shipments.search_text',
  ],
  alternatePhone: ['events.data', 'shipment_actions.payload'],
  email: [
    'channel_orders.payload',
    'events.data',
    'notifications.recipient',
    'orders.billing_email',
    'orders.shipping_email',
    'return_requests.pickup',
    'returns.pickup',
    'shipments.search_text',
  ],
  address: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_address',
    'orders.shipping_address',
    'return_requests.pickup',
    'returns.pickup',
    'shipment_actions.payload',
  ],
  address2: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_address_2',
    'orders.shipping_address_2',
    'return_requests.pickup',
    'returns.pickup',
    'shipment_actions.payload',
  ],
};
