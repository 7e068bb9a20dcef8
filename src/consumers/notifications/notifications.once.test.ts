import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestAppOptions, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, ORCHESTRATE, post, STORES, UNKNOWN_ID } from '../../../test/kit/http.js';
import { type Booked, orderBodyFromFields, type OrderFields } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { png } from '../../../test/kit/uploads.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { until } from '../../../test/webhook-receiver.js';
import { queryRows } from '../../base/db/client.js';
import { defaultSettings } from '../../settings.js';
import { notificationTasks } from './notifications.worker.js';
import { eventsSettled } from '../../../test/databases.js';

const MAIL_FROM = 'updates@dakiya.test';
/** Short waits, so retries happen within a test; a real server waits 1 min, 5 min, … */
const fast = (smtpUrl: string | undefined): TestAppOptions => ({
  settings: {
    mail: { smtpUrl, mailFrom: smtpUrl && MAIL_FROM },
    notifications: { retryDelaysSeconds: [0.05, 0.05], timeoutMs: 5000 },
    workers: { pollIntervalMs: 100 },
  },
  delivery: ['notifications'],
});

let smtp: SmtpServer;
let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let warehouseId: string;
let carrierToken: string;
let store: { id: string; logo_url: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(fast(smtp.url));
  apiKey = (await ctx.createAccount('Kurta Kart Pvt Ltd')).apiKey;
  otherKey = (await ctx.createAccount()).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
  const created = await post(ctx, apiKey, STORES, {
    store_name: 'chai-and-co',
    brand_name: 'Chai & Co <Tea>',
    logo: png().toString('base64'),
    support_email: 'help@chaico.in',
    support_phone: '1800-123-4567',
  });
  expect(created.statusCode, created.body).toBe(201);
  store = created.json().data;
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

async function book(fields: OrderFields & { drop?: string[]; extra?: Record<string, unknown> } = {}): Promise<Booked> {
  const body = { ...orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, ...fields }), ...fields.extra };
  for (const field of fields.drop ?? []) delete body[field];
  const response = await post(ctx, apiKey, ORCHESTRATE, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().payload;
}

/** Moves the parcel through these statuses, one courier push each (a push's last status is the one it reports). */
async function scan(awb: string, ...statuses: (string | { status: string; ndr_reason: string })[]) {
  for (const [i, step] of statuses.entries()) {
    const event = typeof step === 'string' ? { status: step } : step;
    const [result] = await sendEvents(ctx, carrierToken, [{ awb, event_time: at(i + 1), ...event }]);
    expect(result, JSON.stringify(step)).toMatchObject({ accepted: true });
  }
}

interface Listed {
  id: string;
  event_id: string;
  event_type: string;
  notify_event: string;
  channel: string;
  recipient: string | null;
  status: string;
  skip_reason: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
}

async function notificationsOf(shipmentId: string, key = apiKey): Promise<Listed[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/custom/api/v1/shipments/${shipmentId}/notifications`,
    headers: authed(key),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** Waits until every notification of the shipment is finished and there are `count` of them. */
async function settled(shipmentId: string, count: number): Promise<Listed[]> {
  let listed: Listed[] = [];
  await until(async () => {
    listed = await notificationsOf(shipmentId);
    return listed.length === count && listed.every((n) => n.status !== 'pending');
  }, `${count} finished notifications`);
  return listed;
}

describe('customer e-mails', () => {
  it('e-mails the customer when booked, out for delivery and delivered, under the store brand with its logo and the tracking link', async () => {
    const booked = await book({
      storeName: 'chai-and-co',
      customer: 'Priya Sharma',
      email: 'priya.sharma@example.com',
    });
    await scan(booked.awb_code!, 'in_transit', 'out_for_delivery', 'delivered');
    const listed = await settled(booked.shipment_id, 3);

    // Jobs due together are sent together: the order they arrive in is not the events' order.
    const mails = smtp.to('priya.sharma@example.com');
    const subject = (end: string) => `Your Chai & Co <Tea> order ${booked.channel_order_id} ${end}`;
    expect(mails.map((m) => m.mail.subject).sort()).toEqual([
      subject('has been delivered'),
      subject('has shipped'),
      subject('is out for delivery'),
    ]);
    for (const { mail } of mails) {
      expect(mail.from?.value).toEqual([{ name: 'Chai & Co <Tea>', address: MAIL_FROM }]);
      expect(mail.replyTo?.value).toEqual([{ name: '', address: 'help@chaico.in' }]);
      const html = String(mail.html);
      expect(html).toContain(`<img src="${store.logo_url}"`);
      expect(html).toContain(`href="${booked.track_url}"`);
      // The brand is text in the markup, never markup.
      expect(html).toContain('Chai &amp; Co &lt;Tea&gt;');
      expect(html).not.toContain('<Tea>');
      expect(html).toContain('Hello Priya,');
      expect(html).toContain('href="mailto:help@chaico.in"');
      expect(mail.text).toContain(`: ${booked.track_url}`);
      expect(mail.text).toContain('Chai & Co <Tea>');
      expect(mail.text).toContain('Please e-mail help@chaico.in or call 1800-123-4567.');
    }
    const shipped = mails.find((m) => m.mail.subject === subject('has shipped'))!.mail;
    expect(shipped.text).toContain(`Tracking number (AWB): ${booked.awb_code}.`);

    await eventsSettled(ctx.database);

    const events = (
      await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/events?limit=100', headers: authed(apiKey) })
    ).json().data as { id: string; type: string; data: { shipment: { id: string }; to?: string } }[];
    const own = events.filter((e) => e.data.shipment?.id === booked.shipment_id);
    const eventOf = (type: string, to?: string) =>
      own.find((e) => e.type === type && (to === undefined || e.data.to === to))!.id;
    const sent = (notifyEvent: string, eventId: string, eventType: string) => ({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_id: eventId,
      event_type: eventType,
      notify_event: notifyEvent,
      channel: 'email',
      recipient: 'p****@example.com',
      status: 'sent',
      skip_reason: null,
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.stringMatching(/Z$/),
      sent_at: expect.stringMatching(/Z$/),
    });
    expect(listed).toEqual([
      sent('shipped', eventOf('shipment.booked'), 'shipment.booked'),
      sent('out_for_delivery', eventOf('shipment.status_changed', 'out_for_delivery'), 'shipment.status_changed'),
      sent('delivered', eventOf('shipment.status_changed', 'delivered'), 'shipment.status_changed'),
    ]);
  });

  it('a courier that batches its scans: one push of picked up, hub, out for delivery and delivered still e-mails out for delivery, then delivered', async () => {
    const booked = await book({ customer: 'Asha Rao', email: 'asha.rao@example.com' });
    const awb = booked.awb_code!;
    const journey = [
      { status: 'in_transit', sub_status: 'picked_up', event_time: at(1) },
      { status: 'in_transit', sub_status: 'reached_destination_hub', event_time: at(2) },
      { status: 'out_for_delivery', event_time: at(3) },
      { status: 'delivered', event_time: at(4) },
    ];
    expect(
      await sendEvents(
        ctx,
        carrierToken,
        journey.map((e) => ({ awb, ...e })),
      ),
    ).toEqual(journey.map(() => ({ awb, accepted: true })));
    const listed = await settled(booked.shipment_id, 3);
    expect(listed.map((n) => [n.notify_event, n.status, n.event_type])).toEqual([
      ['shipped', 'sent', 'shipment.booked'],
      ['out_for_delivery', 'sent', 'shipment.status_changed'],
      ['delivered', 'sent', 'shipment.status_changed'],
    ]);
    // Each e-mail comes from its own scan's status change, dated as the courier dated the scan.
    await eventsSettled(ctx.database);
    const events = (
      await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/events?limit=100', headers: authed(apiKey) })
    ).json().data as {
      id: string;
      data: { event_time?: string };
    }[];
    const timeOf = (eventId: string) => events.find((e) => e.id === eventId)!.data.event_time;
    expect(listed.slice(1).map((n) => timeOf(n.event_id))).toEqual([at(3), at(4)]);
    const subjects = smtp
      .to('asha.rao@example.com')
      .map((m) => m.mail.subject)
      .sort();
    expect(subjects).toEqual([
      `Your Kurta Kart Pvt Ltd order ${booked.channel_order_id} has been delivered`,
      `Your Kurta Kart Pvt Ltd order ${booked.channel_order_id} has shipped`,
      `Your Kurta Kart Pvt Ltd order ${booked.channel_order_id} is out for delivery`,
    ]);
  });

  it('after a failed delivery offers the tracking page for a new day, and tells of the return; without a store the account name is the brand', async () => {
    const booked = await book({
      customer: 'Ravi Kumar',
      email: 'ravi@example.com',
      consignee: { name: 'Meena Kumar' },
      extra: { shipping_email: 'meena@example.com' },
    });
    await scan(
      booked.awb_code!,
      'in_transit',
      { status: 'ndr_raised', ndr_reason: 'customer_unavailable' },
      'rto_initiated',
      'rto_delivered',
    );
    const listed = await settled(booked.shipment_id, 3);
    expect(listed.map((n) => [n.notify_event, n.status, n.recipient])).toEqual([
      ['shipped', 'sent', 'm****@example.com'],
      ['ndr_raised', 'sent', 'm****@example.com'],
      ['rto_delivered', 'sent', 'm****@example.com'],
    ]);
    // Shipping is not billing: the consignee is told, the buyer is not.
    expect(smtp.to('ravi@example.com')).toEqual([]);
    const mails = smtp.to('meena@example.com').map((m) => m.mail);
    expect(mails).toHaveLength(3);
    const ndr = mails.find(
      (m) => m.subject === `We could not deliver your Kurta Kart Pvt Ltd order ${booked.channel_order_id}`,
    );
    const rto = mails.find(
      (m) => m.subject === `Your Kurta Kart Pvt Ltd order ${booked.channel_order_id} was returned to the seller`,
    );
    expect(ndr!.from?.value).toEqual([{ name: 'Kurta Kart Pvt Ltd', address: MAIL_FROM }]);
    expect(ndr!.text).toContain('The courier could not deliver your parcel: nobody was available to receive it.');
    expect(ndr!.text).toContain(`Choose a new delivery day: ${booked.track_url}`);
    expect(String(ndr!.html)).toContain(`<a href="${booked.track_url}"`);
    expect(String(ndr!.html)).not.toContain('<img');
    expect(ndr!.replyTo).toBeUndefined();
    expect(rto!.text).toContain('has reached the seller again');
  });

  it('records as skipped, with why, an order without an e-mail address and a moment the store turned off', async () => {
    const quiet = await post(ctx, apiKey, STORES, { store_name: 'quiet-store', notify_events: ['delivered'] });
    expect(quiet.statusCode, quiet.body).toBe(201);
    const turnedOff = await book({ storeName: 'quiet-store', email: 'quiet@example.com' });
    const noAddress = await book({ drop: ['billing_email'] });
    expect((await settled(turnedOff.shipment_id, 1))[0]).toMatchObject({
      notify_event: 'shipped',
      status: 'skipped',
      skip_reason: 'event_turned_off',
      recipient: 'q****@example.com',
      attempts: 0,
      sent_at: null,
    });
    expect((await settled(noAddress.shipment_id, 1))[0]).toMatchObject({
      status: 'skipped',
      skip_reason: 'no_email_address',
      recipient: null,
      attempts: 0,
    });
    expect(smtp.to('quiet@example.com')).toEqual([]);
  });

  it('retries a refused e-mail (4xx, then 5xx) with backoff, and marks it failed after the last attempt', async () => {
    smtp.refuse(451, 554);
    const retried = await book({ email: 'retry@example.com' });
    const [sent] = await settled(retried.shipment_id, 1);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 3,
      last_error: expect.stringContaining('Message rejected for the test'),
      next_attempt_at: null,
    });
    expect(smtp.to('retry@example.com')).toHaveLength(1);

    smtp.refuse(451, 451, 451);
    const failing = await book({ email: 'never@example.com' });
    const [failed] = await settled(failing.shipment_id, 1);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: expect.stringMatching(/^451 4\.7\.1 Try again later/),
      sent_at: null,
      next_attempt_at: null,
    });
    expect(smtp.to('never@example.com')).toEqual([]);
  });

  it('sends each e-mail once across a restart, even when the event log is read again from the start', async () => {
    const booked = await book({ email: 'once@example.com' });
    await settled(booked.shipment_id, 1);
    const before = smtp.received.length;
    const listed = await notificationsOf(booked.shipment_id);

    await ctx.app.close();
    ctx = await createTestApp({ ...fast(smtp.url), database: ctx.database });
    // As if the cursor had never moved: every event is handed to the consumer again.
    await ctx.database.db.execute(
      sql`update event_consumers set after_txid = '0'::xid8, after_position = 0 where name = 'notifications'`,
    );
    const tasks = notificationTasks(
      ctx.database.db,
      {
        smtpUrl: smtp.url,
        mailFrom: MAIL_FROM,
        retryDelaysSeconds: [0.05],
        timeoutMs: 5000,
        leaseMarginMs: defaultSettings().workers.leaseMarginMs,
      },
      PUBLIC_BASE_URL,
    );
    for (let round = 0; round < 3; round++) for (const task of tasks) await task.run(new AbortController().signal);
    await until(async () => {
      const [row] = await queryRows<{ caught_up: boolean }>(
        ctx.database.db,
        sql`select (select after_position from event_consumers where name = 'notifications') >= (select max(position) from events) as caught_up`,
      );
      return row?.caught_up === true;
    }, 'the log to be read again');

    expect(smtp.received.length).toBe(before);
    expect(await notificationsOf(booked.shipment_id)).toEqual(listed);
  });

  it('lists only the account’s own shipments: another account, an unknown id and a malformed one are 404', async () => {
    const booked = await book({ email: 'mine@example.com' });
    await settled(booked.shipment_id, 1);
    const get = (id: string, key = otherKey) =>
      ctx.app.inject({ method: 'GET', url: `/custom/api/v1/shipments/${id}/notifications`, headers: authed(key) });
    for (const [id, key] of [
      [booked.shipment_id, otherKey],
      [UNKNOWN_ID, apiKey],
      ['not-a-shipment-id', apiKey],
    ] as const) {
      const response = await get(id, key);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({
        code: 'shipment_not_found',
        message: 'Shipment not found',
        errors: ['Shipment not found'],
      });
    }
    const nul = await get('abc%00def', apiKey);
    expect(nul.statusCode).toBe(400);
    expect(nul.json().details[0].field).toBe('id');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/custom/api/v1/shipments/${booked.shipment_id}/notifications` }))
        .statusCode,
    ).toBe(401);
  });

  it('without SMTP_URL keeps every e-mail in the outbox and sends nothing', async () => {
    await ctx.app.close();
    ctx = await createTestApp({ ...fast(undefined), database: ctx.database });
    const before = smtp.received.length;
    const booked = await book({ email: 'nosmtp@example.com' });
    expect((await settled(booked.shipment_id, 1))[0]).toMatchObject({
      status: 'outbox',
      skip_reason: null,
      recipient: 'n****@example.com',
      attempts: 1,
      sent_at: null,
    });
    expect(smtp.received.length).toBe(before);
  });
});
