import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { buyerMessages, notifications } from '../../base/db/schema.js';

// Retention of what was sent to buyers (issue 52): customer e-mails and messages, each a log of
// jobs kept 90 days by default once finished; a pending job is live work at any age. The rows are
// written as the senders leave them, at the ages each case needs (the test clock stands at
// 2026-11-20 06:30 UTC).

const DAY = 86_400_000;
let ctx: TestContext;
beforeAll(async () => {
  // Batches of 4, so that a run takes several.
  ctx = await createTestApp({ settings: { retention: { pruneBatchRows: 4 } } });
});
afterAll(async () => {
  await ctx.close();
});

/** A booked shipment of a new account of the app `on`, and the first event it wrote. */
async function bookedShipment(on: TestContext = ctx) {
  const m = await merchant(on);
  await orchestrate(on, m.apiKey, orderBody(m.warehouseId));
  const [row] = await queryRows<{ shipment_id: string; event_id: string }>(
    on.database.db,
    sql`select s.id as shipment_id, e.id as event_id from shipments s
        join events e on e.account_id = s.account_id
        where s.account_id = ${m.id} order by e.sequence limit 1`,
  );
  return { on, accountId: m.id, shipmentId: row!.shipment_id, eventId: row!.event_id };
}

type Shipment = Awaited<ReturnType<typeof bookedShipment>>;
const ago = (owner: Shipment, days: number) => new Date(owner.on.clock.now().getTime() - days * DAY);

async function email(owner: Shipment, status: string, ageDays: number): Promise<string> {
  const at = ago(owner, ageDays);
  const [row] = await owner.on.database.db
    .insert(notifications)
    .values({
      accountId: owner.accountId,
      shipmentId: owner.shipmentId,
      eventId: owner.eventId,
      eventType: 'shipment.created',
      notifyEvent: 'shipped',
      channel: 'email',
      // One e-mail per event and recipient: each row its own recipient.
      recipient: `buyer-${crypto.randomUUID().slice(0, 8)}@mail.example`,
      status,
      attempts: status === 'pending' ? 0 : 1,
      nextAttemptAt: status === 'pending' ? at : null,
      createdAt: at,
      updatedAt: at,
      subject: 'Your order is on its way',
    })
    .returning({ id: notifications.id });
  return row!.id;
}

async function message(owner: Shipment, status: 'pending' | 'sent' | 'failed', ageDays: number): Promise<string> {
  const at = ago(owner, ageDays);
  const [row] = await owner.on.database.db
    .insert(buyerMessages)
    .values({
      accountId: owner.accountId,
      shipmentId: owner.shipmentId,
      channel: 'whatsapp',
      purpose: 'ndr',
      template: 'ndr_reattempt',
      language: 'en',
      recipient: '+919876543210',
      status,
      nextAttemptAt: status === 'pending' ? at : null,
      variables: { name: 'Asha' },
      sentAt: status === 'sent' ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: buyerMessages.id });
  return row!.id;
}

const ids = async (table: 'notifications' | 'buyer_messages') =>
  (await queryRows<{ id: string }>(ctx.database.db, sql`select id from ${sql.identifier(table)} order by id`)).map(
    (r) => r.id,
  );

const prune = () => ctx.app.inject({ method: 'POST', url: '/admin/v1/retention/prune', headers: admin });

describe('retention of customer e-mails and buyer messages', () => {
  it('removes finished ones past 90 days over every account, pending ones never, and nothing else', async () => {
    const a = await bookedShipment();
    const b = await bookedShipment();
    const oldEmails = [
      await email(a, 'sent', 91),
      await email(a, 'outbox', 120),
      await email(b, 'skipped', 90.01),
      await email(b, 'failed', 400),
    ];
    for (let i = 0; i < 5; i++) oldEmails.push(await email(i % 2 ? a : b, 'sent', 100 + i));
    const keptEmails = [await email(a, 'pending', 200), await email(a, 'sent', 89.99), await email(b, 'outbox', 0)];
    const oldMessages = [await message(a, 'sent', 95), await message(b, 'failed', 300)];
    const keptMessages = [
      await message(b, 'pending', 150),
      await message(a, 'sent', 89.99),
      await message(b, 'sent', 1),
    ];
    const emailsBefore = await ids('notifications');
    const messagesBefore = await ids('buyer_messages');

    const response = await prune();
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      pruned: {
        webhook_deliveries: 0,
        webhook_attempts: 0,
        channel_webhook_receipts: 0,
        notifications: 9,
        buyer_messages: 2,
        kept_scans: 0,
        audit_log: 0,
        idempotency_keys: 0,
        channel_writebacks: 0,
        tracking_events: 0,
        return_events: 0,
        events: 0,
        shipment_daily_totals: 0,
        shipment_monthly_totals: 0,
      },
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
    });
    // Row for row: the old ones gone, every other row of the tables (the bookings' own) untouched.
    expect(await ids('notifications')).toEqual(emailsBefore.filter((id) => !oldEmails.includes(id)));
    expect(await ids('buyer_messages')).toEqual(messagesBefore.filter((id) => !oldMessages.includes(id)));
    for (const id of [...keptEmails, ...keptMessages])
      expect([...(await ids('notifications')), ...(await ids('buyer_messages'))]).toContain(id);

    // A day later, the two that were 89.99 days old are past the period, and only they.
    ctx.clock.advance(DAY);
    const later = await ctx.app.retention.pruneAll();
    expect([later.pruned.notifications, later.pruned.buyer_messages]).toEqual([1, 1]);
    expect(await ids('notifications')).not.toContain(keptEmails[1]);
    expect(await ids('notifications')).toEqual(expect.arrayContaining([keptEmails[0], keptEmails[2]]));
    expect(await ids('buyer_messages')).toEqual(expect.arrayContaining([keptMessages[0], keptMessages[2]]));
    expect(await ids('buyer_messages')).not.toContain(keptMessages[1]);
  });

  it('keeps to the periods an operator sets (EMAILS_RETENTION_DAYS, BUYER_MESSAGES_RETENTION_DAYS)', async () => {
    const own = await createTestApp({ settings: { retention: { emailsDays: 7, buyerMessagesDays: 400 } } });
    try {
      const owner = await bookedShipment(own);
      await email(owner, 'sent', 8);
      await message(owner, 'sent', 399);
      const report = await own.app.retention.pruneAll();
      expect(report.before.notifications).toBe('2026-11-13T06:30:00.000Z');
      expect(report.before.buyer_messages).toBe('2025-10-16T06:30:00.000Z');
      expect([report.pruned.notifications, report.pruned.buyer_messages]).toEqual([1, 0]);
    } finally {
      await own.close();
    }
  });
});
