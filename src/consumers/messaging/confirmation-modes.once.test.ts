import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { pdfText } from '../../../test/kit/labels.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';

// The `by_risk` confirmation mode, and the hold keeping unconfirmed shipments off a pickup
// (decision 92). No channel is enabled: a confirmation asked is kept without a message.

const POLICY = `${V1}/messaging/confirmation-policy`;
const PICKUPS = `${V1}/pickups`;

let ctx: TestContext;

const put = (apiKey: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload });
const get = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
const confirmationOf = async (apiKey: string, booked: Booked) =>
  (await get(apiKey, `${SHIPMENTS}/${booked.shipment_id}/confirmation`)).json().data.confirmation;
const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
  const r = await response;
  expect(r.statusCode, r.body).toBe(200);
};
const riskOf = async (apiKey: string, booked: Booked) =>
  (await post(ctx, apiKey, SHIPMENTS, { search: booked.awb_code })).json().data[0].attributes as {
    rto_risk: string;
    rto_risk_score: number;
  };

beforeAll(async () => {
  ctx = await createTestApp({
    settings: { workers: { pollIntervalMs: 50 }, messaging: { retryDelaysSeconds: [0.05], timeoutMs: 5000 } },
    delivery: ['messaging'],
  });
});
afterAll(async () => {
  await ctx.close();
});

describe('by_risk: only COD orders at the configured risk levels are asked', () => {
  it('with the default levels (medium, high) a medium-risk COD order is asked and a low-risk one is not', async () => {
    const { apiKey } = await ctx.createAccount('Risky Store');
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await ok(put(apiKey, POLICY, { mode: 'by_risk', hold_unconfirmed: true }));
    expect((await get(apiKey, POLICY)).json().data).toMatchObject({ mode: 'by_risk', risk_levels: ['medium', 'high'] });
    const low = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
    const medium = await book(ctx, apiKey, warehouseId, { cod: true, value: 3500 });
    expect(await riskOf(apiKey, low)).toMatchObject({ rto_risk: 'low', rto_risk_score: 20 });
    expect(await riskOf(apiKey, medium)).toMatchObject({ rto_risk: 'medium', rto_risk_score: 35 });
    // The worker reads the account's events in order: once the later order is asked, the earlier one was seen.
    await until(async () => (await confirmationOf(apiKey, medium)) != null, 'the medium-risk order to be asked');
    expect(await confirmationOf(apiKey, medium)).toMatchObject({ outcome: 'pending', held: true, channel: null });
    expect(await confirmationOf(apiKey, low)).toBeNull();
    // The low-risk order is not held: its label prints.
    expect((await get(apiKey, `${SHIPMENTS}/${low.awb_code}/label`)).statusCode).toBe(200);
  });

  it('with risk_levels [high], a medium order is not asked; a high one (by the account thresholds) is', async () => {
    const { apiKey } = await ctx.createAccount('Strict Store');
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await ok(put(apiKey, POLICY, { mode: 'by_risk', risk_levels: ['high'] }));
    const medium = await book(ctx, apiKey, warehouseId, { cod: true, value: 3500 });
    await ok(put(apiKey, `${V1}/rto-risk/thresholds`, { medium: 20, high: 35, high_value_cod: 3000 }));
    const high = await book(ctx, apiKey, warehouseId, { cod: true, value: 3500 });
    expect(await riskOf(apiKey, medium)).toMatchObject({ rto_risk: 'medium', rto_risk_score: 35 });
    expect(await riskOf(apiKey, high)).toMatchObject({ rto_risk: 'high', rto_risk_score: 35 });
    await until(async () => (await confirmationOf(apiKey, high)) != null, 'the high-risk order to be asked');
    expect(await confirmationOf(apiKey, high)).toMatchObject({ outcome: 'pending', held: false });
    expect(await confirmationOf(apiKey, medium)).toBeNull();
  });
});

describe('a pickup leaves held shipments out (decision 92)', () => {
  let apiKey: string;
  let warehouseId: string;
  let held: Booked;
  let released: Booked;

  beforeAll(async () => {
    ({ apiKey } = await ctx.createAccount('Held Store'));
    warehouseId = await createCityWarehouse(ctx, apiKey);
    await ok(put(apiKey, POLICY, { mode: 'all_cod', hold_unconfirmed: true }));
    held = await book(ctx, apiKey, warehouseId, { cod: true, value: 998, carrierId: SHADOWFAX });
    released = await book(ctx, apiKey, warehouseId, { cod: true, value: 1200, carrierId: SHADOWFAX });
    await until(async () => (await confirmationOf(apiKey, released))?.held === true, 'both orders to be held');
    // The buyer of the second confirms on the page its link carries: its hold is released.
    const token = new URL(released.track_url!).pathname.slice('/t/'.length);
    const answered = await ctx.app.inject({
      method: 'POST',
      url: `/t/${token}/confirmation?lang=en`,
      payload: { answer: 'confirm' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(await confirmationOf(apiKey, held)).toMatchObject({ outcome: 'pending', held: true });
    expect(await confirmationOf(apiKey, released)).toMatchObject({ outcome: 'confirmed', held: false });
  });

  it('naming both AWBs is a 422 naming the held one, and nothing is written', async () => {
    const refused = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [held.awb_code, released.awb_code],
    });
    expect(refused.statusCode).toBe(422);
    const why = `AWB ${held.awb_code} Shipment ${held.awb_code} is held: its buyer has not confirmed this cash-on-delivery order (the account's hold policy), so it must not be handed to the courier. It is released when the buyer confirms or pays online`;
    expect(refused.json().errors).toEqual([why]);
    expect(refused.json().details).toEqual([{ field: 'awbs[0]', message: why }]);
    expect((await get(apiKey, PICKUPS)).json().data).toEqual([]);
  });

  it("asking for the warehouse's waiting parcels manifests only the released one", async () => {
    const created = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: SHADOWFAX });
    expect(created.statusCode, created.body).toBe(201);
    const pickup = created.json().data;
    expect(pickup).toMatchObject({ parcels: 1, status: 'scheduled' });
    expect(pickup.shipments).toEqual([
      {
        awb: released.awb_code,
        order_id: released.channel_order_id,
        weight: released.applied_weight,
        cod_amount: 1200,
        status: 'pending',
        picked_up: false,
      },
    ]);
    const manifest = await get(apiKey, new URL(pickup.manifest_url).pathname);
    expect(manifest.statusCode).toBe(200);
    const text = await pdfText(manifest.rawPayload);
    expect(text).toContain(released.awb_code!);
    expect(text).not.toContain(held.awb_code!);
    // Only the held parcel left: nothing waits for a pickup.
    const none = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: SHADOWFAX });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual([
      `No parcel of this warehouse booked with ${SHADOWFAX} is waiting for a pickup`,
    ]);
  });
});
