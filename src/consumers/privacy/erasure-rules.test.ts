import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin, authed, post, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// A buyer's erasure on request (issue 52), its rules: who may ask, what names a buyer, what is
// refused, and that it changes the buyer's copies and nothing else, row for row. Where every
// feature's copies go is erasure.test.ts.

const ERASE = `${V1}/buyer-erasures`;
const E = '[erased]';
let ctx: TestContext;
let shadowfax: string;
beforeAll(async () => {
  ctx = await createTestApp();
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

let buyerCounter = 0;
/** A buyer of the account's own: phone, e-mail and names no other test uses. */
function buyer() {
  const n = ++buyerCounter;
  const phone = `98${String(process.pid % 100_000).padStart(5, '0')}${String(n).padStart(3, '0')}`;
  return {
    billing_customer_name: `Zoravar${'abcdefghij'[n % 10]}`,
    billing_last_name: 'Quillfeather',
    billing_address: `${40 + n} Peacock Lane, Block Q`,
    billing_email: `zoravar.${process.pid}.${n}@buyer.example`,
    billing_phone: phone,
  };
}

async function bookFor(m: { apiKey: string; warehouseId: string }, who: Record<string, string>, delivered = true) {
  const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { ...who, payment_method: 'PREPAID' }));
  if (delivered) {
    await sendEvents(ctx, shadowfax, [
      { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(1) },
      { awb: booked.awb_code!, status: 'delivered', event_time: at(2) },
    ]);
  }
  return booked;
}

/** An export archive's bytes as text: tar headers and the files' lines, enough to look for a value. */
const readArchiveText = (file: string) => gunzipSync(readFileSync(file)).toString('utf8');

const orderRow = async (id: string) =>
  (await queryRows<Record<string, unknown>>(ctx.database.db, sql`select * from orders where id = ${id}`))[0]!;
const shipmentRow = async (id: string) =>
  (await queryRows<Record<string, unknown>>(ctx.database.db, sql`select * from shipments where id = ${id}`))[0]!;

describe('POST /buyer-erasures: what it refuses', () => {
  it('answers 400 naming every bad field: nobody named, a phone that is none, an e-mail without @, a field it does not take', async () => {
    const m = await merchant(ctx);
    const none = await post(ctx, m.apiKey, ERASE, {});
    expect([none.statusCode, none.json().details]).toEqual([
      400,
      [{ field: 'body', message: 'body must name the buyer: at least one of phone, email and order_id' }],
    ]);
    const badPhone = await post(ctx, m.apiKey, ERASE, { phone: '12345' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().details.map((d: { field: string }) => d.field)).toEqual(['phone']);
    const badEmail = await post(ctx, m.apiKey, ERASE, { email: 'not-an-address' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().details.map((d: { field: string }) => d.field)).toEqual(['email']);
    // A field it does not take is ignored and named, among the errors when the request fails.
    const unknown = await post(ctx, m.apiKey, ERASE, { phone: '12345', nmae: 'Asha' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      { field: 'phone', message: 'phone must be a valid Indian phone number (10 digits)' },
      { field: 'nmae', message: 'nmae is not a field of this request and was ignored' },
    ]);
  });

  it('answers 404 buyer_not_found when nothing of the account names the buyer, even what another account holds', async () => {
    const mine = await merchant(ctx);
    const theirs = await merchant(ctx);
    const who = buyer();
    await bookFor(theirs, who);
    const answer = await post(ctx, mine.apiKey, ERASE, { phone: who.billing_phone, email: who.billing_email });
    expect([answer.statusCode, answer.json().code]).toEqual([404, 'buyer_not_found']);
  });

  it('answers 409 naming each AWB while a parcel is on its way, and changes nothing; a lost parcel holds nothing back', async () => {
    const m = await merchant(ctx);
    const who = buyer();
    const booked = await bookFor(m, who, false);
    const before = await orderRow(booked.order_id);
    const answer = await post(ctx, m.apiKey, ERASE, { phone: `+91 ${who.billing_phone}` });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({
      code: 'buyer_parcels_on_the_way',
      details: [{ field: 'awb', message: `${booked.awb_code} is on its way; its courier needs the address` }],
    });
    expect(await orderRow(booked.order_id)).toEqual(before);

    // Once the courier has lost it, nobody needs the address any more: the erasure goes ahead.
    await sendEvents(ctx, shadowfax, [
      { awb: booked.awb_code!, status: 'others', sub_status: 'lost', event_time: at(1) },
    ]);
    const erased = await post(ctx, m.apiKey, ERASE, { phone: who.billing_phone });
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await orderRow(booked.order_id)).billing_address).toBe(E);
  });

  it('answers 403 to a credential without buyers:erase', async () => {
    const m = await merchant(ctx);
    const key = (await post(ctx, m.apiKey, `${V1}/api-keys`, { scopes: ['shipments:read', 'buyers:read'] })).json().data
      .api_key;
    const answer = await post(ctx, key, ERASE, { phone: '9123456780' });
    expect([answer.statusCode, answer.json().message]).toEqual([
      403,
      'This credential lacks the permission buyers:erase',
    ]);
  });
});

describe('POST /buyer-erasures: what it changes', () => {
  it("replaces the buyer's copies in their orders and search text, keeps where parcels went, and leaves every other row as it was", async () => {
    const m = await merchant(ctx);
    const who = buyer();
    const first = await bookFor(m, who);
    // The same buyer again, named by e-mail only on this order (another phone), and someone else.
    const second = await bookFor(m, { ...who, billing_phone: '9000000001' });
    const someoneElse = await bookFor(m, buyer());
    const otherAccount = await merchant(ctx);
    const sameBuyerElsewhere = await bookFor(otherAccount, who);
    const untouched = [
      await orderRow(someoneElse.order_id),
      await shipmentRow(someoneElse.shipment_id),
      await orderRow(sameBuyerElsewhere.order_id),
      await shipmentRow(sameBuyerElsewhere.shipment_id),
    ];
    const before = await orderRow(first.order_id);

    const answer = await post(ctx, m.apiKey, ERASE, { email: who.billing_email.toUpperCase() });
    expect(answer.statusCode).toBe(200);
    const { data } = answer.json();
    expect(data.found).toEqual({ orders: 2, shipments: 2, returns: 0, return_requests: 0, exchanges: 0, refunds: 0 });
    expect(data.erased).toMatchObject({ orders: 2, shipments: 2 });
    expect(data.erased.events).toBeGreaterThanOrEqual(4);
    expect(data.deleted).toEqual({ rto_history: 2, return_request_photos: 0, account_exports: 0 });

    const after = await orderRow(first.order_id);
    expect(after).toEqual({
      ...before,
      billing_name: E,
      billing_last_name: E,
      billing_address: E,
      billing_email: E,
      billing_phone: E,
      shipping_name: E,
      shipping_last_name: E,
      shipping_address: E,
      shipping_email: E,
      shipping_phone: E,
    });
    expect([after.shipping_city, after.shipping_pincode, after.shipping_state]).toEqual([
      'Mumbai',
      '400001',
      'Maharashtra',
    ]);
    const searchText = (await shipmentRow(second.shipment_id)).search_text as string;
    // The full name as one (a copy of it whole was found too), the phone, the e-mail; the city and pincode stay searchable.
    expect(searchText).toBe(
      `${second.awb_code!.toLowerCase()} ${second.channel_order_id.toLowerCase()} ${second.order_id} ${E} ${E} ${E} mumbai 400001`,
    );

    expect([
      await orderRow(someoneElse.order_id),
      await shipmentRow(someoneElse.shipment_id),
      await orderRow(sameBuyerElsewhere.order_id),
      await shipmentRow(sameBuyerElsewhere.shipment_id),
    ]).toEqual(untouched);
  });

  it('is written in the audit log as an erasure by whom, without the buyer', async () => {
    const m = await merchant(ctx);
    const who = buyer();
    const booked = await bookFor(m, who);
    const answer = await post(ctx, m.apiKey, ERASE, { order_id: booked.channel_order_id });
    expect(answer.statusCode).toBe(200);
    const [entry] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select actor_type, action, object_type, object_id, changes from audit_log
          where account_id = ${m.id} and action = 'buyer.erased'`,
    );
    expect(entry).toEqual({
      actor_type: 'api_key',
      action: 'buyer.erased',
      object_type: 'buyer_erasure',
      object_id: answer.json().data.erasure_id,
      changes: {
        named_by: ['orderId'],
        found: answer.json().data.found,
        erased: answer.json().data.erased,
        deleted: answer.json().data.deleted,
      },
    });
    for (const value of Object.values(who)) expect(JSON.stringify(entry)).not.toContain(value);
  });

  it("the operator's route erases for an account, as the CLI's buyers erase does", async () => {
    const m = await merchant(ctx);
    const who = buyer();
    const booked = await bookFor(m, who);
    const answer = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${m.id}/buyer-erasures`,
      headers: admin,
      payload: { phone: `0${who.billing_phone}` },
    });
    expect([answer.statusCode, answer.json().data.found.orders]).toEqual([200, 1]);
    expect((await orderRow(booked.order_id)).billing_phone).toBe(E);
    const [entry] = await queryRows<{ actor_type: string }>(
      ctx.database.db,
      sql`select actor_type from audit_log where account_id = ${m.id} and action = 'buyer.erased'`,
    );
    expect(entry).toEqual({ actor_type: 'operator' });
  });

  it("withdraws the account's export archives that may hold the buyer; older ones and another account's stay", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const exportOf = async (apiKey: string) => {
      const started = await post(ctx, apiKey, `${V1}/account/exports`, {});
      expect(started.statusCode, started.body).toBe(202);
      await ctx.app.accountExports.runPending();
      return started.json().data.id as string;
    };
    const older = await exportOf(m.apiKey);
    ctx.clock.advance(1000);
    const who = buyer();
    await bookFor(m, who);
    await bookFor(other, who);
    const mine = await exportOf(m.apiKey);
    const theirs = await exportOf(other.apiKey);
    const archive = (id: string) => path.join(ctx.dataDir, 'exports', `${id}.tar.gz`);
    expect([older, mine, theirs].map((id) => existsSync(archive(id)))).toEqual([true, true, true]);
    expect(readArchiveText(archive(mine))).toContain(who.billing_email);
    expect(readArchiveText(archive(older))).not.toContain(who.billing_email);

    const answer = await post(ctx, m.apiKey, ERASE, { phone: who.billing_phone });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.deleted).toEqual({ rto_history: 1, return_request_photos: 0, account_exports: 1 });
    expect([older, mine, theirs].map((id) => existsSync(archive(id)))).toEqual([true, false, true]);
    const status = async (apiKey: string, id: string) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${V1}/account/exports/${id}`,
        headers: authed(apiKey),
      });
      return response.statusCode === 200 ? response.json().data.status : response.statusCode;
    };
    expect([await status(m.apiKey, older), await status(m.apiKey, mine), await status(other.apiKey, theirs)]).toEqual([
      'ready',
      404,
      'ready',
    ]);
  });
});
