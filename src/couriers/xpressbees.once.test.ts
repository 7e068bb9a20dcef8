import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestContext } from '../../test/app.js';
import { expectThrottledThenBookedOnce, ratesWith, XPRESSBEES } from '../../test/kit/couriers.js';
import { authed, CANCEL, ORCHESTRATE, post, REVERSE_ORCHESTRATE, V1 } from '../../test/kit/http.js';
import { labelPath, pdfText } from '../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody } from '../../test/kit/orders.js';
import { returnBody } from '../../test/kit/returns.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import {
  startXpressbeesSimulator,
  XPRESSBEES_EMAIL,
  XPRESSBEES_PASSWORD,
  type XpressbeesSimulator,
} from '../demo/simulators/xpressbees-simulator.js';

const LOGIN = '/api/users/login';
const SERVICEABILITY = '/api/courier/serviceability';
const CREATE = '/api/shipments2';
const CANCEL_PATH = '/api/shipments2/cancel';
const NDR = '/api/ndr/create';
/** COURIER_TIMEOUT_MS here: one case waits out a simulated time-out; the simulator answers the rest within milliseconds. */
const TIMEOUT_MS = 500;
const TOKEN_SECONDS = 3600;

async function start(sim: XpressbeesSimulator, clock: TestClock, password = XPRESSBEES_PASSWORD) {
  const ctx = await createTestApp({
    clock,
    rates: ratesWith({ [XPRESSBEES]: 'xpressbees' }),
    settings: {
      couriers: {
        xpressbees: { email: XPRESSBEES_EMAIL, password, baseUrl: sim.baseUrl },
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

async function health(ctx: TestContext, apiKey: string) {
  const response = await ctx.app.inject({ method: 'GET', url: `${V1}/courier-connections`, headers: authed(apiKey) });
  return (response.json().data as { carrier_id: string; credentials: string; health: Record<string, unknown> }[]).find(
    (row) => row.carrier_id === XPRESSBEES,
  )!;
}

const shipmentTotal = async (ctx: TestContext, apiKey: string) =>
  (await post(ctx, apiKey, `${V1}/shipments`, {})).json().meta.total as number;
const sent = (sim: XpressbeesSimulator, path: string) =>
  JSON.parse(sim.callsTo(path).at(-1)!.body) as Record<string, unknown>;

describe('xpressbees connector against a local simulator of its API', () => {
  const clock = new TestClock();
  let sim: XpressbeesSimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    sim = await startXpressbeesSimulator({ tokenSeconds: TOKEN_SECONDS, now: () => clock.now() });
    ({ ctx, apiKey, warehouseId } = await start(sim, clock));
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('logs in, asks serviceability for the lane, then books with POST /api/shipments2 and our shipment id as the order number', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    expect(sim.callsTo(LOGIN)).toHaveLength(1);
    expect(JSON.parse(sim.callsTo(LOGIN)[0]!.body)).toEqual({ email: XPRESSBEES_EMAIL, password: XPRESSBEES_PASSWORD });
    expect(sent(sim, SERVICEABILITY)).toEqual({
      origin: '110001',
      destination: '400001',
      payment_type: 'prepaid',
      order_amount: '998',
      weight: '500',
      length: '10',
      breadth: '10',
      height: '10',
    });
    const [call] = sim.callsTo(CREATE);
    expect(call).toMatchObject({ method: 'POST', authorization: expect.stringMatching(/^Bearer ey/) });
    expect(payload).toMatchObject({
      courier_company_id: XPRESSBEES,
      courier_name: 'Xpressbees Standard',
      awb_code: [...sim.shipments.keys()][0],
      awb_generated: 1,
    });
    const warehouse = {
      name: expect.any(String),
      address: 'Plot 14, Okhla Phase III',
      address_2: '',
      city: 'New Delhi',
      state: 'Delhi',
      pincode: '110001',
      phone: '9876543210',
    };
    expect(JSON.parse(call!.body)).toEqual({
      order_number: payload.shipment_id,
      unique_order_number: 'yes',
      shipping_charges: 0,
      discount: 0,
      cod_charges: 0,
      payment_type: 'prepaid',
      order_amount: 998,
      package_weight: 500,
      package_length: 10,
      package_breadth: 10,
      package_height: 10,
      request_auto_pickup: 'yes',
      consignee: {
        name: 'Asha Menon',
        address: '12 Marine Drive',
        address_2: '',
        city: 'Mumbai',
        state: 'Maharashtra',
        pincode: '400001',
        phone: '9123456780',
      },
      pickup: { ...warehouse, warehouse_name: 'Okhla Fulfilment Centre' },
      order_items: [{ name: 'Cotton Kurta', qty: '2', price: '499', sku: expect.any(String) }],
      // "Surface Xpressbees 0.5 K.G", the slab for 500 g; the simulator lists the account's products
      // as a real account does, "Express Reverse" the first without Air (xpressbees.unit.test.ts).
      courier_id: '1',
      collectable_amount: 0,
    });
  });

  it('prints the label of an Xpressbees booking with its AWB', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    const label = await ctx.app.inject({ method: 'GET', url: labelPath(payload.label_url!) });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(label.rawPayload)).toContain(payload.awb_code);
  });

  it('sends COD with its amount, reuses the token until shortly before its exp, and shows the token expiry as connector health', async () => {
    await orchestrate(ctx, apiKey, codOrderBody(warehouseId, { carrier_id: XPRESSBEES }));
    expect(sent(sim, CREATE)).toMatchObject({ payment_type: 'cod', collectable_amount: 998 });
    expect(sent(sim, SERVICEABILITY)).toMatchObject({ payment_type: 'cod' });
    expect(sim.tokensIssued()).toBe(1);
    const firstExpiry = new Date(Date.parse('2026-11-20T06:30:00.000Z') + TOKEN_SECONDS * 1000).toISOString();
    expect((await health(ctx, apiKey)).health).toMatchObject({
      token_expires_at: firstExpiry,
      last_success_at: ctx.clock.now().toISOString(),
      last_error: null,
    });
    // Four minutes before the hour is up: inside the five-minute margin, so a new login first.
    ctx.clock.advance((TOKEN_SECONDS - 4 * 60) * 1000);
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    expect(sim.tokensIssued()).toBe(2);
    const row = await health(ctx, apiKey);
    expect(row).toMatchObject({
      credentials: 'configured',
      health: { token_expires_at: new Date(ctx.clock.now().getTime() + TOKEN_SECONDS * 1000).toISOString() },
    });
  });

  it('logs in again once and retries when Xpressbees answers 401 to a token it dropped', async () => {
    sim.dropTokens();
    const logins = sim.tokensIssued();
    const creates = sim.callsTo(CREATE).length;
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    expect(sim.tokensIssued()).toBe(logins + 1);
    // The serviceability call met the 401 and was sent again; the create went once, with the new token.
    expect(sim.callsTo(CREATE).length - creates).toBe(1);
    expect(sim.shipments.get(payload.awb_code!)!.body.order_number).toBe(payload.shipment_id);
  });

  it('maps Xpressbees’ refusals to 422 with its words, and its failures to 502/503, writing nothing and creating once', async () => {
    const total = await shipmentTotal(ctx, apiKey);
    const unserviceable = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      orderBody(warehouseId, {
        carrier_id: XPRESSBEES,
        billing_city: 'Shillong',
        billing_pincode: '793001',
        billing_state: 'Meghalaya',
      }),
    );
    expect(unserviceable.statusCode).toBe(422);
    expect(unserviceable.json().message).toBe('Xpressbees refused: pincode 793001 is not serviceable from 110001');

    const cases = [
      ['500', 502, 'Xpressbees could not be reached (HTTP 500); nothing was changed, try again'],
      [
        'malformed',
        502,
        'Xpressbees could not be reached (its answer could not be read); nothing was changed, try again',
      ],
      [
        'timeout',
        502,
        `Xpressbees could not be reached (no answer within ${TIMEOUT_MS} ms); nothing was changed, try again`,
      ],
      ['429', 503, 'Xpressbees could not be reached (it is limiting our requests); nothing was changed, try again'],
    ] as const;
    for (const [failure, code, message] of cases) {
      sim.failNext(CREATE, failure);
      const creates = sim.callsTo(CREATE).length;
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
      expect(response.statusCode).toBe(code);
      expect(response.json().message).toBe(message);
      if (failure === '429') expect(response.headers['retry-after']).toBe('7');
      // Sent once: a second create after an unknown outcome could book the parcel twice.
      expect(sim.callsTo(CREATE).length - creates).toBe(1);
    }
    expect(await shipmentTotal(ctx, apiKey)).toBe(total);
    expect((await health(ctx, apiKey)).health).toMatchObject({ last_error: 'rate limited (429)' });
    // The 429 paused calls for its Retry-After; a 5xx on the serviceability read is tried once more.
    ctx.clock.advance(8000);
    sim.failNext(SERVICEABILITY, '500');
    const reads = sim.callsTo(SERVICEABILITY).length;
    expect((await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: XPRESSBEES }))).statusCode).toBe(
      200,
    );
    expect(sim.callsTo(SERVICEABILITY).length - reads).toBe(2);
  });

  it('refuses a return on Xpressbees with a 422 before calling it', async () => {
    const creates = sim.callsTo(CREATE).length;
    const response = await post(ctx, apiKey, REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: XPRESSBEES }));
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'Xpressbees refused: reverse pickups are not connected in Dakiya yet; book the return with another courier',
    );
    expect(sim.callsTo(CREATE).length).toBe(creates);
  });

  it('answers the same AWB to a retried booking with the same Idempotency-Key, without a second create', async () => {
    const body = orderBody(warehouseId, { carrier_id: XPRESSBEES });
    const headers = { 'idempotency-key': `xpressbees-${Date.now()}` };
    // Sent together: either may take the key first; the other is its replay (200) or, while the
    // first is still booking, a 409.
    const both = await Promise.all([
      post(ctx, apiKey, ORCHESTRATE, body, headers),
      post(ctx, apiKey, ORCHESTRATE, body, headers),
    ]);
    const answered = both.filter((response) => response.statusCode === 200);
    expect(answered.length).toBeGreaterThan(0);
    expect(both.filter((response) => response.statusCode !== 200).map((response) => response.statusCode)).toEqual(
      both.length === answered.length ? [] : [409],
    );
    const awb = answered[0]!.json().payload.awb_code;
    for (const response of answered) expect(response.json().payload.awb_code).toBe(awb);
    const creates = sim.callsTo(CREATE).length;
    const again = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().payload.awb_code).toBe(awb);
    expect(sim.callsTo(CREATE).length).toBe(creates);
    const orderNumbers = [...sim.shipments.values()].map((s) => s.body.order_number);
    expect(new Set(orderNumbers).size).toBe(orderNumbers.length);
  });

  it('never gives two shipments one AWB when Xpressbees booked a parcel whose answer was lost, and the merchant retries', async () => {
    const body = orderBody(warehouseId, { carrier_id: XPRESSBEES });
    const headers = { 'idempotency-key': `xpressbees-lost-${Date.now()}` };
    const total = await shipmentTotal(ctx, apiKey);
    sim.failNext(CREATE, 'book-then-timeout');
    const lost = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    expect(lost.statusCode).toBe(502);
    const orphan = [...sim.shipments.values()].at(-1)!;
    const retried = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    expect(retried.statusCode).toBe(200);
    // The retry is a new shipment id, so a new order number: Xpressbees holds an orphan nobody hands it, Dakiya one booking.
    expect(retried.json().payload.awb_code).not.toBe(orphan.awb);
    expect(sim.shipments.get(retried.json().payload.awb_code)!.body.order_number).not.toBe(orphan.body.order_number);
    expect(await shipmentTotal(ctx, apiKey)).toBe(total + 1);
    const tracked = await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [orphan.awb] });
    expect(tracked.json().result[orphan.awb]).toEqual({
      tracking_data: { track_status: 0, error: `AWB ${orphan.awb} not found` },
    });
  });

  it('cancels with POST /api/shipments2/cancel, and says why when Xpressbees will not', async () => {
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    sim.scan(second.awb_code!, { status_code: 'PKD', event_time: '2026-11-20 13:00', message: 'SHIPMENT PICKED UP' });
    const response = await post(ctx, apiKey, CANCEL, { awbs: [first.awb_code, second.awb_code] });
    expect(response.json().results).toEqual([
      { awb: first.awb_code, cancelled: true, message: 'Shipment cancelled' },
      {
        awb: second.awb_code,
        cancelled: false,
        message: 'Xpressbees refused: could not cancel it: Shipment already picked up, can not be cancelled',
      },
    ]);
    expect(sim.callsTo(CANCEL_PATH).map((r) => JSON.parse(r.body))).toContainEqual({ awb: first.awb_code });
    expect(sim.shipments.get(first.awb_code!)!.cancelled).toBe(true);
  });

  it('pulls tracking from /api/shipments2/track/{awb}, maps the codes, and hands NDR actions over', async () => {
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    const at = (minutes: number) => {
      const ist = new Date(ctx.clock.now().getTime() + 330 * 60_000 + minutes * 60_000).toISOString();
      return `${ist.slice(0, 10)} ${ist.slice(11, 16)}`;
    };
    sim.scan(
      delivered.awb_code!,
      { status_code: 'PP', event_time: at(5), message: 'PICKUP SCHEDULED', location: 'OKHLA (OKL)' },
      { status_code: 'PKD', event_time: at(10), message: 'SHIPMENT PICKED UP', location: 'OKHLA (OKL)' },
      { status_code: 'ZZ', event_time: at(11), message: 'INFORMATIONAL' },
      { status_code: 'IT', event_time: at(15), message: 'SHIPMENT ARRIVED AT HUB', location: 'BHIWANDI HUB (BWD)' },
      { status_code: 'OFD', event_time: at(20), message: 'SHIPMENT OUT FOR DELIVERY', location: 'MARINE DRIVE (MRD)' },
      { status_code: 'DL', event_time: at(25), message: 'SHIPMENT DELIVERED', location: 'MARINE DRIVE (MRD)' },
    );
    sim.scan(
      failed.awb_code!,
      { status_code: 'PKD', event_time: at(10), message: 'SHIPMENT PICKED UP' },
      { status_code: 'OFD', event_time: at(20), message: 'SHIPMENT OUT FOR DELIVERY' },
      { status_code: 'EX', event_time: at(26), message: 'CONSIGNEE NOT REACHABLE' },
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

    const asked = {
      awb: failed.awb_code,
      updated_phone_number: '9876543210',
      updated_address: { address_line: '14 Marine Drive, Flat 3', landmark: 'Opposite the Oval' },
    };
    expect((await post(ctx, apiKey, `${V1}/reattempt`, asked)).statusCode).toBe(200);
    ctx.clock.advance(10 * 60_000);
    await ctx.app.courierPoller.runOnce();
    // The day after the instruction in India: the clock is 2026-11-20 there. The address change
    // names the consignee as the order has it (Xpressbees' own sample, index id 52338113957).
    expect(sim.ndrActions).toEqual([
      { awb: failed.awb_code, action: 're-attempt', action_data: { re_attempt_date: '2026-11-21' } },
      {
        awb: failed.awb_code,
        action: 'change_address',
        action_data: { name: 'Asha Menon', address_1: '14 Marine Drive, Flat 3', address_2: 'Opposite the Oval' },
      },
      { awb: failed.awb_code, action: 'change_phone', action_data: { phone: '9876543210' } },
    ]);
    expect(sim.callsTo(NDR).at(-1)!.authorization).toMatch(/^Bearer /);
    const [action] = (await status(ctx, apiKey, failed.awb_code!)).ndr_actions;
    expect(action).toMatchObject({ action: 'reattempt', acknowledged_at: ctx.clock.now().toISOString() });

    // Xpressbees takes no RTO action: acknowledged without a call, and the parcel's return is tracked.
    const ndrCalls = sim.callsTo(NDR).length;
    expect((await post(ctx, apiKey, `${V1}/initiate-rto`, { awb: failed.awb_code })).statusCode).toBe(200);
    await ctx.app.courierPoller.runOnce();
    expect(sim.callsTo(NDR)).toHaveLength(ndrCalls);
    expect((await status(ctx, apiKey, failed.awb_code!)).ndr_actions.at(-1)).toMatchObject({
      action: 'rto',
      acknowledged_at: ctx.clock.now().toISOString(),
    });
    sim.scan(
      failed.awb_code!,
      { status_code: 'RT-IT', event_time: at(40), message: "RETURNED TO ORIGIN AT SHIPPER'S REQUEST" },
      { status_code: 'RT-DL', event_time: at(50), message: 'SHIPMENT DELIVERED' },
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'rto_delivered',
      shipment_sub_status: 'rto_delivered',
    });
  });

  it('answers 503 with Retry-After once Xpressbees throttles the account, calls it no more until then, and books the retried order once', async () => {
    ctx.clock.advance(60_000);
    sim.limitRate({ requests: 3, windowMs: 60_000 });
    try {
      await expectThrottledThenBookedOnce(ctx, apiKey, {
        name: 'Xpressbees',
        order: () => orderBody(warehouseId, { carrier_id: XPRESSBEES }),
        requests: () => sim.requests.length,
        awbsAtCourier: (shipmentId) =>
          [...sim.shipments.values()].filter((s) => s.body.order_number === shipmentId).map((s) => s.awb),
      });
    } finally {
      sim.limitRate();
    }
  });

  it('keeps other accounts’ Xpressbees shipments out of an account’s tracking', async () => {
    const mine = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
    const other = await ctx.createAccount();
    const response = await post(ctx, other.apiKey, `${V1}/order-tracking`, { awbs: [mine.awb_code] });
    expect(response.json().result[mine.awb_code!]).toEqual({
      tracking_data: { track_status: 0, error: `AWB ${mine.awb_code} not found` },
    });
  });
});

describe('xpressbees connector with wrong credentials, or a token that is not a JWT', () => {
  it('answers 502 naming the settings to check, and never the password', async () => {
    const clock = new TestClock();
    const sim = await startXpressbeesSimulator({ now: () => clock.now() });
    const { ctx, apiKey, warehouseId } = await start(sim, clock, 'not-the-password');
    try {
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        'Xpressbees could not be reached (it refused our login (HTTP 401); the operator must check XPRESSBEES_EMAIL and XPRESSBEES_PASSWORD); nothing was changed, try again',
      );
      expect(response.body).not.toContain('not-the-password');
      expect(sim.callsTo(CREATE)).toHaveLength(0);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });

  it('keeps a token whose expiry it cannot read for an hour less the margin, then logs in again', async () => {
    const clock = new TestClock();
    const sim = await startXpressbeesSimulator({ now: () => clock.now(), jwt: false });
    const { ctx, apiKey, warehouseId } = await start(sim, clock);
    try {
      await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
      clock.advance(54 * 60_000);
      await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
      expect(sim.tokensIssued()).toBe(1);
      clock.advance(2 * 60_000);
      await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: XPRESSBEES }));
      expect(sim.tokensIssued()).toBe(2);
      expect(sim.callsTo(CREATE).at(-1)!.authorization).toMatch(/^Bearer xbt-2-/);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });
});
