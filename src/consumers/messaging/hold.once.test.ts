import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';
import { and, eq, not } from 'drizzle-orm';
import { shipmentHeld } from '../../shipment-records/hold.js';
import { shipments } from '../../base/db/schema.js';

// The hold (decision 92): an unconfirmed COD order under the hold policy gets no label until confirmed.

let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let accountId: string;
let held: Booked;
let prepaid: Booked;

const get = (url: string, key = apiKey) => ctx.app.inject({ method: 'GET', url, headers: authed(key) });
const confirmationOf = async (shipmentId: string) => (await get(`${SHIPMENTS}/${shipmentId}/confirmation`)).json().data;
const heldMessage = (awb: string) =>
  `Shipment ${awb} is held: its buyer has not confirmed this cash-on-delivery order (the account's hold policy), so it must not be handed to the courier. It is released when the buyer confirms or pays online`;

beforeAll(async () => {
  ctx = await createTestApp({
    settings: { workers: { pollIntervalMs: 50 }, messaging: { retryDelaysSeconds: [0.05], timeoutMs: 5000 } },
    delivery: ['messaging'],
  });
  const account = await ctx.createAccount('Chai Co');
  apiKey = account.apiKey;
  accountId = account.id;
  otherKey = (await ctx.createAccount()).apiKey;
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  // No channel enabled: the confirmation is kept without a message, and held.
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${V1}/messaging/confirmation-policy`,
    headers: authed(apiKey),
    payload: { mode: 'all_cod', hold_unconfirmed: true },
  });
  expect(policy.statusCode, policy.body).toBe(200);
  prepaid = await book(ctx, apiKey, warehouseId, { cod: false });
  held = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
  await until(
    async () => (await confirmationOf(held.shipment_id))?.confirmation?.held === true,
    'the confirmation to hold the order',
  );
});
afterAll(async () => {
  await ctx.close();
});

describe('a held shipment is not handed to the courier', () => {
  it('the single-label route answers 409 naming the hold, as JSON link and as PDF', async () => {
    for (const url of [`${SHIPMENTS}/${held.awb_code}/label`, `${SHIPMENTS}/${held.shipment_id}/label?format=pdf`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(409);
      expect(response.json().message).toBe(heldMessage(held.awb_code!));
    }
    expect((await get(`${SHIPMENTS}/${prepaid.awb_code}/label`)).statusCode).toBe(200);
  });

  it('the signed label_url the booking answered gives no label either (409)', async () => {
    const link = new URL((held as Booked & { label_url: string }).label_url);
    const response = await ctx.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(heldMessage(held.awb_code!));
  });

  it('bulk printing leaves the held shipment out and names it; only held AWBs is a 409', async () => {
    const both = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/labels`,
      headers: authed(apiKey),
      payload: { awbs: [held.awb_code, prepaid.awb_code] },
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.headers['dakiya-held-awbs']).toBe(held.awb_code);
    const only = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/labels`,
      headers: authed(apiKey),
      payload: { awbs: [held.awb_code] },
    });
    expect(only.statusCode).toBe(409);
    expect(only.json().errors).toEqual([heldMessage(held.awb_code!)]);
  });

  it('the shipmentHeld predicate selects exactly the held shipments of the account (for pickup requests)', async () => {
    const rows = await ctx.database.db
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.accountId, accountId), not(shipmentHeld)));
    expect(rows.map((r) => r.id)).toEqual([prepaid.shipment_id]);
    const heldRows = await ctx.database.db
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.accountId, accountId), shipmentHeld));
    expect(heldRows.map((r) => r.id)).toEqual([held.shipment_id]);
  });

  it('another account neither sees the shipment nor learns of its hold (404)', async () => {
    expect((await get(`${SHIPMENTS}/${held.awb_code}/label`, otherKey)).statusCode).toBe(404);
  });

  it('confirming releases the hold, records it in the event, and the label prints', async () => {
    const token = new URL(held.track_url!).pathname.slice('/t/'.length);
    const answered = await ctx.app.inject({
      method: 'POST',
      url: `/t/${token}/confirmation?lang=en`,
      payload: { answer: 'confirm' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await confirmationOf(held.shipment_id)).confirmation).toMatchObject({ outcome: 'confirmed', held: false });
    const confirmed = async () =>
      ((await get(`${V1}/events?limit=100`)).json().data as { type: string; data: Record<string, unknown> }[]).filter(
        (e) => e.type === 'shipment.confirmation_confirmed' && JSON.stringify(e.data).includes(held.shipment_id),
      );
    await until(async () => (await confirmed()).length === 1, 'the confirmation event');
    expect((await confirmed())[0]!.data).toMatchObject({
      hold_released: true,
      confirmation: { outcome: 'confirmed', held: false },
    });
    expect((await get(`${SHIPMENTS}/${held.awb_code}/label`)).statusCode).toBe(200);
  });
});
