import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { EKART, ekartSettings, ratesWith } from '../../../test/kit/couriers.js';
import { ASSIGN, FORWARD_ORDER, post, SHIPMENTS } from '../../../test/kit/http.js';
import { codOrderBody } from '../../../test/kit/orders.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { type EkartSimulator, startEkartSimulator } from '../../demo/simulators/ekart-simulator.js';

// The buyer's other phone from the address form (docs/rto.md: Update your address) reaches a
// courier whose booking takes one: Ekart's consignee_alternate_phone, for an order booked after.

const CREATE = '/api/v1/package/create';
let sim: EkartSimulator;
let ctx: TestContext;

beforeAll(async () => {
  sim = await startEkartSimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [EKART]: 'ekart' }),
    settings: { couriers: ekartSettings(sim.baseUrl, { timeoutMs: 5000, pollSeconds: 600 }) },
  });
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

/** An order without a courier yet, and the token of its tracking link (the address message carries it). */
async function pendingOrder(apiKey: string, warehouseId: string) {
  const created = await post(
    ctx,
    apiKey,
    FORWARD_ORDER,
    codOrderBody(warehouseId, { billing_address: 'Asha Sharma Colaba' }),
  );
  expect(created.statusCode, created.body).toBe(200);
  const shipmentId: string = created.json().payload.shipment_id;
  const [row] = await queryRows<{ track_token: string }>(
    ctx.database.db,
    sql`select track_token from shipments where id = ${shipmentId}`,
  );
  return { shipmentId, token: row!.track_token };
}
async function sendForm(token: string, fields: Record<string, string>) {
  const page = await ctx.app.inject({ method: 'GET', url: `/t/${token}/address?lang=en` });
  expect(page.statusCode).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const saved = await ctx.app.inject({
    method: 'POST',
    url: `/t/${token}/address?lang=en`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'same-origin' },
    payload: new URLSearchParams({ csrf, ...fields }).toString(),
  });
  expect(saved.statusCode, saved.body).toBe(303);
}
const GOOD = {
  address: '14, Shivaji Marg',
  landmark: 'Near Colaba Market',
  pincode: '400001',
  city: 'Mumbai',
  state: 'Maharashtra',
};

describe("the buyer's other phone at the courier", () => {
  it("Ekart's booking carries it as consignee_alternate_phone; without one, the buyer's phone as before", async () => {
    const { apiKey } = await ctx.createAccount('Kurta Kart');
    const warehouseId = await createWarehouse(ctx, apiKey);
    const withPhone = await pendingOrder(apiKey, warehouseId);
    await sendForm(withPhone.token, { ...GOOD, alternate_phone: '98765 43210' });
    const without = await pendingOrder(apiKey, warehouseId);
    await sendForm(without.token, { ...GOOD, alternate_phone: '' });

    for (const { shipmentId } of [withPhone, without]) {
      const assigned = await post(ctx, apiKey, ASSIGN, { shipment_id: shipmentId, carrier_id: EKART });
      expect(assigned.statusCode, assigned.body).toBe(200);
    }
    const [first, second] = sim.callsTo(CREATE).map((call) => JSON.parse(call.body));
    expect(first).toMatchObject({ consignee_alternate_phone: '9876543210' });
    // Booked after the form: with the buyer's new address too.
    expect(JSON.stringify(first)).toContain('14, Shivaji Marg');
    expect(second).toMatchObject({ consignee_alternate_phone: '9123456780' });
    const listed = (await post(ctx, apiKey, SHIPMENTS, {})).json().data as {
      id: string;
      attributes: { shipping_address: { alternate_phone: string | null } };
    }[];
    expect(listed.find((s) => s.id === withPhone.shipmentId)!.attributes.shipping_address.alternate_phone).toBe(
      '+919876543210',
    );
    expect(listed.find((s) => s.id === without.shipmentId)!.attributes.shipping_address.alternate_phone).toBeNull();
  });
});
