import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestContext } from '../../test/app.js';
import { expectThrottledThenBookedOnce, EKART, ratesWith } from '../../test/kit/couriers.js';
import { CANCEL, ORCHESTRATE, post, V1 } from '../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../test/kit/orders.js';
import { bookReturn } from '../../test/kit/returns.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import {
  EKART_CLIENT,
  EKART_PASSWORD,
  EKART_USER,
  type EkartSimulator,
  startEkartSimulator,
} from '../demo/simulators/ekart-simulator.js';

const TOKEN = `/integrations/v2/auth/token/${EKART_CLIENT}`;
const CREATE = '/api/v1/package/create';
const CANCEL_PATH = '/api/v1/package/cancel';
const NDR = '/api/v2/package/ndr';
/** COURIER_TIMEOUT_MS here: one case waits out a simulated time-out; the rest are answered within milliseconds, but a token fetch timed out on a loaded machine would count twice. */
const TIMEOUT_MS = 2000;
const TOKEN_SECONDS = 3600;

async function start(sim: EkartSimulator, password = EKART_PASSWORD, clock = new TestClock()) {
  const ctx = await createTestApp({
    clock,
    rates: ratesWith({ [EKART]: 'ekart' }),
    settings: {
      couriers: {
        ekart: { clientId: EKART_CLIENT, username: EKART_USER, password, baseUrl: sim.baseUrl },
        timeoutMs: TIMEOUT_MS,
        pollSeconds: 60,
      },
    },
  });
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey);
  return { ctx, apiKey, warehouseId };
}

async function status(ctx: TestContext, apiKey: string, awb: string) {
  const response = await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] });
  return response.json().result[awb].tracking_data;
}

const shipmentTotal = async (ctx: TestContext, apiKey: string) =>
  (await post(ctx, apiKey, `${V1}/shipments`, {})).json().meta.total as number;

describe('ekart connector against a local simulator of its API', () => {
  let sim: EkartSimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  const clock = new TestClock();

  beforeAll(async () => {
    // The test warehouse's alias registered at Ekart beforehand; a warehouse it does not know is
    // registered on its first booking (ekart.unit.test.ts).
    sim = await startEkartSimulator({
      tokenSeconds: TOKEN_SECONDS,
      now: () => clock.now(),
      aliases: ['Okhla Fulfilment Centre'],
    });
    ({ ctx, apiKey, warehouseId } = await start(sim, EKART_PASSWORD, clock));
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('fetches a token, then books with PUT /api/v1/package/create and our shipment id as the order number', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    expect(sim.callsTo(TOKEN)).toHaveLength(1);
    expect(JSON.parse(sim.callsTo(TOKEN)[0]!.body)).toEqual({ username: EKART_USER, password: EKART_PASSWORD });
    const [call] = sim.callsTo(CREATE);
    expect(call).toMatchObject({ method: 'PUT', authorization: expect.stringMatching(/^Bearer ekt-1-/) });
    expect(payload).toMatchObject({
      courier_company_id: EKART,
      courier_name: 'Ekart Standard',
      awb_code: [...sim.packages.keys()][0],
      awb_generated: 1,
    });
    // Its connection's health: the call answered, and when the token runs out.
    const connections = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/courier-connections`,
      headers: { authorization: apiKey },
    });
    const ekart = (connections.json().data as { carrier_id: string; health: Record<string, unknown> }[]).find(
      (row) => row.carrier_id === EKART,
    );
    expect(ekart?.health).toMatchObject({
      last_success_at: ctx.clock.now().toISOString(),
      last_error: null,
      token_expires_at: new Date(ctx.clock.now().getTime() + TOKEN_SECONDS * 1000).toISOString(),
    });
    const warehouse = {
      address: expect.any(String),
      city: expect.any(String),
      state: expect.any(String),
      country: 'India',
      phone: expect.any(Number),
      pin: expect.any(Number),
    };
    expect(JSON.parse(call!.body)).toEqual({
      seller_name: expect.any(String),
      seller_address: expect.any(String),
      seller_gst_tin: '',
      consignee_gst_amount: 0,
      order_number: payload.shipment_id,
      invoice_number: expect.any(String),
      invoice_date: '2026-11-20',
      consignee_name: 'Asha Menon',
      consignee_alternate_phone: '9123456780',
      payment_mode: 'Prepaid',
      category_of_goods: 'General',
      products_desc: 'Cotton Kurta',
      total_amount: 998,
      tax_value: 0,
      taxable_amount: 998,
      commodity_value: '998.00',
      cod_amount: 0,
      quantity: 2,
      weight: 500,
      length: 10,
      width: 10,
      height: 10,
      return_reason: '',
      drop_location: {
        name: 'Asha Menon',
        address: '12 Marine Drive',
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
        phone: 9123456780,
        pin: 400001,
      },
      pickup_location: { ...warehouse, name: 'Okhla Fulfilment Centre' },
      return_location: { ...warehouse, name: 'Okhla Fulfilment Centre' },
    });
  });

  it('books a return as a reverse pickup: payment_mode Pickup, the customer as drop_location, the warehouse as pickup_location', async () => {
    const booked = await bookReturn(ctx, apiKey, warehouseId, { carrierId: EKART });
    expect(booked).toMatchObject({ courier_company_id: EKART, awb_code: expect.stringMatching(/^500999A/) });
    expect(JSON.parse(sim.callsTo(CREATE).at(-1)!.body)).toMatchObject({
      order_number: expect.any(String),
      payment_mode: 'Pickup',
      cod_amount: 0,
      total_amount: 499,
      return_reason: 'Customer return',
      drop_location: { name: 'Asha Menon', address: '12 Marine Drive', pin: 400001, phone: 9123456780 },
      pickup_location: { name: 'Okhla Fulfilment Centre' },
    });
  });

  it("sends the order's e-way bill number as ewbn (docs/paperwork.md)", async () => {
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART, ewaybill_no: 331009876543 }));
    expect(JSON.parse(sim.callsTo(CREATE).at(-1)!.body)).toMatchObject({ ewbn: '331009876543' });
  });

  it('sends COD with its amount, reuses the token, and takes the one Ekart’s cache answers until it lapses', async () => {
    await orchestrate(ctx, apiKey, codOrderBody(warehouseId, { carrier_id: EKART }));
    expect(JSON.parse(sim.callsTo(CREATE).at(-1)!.body)).toMatchObject({ payment_mode: 'COD', cod_amount: 998 });
    expect(sim.tokensIssued()).toBe(1);
    // Four minutes before the hour is up, inside the five-minute margin: the token is asked for
    // again, and Ekart's token call, "a caching API", answers the same one with what is left of it.
    ctx.clock.advance((TOKEN_SECONDS - 4 * 60) * 1000);
    const asked = sim.callsTo(TOKEN).length;
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    expect(sim.callsTo(TOKEN).length).toBe(asked + 1);
    expect(sim.tokensIssued()).toBe(1);
    expect(sim.callsTo(CREATE).at(-1)!.authorization).toMatch(/^Bearer ekt-1-/);
    // Once it has lapsed, a new one.
    ctx.clock.advance(5 * 60_000);
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    expect(sim.tokensIssued()).toBe(2);
    expect(sim.callsTo(CREATE).at(-1)!.authorization).toMatch(/^Bearer ekt-2-/);
  });

  it('fetches a new token once and retries when Ekart answers 401 to a token it dropped', async () => {
    sim.dropTokens();
    const creates = sim.callsTo(CREATE).length;
    const checks = sim.requests.filter((r) => r.path.startsWith('/api/v2/serviceability/')).length;
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    expect(sim.tokensIssued()).toBe(3);
    // The two serviceability reads met the 401 and went again; the create went once, with the new token.
    expect(sim.requests.filter((r) => r.path.startsWith('/api/v2/serviceability/')).length - checks).toBe(4);
    expect(sim.callsTo(CREATE).length - creates).toBe(1);
    expect(sim.callsTo(CREATE).at(-1)!.authorization).toMatch(/^Bearer ekt-3-/);
    expect(sim.packages.get(payload.awb_code!)!.body.order_number).toBe(payload.shipment_id);
  });

  it('maps Ekart’s refusals to 422 with its words, and its failures to 502/503, writing nothing', async () => {
    const total = await shipmentTotal(ctx, apiKey);
    // Ekart's serviceability lists the pincode, and its create refuses it all the same.
    sim.pincodes.set('793001', {});
    const refused = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      orderBody(warehouseId, {
        carrier_id: EKART,
        billing_city: 'Shillong',
        billing_pincode: '793001',
        billing_state: 'Meghalaya',
      }),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Ekart refused: Pincode 793001 is not serviceable');
    sim.pincodes.delete('793001');

    const cases = [
      ['500', 502, 'Ekart could not be reached (HTTP 500); nothing was changed, try again'],
      ['malformed', 502, 'Ekart could not be reached (its answer could not be read); nothing was changed, try again'],
      [
        'timeout',
        502,
        `Ekart could not be reached (no answer within ${TIMEOUT_MS} ms); nothing was changed, try again`,
      ],
      ['429', 503, 'Ekart could not be reached (it is limiting our requests); nothing was changed, try again'],
    ] as const;
    for (const [failure, code, message] of cases) {
      sim.failNext(CREATE, failure);
      const creates = sim.callsTo(CREATE).length;
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }));
      expect(response.statusCode).toBe(code);
      expect(response.json().message).toBe(message);
      if (failure === '429') expect(response.headers['retry-after']).toBe('7');
      // Sent once: Ekart has no look-up by order number, so a second create could book twice.
      expect(sim.callsTo(CREATE).length - creates).toBe(1);
    }
    expect(await shipmentTotal(ctx, apiKey)).toBe(total);
    // The 429 paused calls for its Retry-After.
    ctx.clock.advance(8000);
    expect((await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }))).statusCode).toBe(200);
  });

  it('answers the same AWB to a retried booking with the same Idempotency-Key, without a second create', async () => {
    const body = orderBody(warehouseId, { carrier_id: EKART });
    const headers = { 'idempotency-key': `ekart-${Date.now()}` };
    const first = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    const creates = sim.callsTo(CREATE).length;
    const again = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().payload.awb_code).toBe(first.json().payload.awb_code);
    expect(sim.callsTo(CREATE).length).toBe(creates);
  });

  it('cancels with DELETE /api/v1/package/cancel, and says why when Ekart will not', async () => {
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    await sim.scan(second.awb_code!, {
      status: 'Picked Up',
      ctime: ctx.clock.now().getTime(),
      desc: 'Shipment picked up',
    });
    const response = await post(ctx, apiKey, CANCEL, { awbs: [first.awb_code, second.awb_code] });
    expect(response.json().results).toEqual([
      { awb: first.awb_code, cancelled: true, message: 'Shipment cancelled' },
      {
        awb: second.awb_code,
        cancelled: false,
        message: 'Ekart refused: could not cancel it: Shipment already picked up',
      },
    ]);
    const call = sim.callsTo(CANCEL_PATH).find((r) => r.query.get('tracking_id') === first.awb_code);
    expect(call).toMatchObject({ method: 'DELETE', authorization: expect.stringMatching(/^Bearer /) });
    expect(sim.packages.get(first.awb_code!)!.cancelled).toBe(true);
  });

  it('pulls tracking from /api/v1/track/{id}, maps every status, and hands NDR actions over', async () => {
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const at = (minutes: number) => ctx.clock.now().getTime() + minutes * 60_000;
    await sim.scan(
      delivered.awb_code!,
      { status: 'Pickup Scheduled', ctime: at(5), desc: 'Pickup scheduled', location: 'Okhla' },
      { status: 'Picked Up', ctime: at(10), desc: 'Shipment picked up', location: 'Okhla' },
      { status: 'Not Serviceable', ctime: at(11), desc: 'Informational' },
      { status: 'In Transit', ctime: at(15), desc: 'Reached Mumbai hub', location: 'Mumbai' },
      { status: 'Out for Delivery', ctime: at(20), desc: 'Out for delivery', location: 'Mumbai' },
      { status: 'Delivered', ctime: at(25), desc: 'Delivered to customer', location: 'Mumbai' },
    );
    await sim.scan(
      failed.awb_code!,
      { status: 'Picked Up', ctime: at(10), desc: 'Shipment picked up' },
      { status: 'Out for Delivery', ctime: at(20), desc: 'Out for delivery' },
      { status: 'Undelivered', ctime: at(26), desc: 'Customer not reachable', ndrStatus: 'Customer Unreachable' },
    );
    ctx.clock.advance(60 * 60_000);
    await ctx.app.courierPoller.runOnce();

    const done = await status(ctx, apiKey, delivered.awb_code!);
    expect(done).toMatchObject({ shipment_status: 'delivered', shipment_sub_status: 'delivered' });
    expect(done.shipment_track_activities).toHaveLength(5);
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'ndr_raised',
      shipment_sub_status: 'contact_unreachable',
    });

    expect(
      (
        await post(ctx, apiKey, `${V1}/reattempt`, {
          awb: failed.awb_code,
          updated_phone_number: '9876543210',
          updated_address: { address_line: 'Flat 4, 12 Marine Drive', landmark: 'Opposite the Oval Maidan gate' },
        })
      ).statusCode,
    ).toBe(200);
    ctx.clock.advance(10 * 60_000);
    await ctx.app.courierPoller.runOnce();
    // The day after the instruction, midnight India time: the clock is 2026-11-20 in India.
    expect(sim.ndrActions).toEqual([
      {
        action: 'Re-Attempt',
        wbn: failed.awb_code,
        date: Date.parse('2026-11-21T00:00:00+05:30'),
        phone: '9876543210',
        address: 'Flat 4, 12 Marine Drive, Opposite the Oval Maidan gate',
      },
    ]);
    expect(sim.callsTo(NDR).at(-1)!.authorization).toMatch(/^Bearer /);
    const [action] = (await status(ctx, apiKey, failed.awb_code!)).ndr_actions;
    expect(action).toMatchObject({ action: 'reattempt', acknowledged_at: ctx.clock.now().toISOString() });

    expect((await post(ctx, apiKey, `${V1}/initiate-rto`, { awb: failed.awb_code })).statusCode).toBe(200);
    await ctx.app.courierPoller.runOnce();
    expect(sim.ndrActions.at(-1)).toEqual({ action: 'RTO', wbn: failed.awb_code });
    await sim.scan(
      failed.awb_code!,
      { status: 'RTO In Transit', ctime: at(40), desc: 'Returning to seller' },
      { status: 'RTO Delivered', ctime: at(50), desc: 'Returned to seller' },
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'rto_delivered',
      shipment_sub_status: 'rto_delivered',
    });
  });

  it('answers 503 with Retry-After once Ekart throttles our client id, calls it no more until then, and books the retried order once', async () => {
    ctx.clock.advance(60_000);
    sim.limitRate({ requests: 3, windowMs: 60_000, now: () => ctx.clock.now().getTime() });
    try {
      await expectThrottledThenBookedOnce(ctx, apiKey, {
        name: 'Ekart',
        order: () => orderBody(warehouseId, { carrier_id: EKART }),
        requests: () => sim.requests.length,
        awbsAtCourier: (shipmentId) =>
          [...sim.packages.values()].filter((p) => p.body.order_number === shipmentId).map((p) => p.trackingId),
      });
    } finally {
      sim.limitRate();
    }
  });

  it('keeps other accounts’ Ekart shipments out of an account’s tracking', async () => {
    const mine = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const other = await ctx.createAccount();
    const response = await post(ctx, other.apiKey, `${V1}/order-tracking`, { awbs: [mine.awb_code] });
    expect(response.json().result[mine.awb_code!]).toEqual({
      tracking_data: { track_status: 0, error: `AWB ${mine.awb_code} not found` },
    });
  });

  it('polls a return’s reverse pickup and reads Ekart’s pickup statuses as the return’s, its RTO statuses kept unread', async () => {
    const awb = (await bookReturn(ctx, apiKey, warehouseId, { carrierId: EKART })).awb_code!;
    const at = (minutes: number) => ctx.clock.now().getTime() + minutes * 60_000;
    await sim.scan(
      awb,
      { status: 'Out for Pickup', ctime: at(5), desc: 'Agent out for pickup', location: 'Mumbai' },
      { status: 'Undelivered', ctime: at(10), desc: 'Customer asked for later', ndrStatus: 'Pickup Rescheduled' },
      { status: 'Picked Up', ctime: at(60), desc: 'Picked up from customer', location: 'Mumbai' },
      { status: 'RTO Requested', ctime: at(61), desc: 'Misfiled scan' },
      { status: 'In Transit', ctime: at(120), desc: 'Reached Delhi hub', location: 'Delhi' },
      { status: 'Delivered', ctime: at(600), desc: 'Delivered to seller', location: 'Okhla' },
    );
    ctx.clock.advance(11 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    const listed = (await post(ctx, apiKey, `${V1}/returns`, {})).json().data as {
      attributes: { tracking_number: string; status: string; sub_status: string | null };
    }[];
    expect(listed.find((r) => r.attributes.tracking_number === awb)?.attributes).toMatchObject({
      status: 'return_delivered',
      sub_status: 'return_delivered',
    });
    const kept = (await ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans`, headers: { authorization: apiKey } }))
      .json()
      .data.filter((k: { awb: string }) => k.awb === awb);
    expect(kept.map((k: { reason: string; journey: string }) => [k.reason, k.journey])).toEqual([
      ["Ekart's 'RTO Requested' is a forward parcel's return to origin: it has no meaning on a return", 'return'],
    ]);
  });
});

describe('ekart connector with wrong credentials', () => {
  it('answers 502 naming the settings to check, and never the password', async () => {
    const sim = await startEkartSimulator();
    const { ctx, apiKey, warehouseId } = await start(sim, 'not-the-password');
    try {
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }));
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        'Ekart could not be reached (it refused our credentials (HTTP 401); the operator must check EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD); nothing was changed, try again',
      );
      expect(response.body).not.toContain('not-the-password');
      expect(sim.callsTo(CREATE)).toHaveLength(0);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });
});
