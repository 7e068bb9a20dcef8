import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { createTestApp, type TestContext } from './app.js';
import { SHADOWFAX } from './kit/couriers.js';
import { CANCEL, ORDER_TRACKING, post, UUID, V1 } from './kit/http.js';
import { boxedOrderBody, orchestrate } from './kit/orders.js';
import { createStore } from './kit/stores.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createWarehouse } from './kit/warehouses.js';

// A multi-piece shipment's box AWB (docs/paperwork.md, "A box's own AWB"), on both engines:
// order tracking, the store's tracking page, a credential limited to stores, NDR actions and
// cancel-order each take box 2's AWB as whoever holds box 2 types it; another account's box AWB
// stays unknown.

let ctx: TestContext;
let owner: { apiKey: string; warehouseId: string };
let stranger: { apiKey: string; warehouseId: string };
let shoes: string;
let token: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const account = await ctx.createAccount('Box AWBs');
  owner = { apiKey: account.apiKey, warehouseId: await createWarehouse(ctx, account.apiKey) };
  shoes = (await createStore(ctx, owner.apiKey, { store_name: 'box-shoes', brand_name: 'Box Shoes' })).id;
  await createStore(ctx, owner.apiKey, { store_name: 'box-bags', brand_name: 'Box Bags' });
  const other = await ctx.createAccount('Box AWBs Other');
  stranger = { apiKey: other.apiKey, warehouseId: await createWarehouse(ctx, other.apiKey) };
  token = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx?.close();
});

interface InBoxes {
  shipmentId: string;
  orderId: string;
  master: string;
  box2: string;
  trackUrl: string;
}

/** Two boxes on a push courier (a parcel per box), booked at 12:00 India time; the clock then moves to 14:30. */
async function bookInBoxes(who: { apiKey: string; warehouseId: string }, storeName?: string): Promise<InBoxes> {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const body = boxedOrderBody(who.warehouseId, { carrier_id: SHADOWFAX, ...(storeName && { store_name: storeName }) });
  const booked = (await orchestrate(ctx, who.apiKey, body)) as Awaited<ReturnType<typeof orchestrate>> & {
    boxes: { awb: string }[];
  };
  ctx.clock.set('2026-11-20T09:00:00.000Z');
  const [master, box2] = booked.boxes.map((box) => box.awb) as [string, string];
  expect(master).toBe(booked.awb_code);
  return {
    shipmentId: booked.shipment_id,
    orderId: body.order_id as string,
    master,
    box2,
    trackUrl: booked.track_url!,
  };
}

const IST = (hhmm: string) => `2026-11-20T${hhmm}:00+05:30`;
const track = (apiKey: string, awbs: string[]) => post(ctx, apiKey, ORDER_TRACKING, { awbs });
const notFound = (awb: string) => ({ tracking_data: { track_status: 0, error: `AWB ${awb} not found` } });

describe('order tracking by a box AWB', () => {
  it("answers the box's shipment under its master AWB, keyed by the AWB asked, with asked_awb and box_no", async () => {
    const s = await bookInBoxes(owner);
    const theirs = await bookInBoxes(stranger);
    await sendEvents(ctx, token, [
      { awb: s.master, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.box2, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:20') },
    ]);
    const response = await track(owner.apiKey, [s.box2, s.master, theirs.box2, theirs.master]);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json().result;
    expect(Object.keys(result)).toEqual([s.box2, s.master, theirs.box2, theirs.master]);
    const whole = result[s.master].tracking_data;
    expect(whole.asked_awb).toBeUndefined();
    expect(whole.box_no).toBeUndefined();
    expect(whole.shipment_track[0]).toMatchObject({
      id: s.shipmentId,
      awb_code: s.master,
      channel_order_id: s.orderId,
    });
    // Both boxes' scans: the answer is the shipment's, whichever of its AWBs asked.
    expect(whole.shipment_track_activities.map((a: { date: string }) => a.date)).toEqual([
      '2026-11-20 12:20:00',
      '2026-11-20 12:10:00',
    ]);
    expect(result[s.box2]).toEqual({ tracking_data: { ...whole, asked_awb: s.box2, box_no: 2 } });
    // Another account's box and shipment are as unknown as any AWB.
    expect(result[theirs.box2]).toEqual(notFound(theirs.box2));
    expect(result[theirs.master]).toEqual(notFound(theirs.master));
  });
});

describe('a credential limited to stores, and the store tracking page', () => {
  let inShoes: InBoxes;
  let inBags: InBoxes;
  let limited: string;
  beforeAll(async () => {
    inShoes = await bookInBoxes(owner, 'box-shoes');
    inBags = await bookInBoxes(owner, 'box-bags');
    const key = await post(ctx, owner.apiKey, `${V1}/api-keys`, { stores: [shoes] });
    expect(key.statusCode, key.body).toBe(201);
    limited = key.json().data.api_key;
  });

  it("reaches its own store's box AWB and not another store's", async () => {
    const own = await track(limited, [inShoes.box2]);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().result[inShoes.box2].tracking_data).toMatchObject({ asked_awb: inShoes.box2, box_no: 2 });
    const other = await track(limited, [inBags.box2]);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({
      code: 'outside_credential_stores',
      message: `shipment ${inBags.box2}: not found among this credential's stores`,
    });
  });

  it("shows the shipment on its store's page by a box AWB, opens the buyer's page with the phone, and 404s elsewhere", async () => {
    const page = await ctx.app.inject({ method: 'GET', url: `/track/${shoes}?awb=${inShoes.box2}` });
    expect(page.statusCode, page.body).toBe(200);
    // The tracking number shown is the shipment's (the master AWB); the form keeps the AWB typed.
    expect(page.body).toContain(`<dd class="awb" translate="no">${inShoes.master}</dd>`);
    expect(page.body).toContain(`<input type="hidden" name="awb" value="${inShoes.box2}">`);
    const opened = await ctx.app.inject({
      method: 'GET',
      url: `/track/${shoes}?awb=${inShoes.box2}&phone=9123456780`,
    });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(new URL(inShoes.trackUrl).pathname);
    // Another store's box, of the same account: not there to be found.
    const sibling = await ctx.app.inject({ method: 'GET', url: `/track/${shoes}?awb=${inBags.box2}` });
    expect(sibling.statusCode).toBe(404);
    const phoned = await ctx.app.inject({ method: 'GET', url: `/track/${shoes}?awb=${inBags.box2}&phone=9123456780` });
    expect(phoned.statusCode).toBe(404);
  });
});

const shipmentRow = async (id: string) =>
  (
    await queryRows<{ status: string; attempt_count: number }>(
      ctx.database.db,
      sql`select status, attempt_count from shipments where id = ${id}`,
    )
  )[0]!;
const actionsOf = (id: string) =>
  queryRows<{ action: string }>(
    ctx.database.db,
    sql`select action from shipment_actions where shipment_id = ${id} order by created_at`,
  );
const refusal = (code: string, message: string) => ({
  code,
  message,
  errors: [message],
  details: [{ field: 'awb', message }],
});

describe('NDR actions by a box AWB', () => {
  it("box 2 held alone, box 1 delivered: a reattempt by box 2's AWB is the shipment's, and an RTO is refused", async () => {
    const s = await bookInBoxes(owner);
    await sendEvents(ctx, token, [
      { awb: s.master, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.box2, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.master, status: 'out_for_delivery', event_time: IST('13:00') },
      { awb: s.box2, status: 'out_for_delivery', event_time: IST('13:00') },
      { awb: s.master, status: 'delivered', event_time: IST('13:30') },
      { awb: s.box2, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: IST('13:40') },
    ]);
    expect(await shipmentRow(s.shipmentId)).toEqual({ status: 'ndr_raised', attempt_count: 1 });

    const asked = await post(ctx, owner.apiKey, `${V1}/reattempt`, { awb: s.box2 });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({
      success: true,
      message: 'Reattempt requested',
      data: {
        awb: s.box2,
        action_id: expect.stringMatching(UUID),
        reattempts_used: 1,
        reattempts_left: 1,
        reattempt_date: null,
      },
    });
    // One reattempt per failed attempt of the shipment, whichever of its AWBs asks.
    const again = await post(ctx, owner.apiKey, `${V1}/reattempt`, { awb: s.master });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(
      refusal(
        'ndr_action_not_allowed',
        'A reattempt is already requested for this failed delivery: wait for the courier to report it',
      ),
    );
    const tracked = (await track(owner.apiKey, [s.box2])).json().result[s.box2].tracking_data;
    expect(tracked.ndr_actions.map((a: { id: string; action: string }) => [a.id, a.action])).toEqual([
      [asked.json().data.action_id, 'reattempt'],
    ]);

    // Box 1 is with the buyer: the consignment cannot go back whole.
    const rto = await post(ctx, owner.apiKey, `${V1}/initiate-rto`, { awb: s.box2 });
    expect(rto.statusCode).toBe(422);
    expect(rto.json()).toEqual(
      refusal(
        'ndr_action_not_allowed',
        `An RTO returns every box of shipment ${s.master}, and box 1 (${s.master}) is delivered: ask for a reattempt, or wait for the courier to return the held box`,
      ),
    );
    expect(await shipmentRow(s.shipmentId)).toEqual({ status: 'ndr_raised', attempt_count: 1 });
    expect(await actionsOf(s.shipmentId)).toEqual([{ action: 'reattempt' }]);
  });

  it("an RTO by box 2's AWB returns every box; another account's box AWB is not found", async () => {
    const s = await bookInBoxes(owner);
    await sendEvents(ctx, token, [
      { awb: s.master, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.box2, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
    ]);
    const theirs = await bookInBoxes(stranger);
    for (const route of ['reattempt', 'initiate-rto']) {
      const unknown = await post(ctx, owner.apiKey, `${V1}/${route}`, { awb: theirs.box2 });
      expect(unknown.statusCode, route).toBe(404);
      expect(unknown.json(), route).toEqual(refusal('awb_not_found', `AWB ${theirs.box2} not found`));
    }
    const rto = await post(ctx, owner.apiKey, `${V1}/initiate-rto`, { awb: s.box2 });
    expect(rto.statusCode, rto.body).toBe(200);
    expect(rto.json()).toEqual({
      success: true,
      message: 'RTO initiated',
      data: { awb: s.box2, action_id: expect.stringMatching(UUID), status: 'rto_initiated' },
    });
    expect((await shipmentRow(s.shipmentId)).status).toBe('rto_initiated');
    const boxes = await queryRows<{ box_no: number; status: string }>(
      ctx.database.db,
      sql`select box_no, status from shipment_boxes where shipment_id = ${s.shipmentId} order by box_no`,
    );
    expect(boxes).toEqual([
      { box_no: 1, status: 'rto_initiated' },
      { box_no: 2, status: 'rto_initiated' },
    ]);
  });
});

describe('cancel-order by a box AWB', () => {
  it('cancels nothing and says how to cancel the whole shipment; the master AWB cancels every box', async () => {
    const s = await bookInBoxes(owner);
    const theirs = await bookInBoxes(stranger);
    const byBox = await post(ctx, owner.apiKey, CANCEL, { awbs: [s.box2, theirs.box2] });
    expect(byBox.statusCode, byBox.body).toBe(200);
    expect(byBox.json()).toEqual({
      message: '0 of 2 shipments cancelled',
      results: [
        {
          awb: s.box2,
          cancelled: false,
          message: `AWB ${s.box2} is box 2 of 2 of shipment ${s.master}: a multi-piece shipment is cancelled whole, by its master AWB or shipment_id`,
        },
        { awb: theirs.box2, cancelled: false, message: 'AWB not found' },
      ],
    });
    expect((await shipmentRow(s.shipmentId)).status).toBe('pending');
    const byMaster = await post(ctx, owner.apiKey, CANCEL, { awbs: [s.master] });
    expect(byMaster.json().results).toEqual([{ awb: s.master, cancelled: true, message: 'Shipment cancelled' }]);
    expect((await shipmentRow(s.shipmentId)).status).toBe('cancelled');
  });
});
