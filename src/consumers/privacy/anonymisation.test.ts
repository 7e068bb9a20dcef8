import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, post, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Anonymisation of finished shipments' buyers (issue 52): BUYER_DATA_ANONYMISE_DAYS (180) after a
// shipment last changed in a final status, or the account's own period, its buyer's copies are
// scrubbed as an erasure scrubs them, that order's alone. Each case has an app of its own, since
// the job runs over every account and the test clock moves.

const DAY = 86_400_000;
const E = '[erased]';
const SETTINGS = `${V1}/privacy-settings`;

async function app() {
  const ctx = await createTestApp();
  const courier = await issueCarrierToken(ctx, SHADOWFAX);
  const m = await merchant(ctx);
  let n = 0;
  /** A prepaid order of the buyer with phone `phone`, booked now, and delivered at once unless `open`. */
  const book = async (phone: string, open = false) => {
    n += 1;
    const booked = await orchestrate(
      ctx,
      m.apiKey,
      orderBody(m.warehouseId, {
        billing_customer_name: 'Vellumina',
        billing_last_name: `Orchardley${'abcdefgh'[n]}`,
        billing_address: `${n} Starling Court`,
        billing_email: `vellumina.${n}@buyer.example`,
        billing_phone: phone,
      }),
    );
    if (!open) {
      const now = ctx.clock.now().getTime();
      await sendEvents(ctx, courier, [
        {
          awb: booked.awb_code!,
          status: 'in_transit',
          sub_status: 'picked_up',
          event_time: new Date(now - 60_000).toISOString(),
        },
        { awb: booked.awb_code!, status: 'delivered', event_time: new Date(now + 120_000).toISOString() },
      ]);
    }
    return booked;
  };
  const order = async (id: string) =>
    (await queryRows<Record<string, unknown>>(ctx.database.db, sql`select * from orders where id = ${id}`))[0]!;
  const shipment = async (id: string) =>
    (await queryRows<Record<string, unknown>>(ctx.database.db, sql`select * from shipments where id = ${id}`))[0]!;
  return { ctx, m, book, order, shipment };
}

describe('the anonymisation job', () => {
  let setup: Awaited<ReturnType<typeof app>>;
  beforeAll(async () => {
    setup = await app();
  });
  afterAll(async () => {
    await setup.ctx.close();
  });

  it("scrubs a shipment's buyer 180 days after it finished, that order alone, and takes it once", async () => {
    const { ctx, book, order, shipment } = setup;
    const old = await book('9811100001');
    ctx.clock.advance(179 * DAY);
    // The same buyer again, and a parcel still on its way.
    const recent = await book('9811100001');
    const onItsWay = await book('9811100002', true);
    const recentBefore = [await order(recent.order_id), await shipment(recent.shipment_id)];
    const onItsWayBefore = [await order(onItsWay.order_id), await shipment(onItsWay.shipment_id)];

    // 179 days: nothing is due.
    expect(await ctx.app.anonymisation.anonymiseDue()).toEqual({ orders: 0, returns: 0, left: 0, erased: {} });
    ctx.clock.advance(1 * DAY + 1000);
    const report = await ctx.app.anonymisation.anonymiseDue();
    expect(report).toMatchObject({ orders: 1, returns: 0, left: 0, erased: { orders: 1, shipments: 1 } });
    expect(report.erased.events).toBeGreaterThanOrEqual(2);

    const scrubbed = await order(old.order_id);
    expect([
      scrubbed.billing_name,
      scrubbed.billing_last_name,
      scrubbed.billing_address,
      scrubbed.billing_email,
    ]).toEqual([E, E, E, E]);
    expect([
      scrubbed.billing_phone,
      scrubbed.shipping_phone,
      scrubbed.shipping_city,
      scrubbed.shipping_pincode,
    ]).toEqual([E, E, 'Mumbai', '400001']);
    expect(new Date((await shipment(old.shipment_id)).buyer_anonymised_at as string)).toEqual(ctx.clock.now());
    const events = await queryRows<{ data: string }>(
      ctx.database.db,
      sql`select data::text as data from events where subject_id = ${old.shipment_id}`,
    );
    for (const { data } of events) expect(data).not.toMatch(/Vellumina|9811100001|Starling/);

    // The buyer's newer order, a parcel on its way, and the phone's RTO history stay as they were.
    expect([await order(recent.order_id), await shipment(recent.shipment_id)]).toEqual(recentBefore);
    expect([await order(onItsWay.order_id), await shipment(onItsWay.shipment_id)]).toEqual(onItsWayBefore);
    const [history] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from rto_history where kind = 'phone' and key = '9811100001'`,
    );
    expect(history).toEqual({ n: 1 });

    expect(await ctx.app.anonymisation.anonymiseDue()).toEqual({ orders: 0, returns: 0, left: 0, erased: {} });
  });
});

describe('the anonymisation job and lost parcels', () => {
  let setup: Awaited<ReturnType<typeof app>>;
  beforeAll(async () => {
    setup = await app();
  });
  afterAll(async () => {
    await setup.ctx.close();
  });

  it("scrubs a lost or destroyed parcel's buyer 180 days after the courier said so; a held parcel's stays", async () => {
    const { ctx, book, order, shipment } = setup;
    const courier = await issueCarrierToken(ctx, SHADOWFAX);
    const parcels = [];
    for (const [phone, sub_status] of [
      ['9811100011', 'lost'],
      ['9811100012', 'destroyed'],
      ['9811100013', 'on_hold'],
    ] as const) {
      const booked = await book(phone, true);
      const [result] = await sendEvents(ctx, courier, [
        { awb: booked.awb_code!, status: 'others', sub_status, event_time: ctx.clock.now().toISOString() },
      ]);
      expect(result, JSON.stringify(result)).toMatchObject({ accepted: true });
      parcels.push(booked);
    }
    const [lost, destroyed, held] = parcels as [
      (typeof parcels)[number],
      (typeof parcels)[number],
      (typeof parcels)[number],
    ];
    const heldBefore = [await order(held.order_id), await shipment(held.shipment_id)];

    ctx.clock.advance(179 * DAY);
    expect(await ctx.app.anonymisation.anonymiseDue()).toEqual({ orders: 0, returns: 0, left: 0, erased: {} });
    ctx.clock.advance(1 * DAY + 1000);
    expect(await ctx.app.anonymisation.anonymiseDue()).toMatchObject({
      orders: 2,
      returns: 0,
      left: 0,
      erased: { orders: 2, shipments: 2 },
    });
    for (const { order_id } of [lost, destroyed]) {
      const scrubbed = await order(order_id);
      expect([scrubbed.billing_name, scrubbed.billing_address, scrubbed.billing_email, scrubbed.billing_phone]).toEqual(
        [E, E, E, E],
      );
    }
    expect([await order(held.order_id), await shipment(held.shipment_id)]).toEqual(heldBefore);
  });
});

describe('the anonymisation job and returns', () => {
  let setup: Awaited<ReturnType<typeof app>>;
  beforeAll(async () => {
    setup = await app();
  });
  afterAll(async () => {
    await setup.ctx.close();
  });

  it('scrubs a return of no forward shipment 180 days after it came back, with the pickup address its courier had', async () => {
    const { ctx, m } = setup;
    const booked = await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const courier = await issueCarrierToken(ctx, SHADOWFAX);
    const now = ctx.clock.now().getTime();
    await sendEvents(ctx, courier, [
      { awb: booked.awb_code!, status: 'return_picked_up', event_time: new Date(now + 60_000).toISOString() },
      { awb: booked.awb_code!, status: 'return_delivered', event_time: new Date(now + 120_000).toISOString() },
    ]);
    ctx.clock.advance(180 * DAY + 1000);
    const report = await ctx.app.anonymisation.anonymiseDue();
    expect(report).toMatchObject({ orders: 0, returns: 1, left: 0, erased: { returns: 1 } });
    const [row] = await queryRows<{ pickup: Record<string, unknown>; shipping: Record<string, unknown> }>(
      ctx.database.db,
      sql`select pickup, shipping from returns where id = ${booked.return_id}`,
    );
    expect(row!.pickup).toMatchObject({
      name: E,
      last_name: E,
      address: E,
      phone: E,
      city: 'Mumbai',
      pincode: '400001',
    });
    // The warehouse it went back to is the merchant's, not the buyer's.
    expect(row!.shipping.name).not.toBe(E);
  });
});

describe("an account's own period", () => {
  let setup: Awaited<ReturnType<typeof app>>;
  beforeAll(async () => {
    setup = await app();
  });
  afterAll(async () => {
    await setup.ctx.close();
  });

  it('reads the default, refuses a period under 30 days naming the field, and is audited when set', async () => {
    const { ctx, m } = setup;
    const read = await ctx.app.inject({ method: 'GET', url: SETTINGS, headers: { authorization: m.apiKey } });
    expect(read.json()).toEqual({ data: { anonymise_buyers_after_days: 180, default: true } });
    const tooShort = await ctx.app.inject({
      method: 'PUT',
      url: SETTINGS,
      headers: { authorization: m.apiKey },
      payload: { anonymise_buyers_after_days: 7 },
    });
    expect([tooShort.statusCode, tooShort.json().details]).toEqual([
      400,
      [
        {
          field: 'anonymise_buyers_after_days',
          message: 'anonymise_buyers_after_days must be a whole number of days from 30 to 3650',
        },
      ],
    ]);
    const set = await ctx.app.inject({
      method: 'PUT',
      url: SETTINGS,
      headers: { authorization: m.apiKey },
      payload: { anonymise_buyers_after_days: 30 },
    });
    expect(set.json()).toEqual({ data: { anonymise_buyers_after_days: 30, default: false } });
    const [entry] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select action, changes from audit_log where account_id = ${m.id} and action = 'privacy_settings.set'`,
    );
    expect(entry).toEqual({ action: 'privacy_settings.set', changes: { anonymise_buyers_after_days: 30 } });
  });

  it('anonymises by that period, and the operator runs the job on demand', async () => {
    const { ctx, book, order } = setup;
    const booked = await book('9811100003');
    ctx.clock.advance(30 * DAY + 1000);
    const run = await ctx.app.inject({ method: 'POST', url: '/admin/v1/privacy/anonymise', headers: admin });
    expect(run.statusCode).toBe(200);
    expect(run.json().data).toMatchObject({ orders: 1, returns: 0, left: 0 });
    expect((await order(booked.order_id)).billing_name).toBe(E);
    // What anonymisation keeps of the buyer is their phone's RTO history (it serves their next
    // orders): a request to erase them removes it, and finds nothing else.
    const erasure = await post(ctx, setup.m.apiKey, `${V1}/buyer-erasures`, { phone: '9811100003' });
    expect([erasure.statusCode, erasure.json().data]).toEqual([
      200,
      {
        erasure_id: expect.any(String),
        found: { orders: 0, shipments: 0, returns: 0, return_requests: 0, exchanges: 0, refunds: 0 },
        erased: {},
        deleted: { rto_history: 1, return_request_photos: 0, account_exports: 0 },
      },
    ]);
    const again = await post(ctx, setup.m.apiKey, `${V1}/buyer-erasures`, { phone: '9811100003' });
    expect([again.statusCode, again.json().code]).toEqual([404, 'buyer_not_found']);
  });
});
