import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { bookUntilRefused, DELHIVERY_AIR, DELHIVERY_SURFACE, ratesWith } from '../../test/kit/couriers.js';
import { authed, CANCEL, ORCHESTRATE, post, V1 } from '../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../test/kit/orders.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import { type DelhiverySimulator, SIM_TOKEN, startDelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';

const CREATE = '/api/cmu/create.json';
const TRACK = '/api/v1/packages/json';
const EDIT = '/api/p/edit';

const scan = (ScanType: string, Scan: string, StatusCode: string, ScanDateTime: string, Instructions = '') => ({
  ScanType,
  Scan,
  StatusCode,
  ScanDateTime,
  ScannedLocation: 'Mumbai_Andheri_DC (Maharashtra)',
  Instructions,
});

/**
 * COURIER_TIMEOUT_MS for these tests: three cases wait out a simulated time-out (four waits in all),
 * while the simulator on 127.0.0.1 answers every other call within milliseconds.
 */
const TIMEOUT_MS = 500;

async function start(sim: DelhiverySimulator, logs: string[]) {
  const ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery', [DELHIVERY_AIR]: 'delhivery' }),
    settings: {
      couriers: {
        delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
        timeoutMs: TIMEOUT_MS,
        pollSeconds: 60,
      },
    },
    logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } },
  });
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey);
  return { ctx, apiKey, warehouseId };
}

async function status(ctx: TestContext, apiKey: string, awb: string) {
  const response = await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] });
  return response.json().result[awb].tracking_data;
}

async function shipmentTotal(ctx: TestContext, apiKey: string) {
  return (await post(ctx, apiKey, `${V1}/shipments`, {})).json().meta.total as number;
}

describe('delhivery connector against a local simulator of its API', () => {
  let sim: DelhiverySimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;
  const logs: string[] = [];

  beforeAll(async () => {
    sim = await startDelhiverySimulator();
    ({ ctx, apiKey, warehouseId } = await start(sim, logs));
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('books through /api/cmu/create.json with our shipment id as the order, and asks for a pickup', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const pkg = sim.packages.get(payload.awb_code!)!;
    expect(pkg.order).toBe(payload.shipment_id);
    expect(payload).toMatchObject({
      courier_company_id: DELHIVERY_SURFACE,
      courier_name: 'Delhivery Surface',
      routing_code: 'BOM/ANR',
      awb_generated: 1,
    });
    const [call] = sim.callsTo(CREATE);
    expect(call).toMatchObject({
      method: 'POST',
      authorization: `Token ${SIM_TOKEN}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    const form = new URLSearchParams(call!.body);
    expect(form.get('format')).toBe('json');
    expect(JSON.parse(form.get('data')!)).toEqual({
      shipments: [
        {
          name: 'Asha Menon',
          add: '12 Marine Drive',
          pin: '400001',
          city: 'Mumbai',
          state: 'Maharashtra',
          country: 'India',
          phone: '9123456780',
          order: payload.shipment_id,
          payment_mode: 'Prepaid',
          cod_amount: 0,
          total_amount: 998,
          products_desc: 'Cotton Kurta',
          quantity: 2,
          weight: 500,
          shipment_length: 10,
          shipment_width: 10,
          shipment_height: 10,
          shipping_mode: 'Surface',
          order_date: '2026-11-20T09:00:00.000Z',
          waybill: '',
        },
      ],
      pickup_location: { name: 'Okhla Fulfilment Centre' },
    });
    expect(sim.pickups.at(-1)).toEqual({
      pickup_location: 'Okhla Fulfilment Centre',
      expected_package_count: 1,
      pickup_date: payload.pickup_scheduled_date,
      pickup_time: '11:00:00',
    });
  });

  it('sends COD with its amount, and Air as Express', async () => {
    const payload = await orchestrate(ctx, apiKey, codOrderBody(warehouseId, { carrier_id: DELHIVERY_AIR }));
    const data = JSON.parse(new URLSearchParams(sim.callsTo(CREATE).at(-1)!.body).get('data')!);
    expect(data.shipments[0]).toMatchObject({
      order: payload.shipment_id,
      payment_mode: 'COD',
      cod_amount: 998,
      shipping_mode: 'Express',
    });
    // One pickup request per service, warehouse and day: Air asked for its own; another Surface parcel the same day does not.
    expect(sim.pickups).toHaveLength(2);
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(sim.pickups).toHaveLength(2);
  });

  it("sends the order's e-way bill number as ewbn (docs/paperwork.md), and none when it has none", async () => {
    const body = orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE, ewaybill_no: '331009876543' });
    const payload = await orchestrate(ctx, apiKey, body);
    expect(sim.packages.get(payload.awb_code!)!.shipment.ewbn).toBe('331009876543');
    const plain = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(sim.packages.get(plain.awb_code!)!.shipment).not.toHaveProperty('ewbn');
  });

  it('retries a booking that timed out without a second waybill: the reference finds the first', async () => {
    sim.failNext(CREATE, 'book-then-timeout');
    const before = sim.packages.size;
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(sim.packages.size).toBe(before + 1);
    expect(sim.packages.get(payload.awb_code!)!.order).toBe(payload.shipment_id);
    const lookups = sim.callsTo(TRACK).filter((r) => r.query.get('ref_ids') === payload.shipment_id);
    expect(lookups).toHaveLength(1);
  });

  it('answers 502 naming Delhivery after a 500, a time-out or a malformed answer twice, and writes nothing', async () => {
    const total = await shipmentTotal(ctx, apiKey);
    for (const failure of ['500', 'timeout', 'malformed'] as const) {
      sim.failNext(CREATE, failure, 2);
      const body = orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE });
      const response = await post(ctx, apiKey, ORCHESTRATE, body);
      expect(response.statusCode).toBe(502);
      const reason = {
        500: 'HTTP 500',
        timeout: `no answer within ${TIMEOUT_MS} ms`,
        malformed: 'its answer could not be read',
      }[failure];
      expect(response.json().message).toBe(
        `Delhivery could not be reached (${reason}); nothing was changed, try again`,
      );
      expect(JSON.stringify(response.json())).not.toContain(SIM_TOKEN);
      expect(await shipmentTotal(ctx, apiKey)).toBe(total);
    }
    // Nothing half-written: the same order books once Delhivery answers.
    const body = orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE });
    sim.failNext(CREATE, '500', 2);
    expect((await post(ctx, apiKey, ORCHESTRATE, body)).statusCode).toBe(502);
    expect((await post(ctx, apiKey, ORCHESTRATE, body)).statusCode).toBe(200);
    expect(await shipmentTotal(ctx, apiKey)).toBe(total + 1);
  });

  it('answers 422 with Delhivery’s words when it refuses the parcel, and writes nothing', async () => {
    const total = await shipmentTotal(ctx, apiKey);
    const response = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      orderBody(warehouseId, {
        carrier_id: DELHIVERY_SURFACE,
        billing_city: 'Shillong',
        billing_pincode: '793001',
        billing_state: 'Meghalaya',
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Delhivery refused: Non serviceable pincode');
    expect(response.json().code).toBe('courier_refused');
    expect(await shipmentTotal(ctx, apiKey)).toBe(total);
  });

  it('cancels through /api/p/edit, and says why when Delhivery will not', async () => {
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    // Delivered at Delhivery before Dakiya has heard of it.
    sim.scan(second.awb_code!, scan('DL', 'Delivered', 'EOD-38', '2026-11-20T12:25:00', 'Delivered to consignee'));
    const response = await post(ctx, apiKey, CANCEL, { awbs: [first.awb_code, second.awb_code] });
    expect(response.json().results).toEqual([
      { awb: first.awb_code, cancelled: true, message: 'Shipment cancelled' },
      {
        awb: second.awb_code,
        cancelled: false,
        message: 'Delhivery refused: could not cancel: Shipment is already delivered',
      },
    ]);
    expect(JSON.parse(sim.callsTo(EDIT).at(-2)!.body)).toEqual({ waybill: first.awb_code, cancellation: 'true' });
    expect((await status(ctx, apiKey, second.awb_code!)).shipment_status).toBe('ready_for_pickup');
  });

  it('pulls tracking in one call per batch, maps every scan, stops at delivery, and hands NDR instructions over', async () => {
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    sim.scan(
      delivered.awb_code!,
      scan('UD', 'Manifested', 'X-UCI', '2026-11-20T12:05:00', 'Manifest uploaded'),
      scan('UD', 'In Transit', 'X-PPOM', '2026-11-20T12:10:00', 'Shipment picked up'),
      scan('UD', 'In Transit', 'S-MAR', '2026-11-20T12:11:00', 'Air-restricted product. Move by surface'),
      scan('UD', 'Dispatched', 'X-DDD3FD', '2026-11-20T12:20:00', 'Out for delivery'),
      scan('DL', 'Delivered', 'EOD-38', '2026-11-20T12:25:00', 'Delivered to consignee'),
    );
    sim.scan(
      failed.awb_code!,
      scan('UD', 'In Transit', 'X-PPOM', '2026-11-20T12:10:00'),
      scan('UD', 'Dispatched', 'X-DDD3FD', '2026-11-20T12:20:00'),
      scan('UD', 'Pending', 'EOD-11', '2026-11-20T12:26:00', 'Consignee unavailable'),
    );
    // The scans are from the last hour, India time.
    ctx.clock.advance(60 * 60_000);
    const calls = sim.callsTo(TRACK).length;
    await ctx.app.courierPoller.runOnce();
    const pulled = sim
      .callsTo(TRACK)
      .slice(calls)
      .map((r) => r.query.get('waybill')!.split(','));
    expect(pulled.flat()).toEqual(expect.arrayContaining([delivered.awb_code, failed.awb_code]));
    expect(pulled.every((batch) => batch.length <= 50)).toBe(true);

    const done = await status(ctx, apiKey, delivered.awb_code!);
    expect(done).toMatchObject({ shipment_status: 'delivered', shipment_sub_status: 'delivered' });
    // Five scans the table knows (S-MAR by its word, In Transit), newest first.
    const activities = done.shipment_track_activities.map((a: { activity: string }) => a.activity);
    expect(activities).toHaveLength(5);
    expect(activities[0]).toBe('DELIVERED');
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'ndr_raised',
      shipment_sub_status: 'customer_unavailable',
    });

    expect((await post(ctx, apiKey, `${V1}/reattempt`, { awb: failed.awb_code })).statusCode).toBe(200);
    ctx.clock.advance(10 * 60_000);
    const before = sim.callsTo(TRACK).length;
    await ctx.app.courierPoller.runOnce();
    expect(sim.updates).toEqual([{ waybill: failed.awb_code, act: 'RE-ATTEMPT' }]);
    const [action] = (await status(ctx, apiKey, failed.awb_code!)).ndr_actions;
    expect(action).toMatchObject({ action: 'reattempt', acknowledged_at: ctx.clock.now().toISOString() });
    // The delivered shipment left the queue: only the open one is asked for.
    const later = sim
      .callsTo(TRACK)
      .slice(before)
      .map((r) => r.query.get('waybill'));
    expect(later).not.toContain(expect.stringContaining(delivered.awb_code!));

    expect((await post(ctx, apiKey, `${V1}/initiate-rto`, { awb: failed.awb_code })).statusCode).toBe(200);
    await ctx.app.courierPoller.runOnce();
    expect(JSON.parse(sim.callsTo(EDIT).at(-1)!.body)).toEqual({ waybill: failed.awb_code, cancellation: 'true' });
    sim.scan(
      failed.awb_code!,
      scan('RT', 'In Transit', 'RT-101', '2026-11-20T12:40:00', 'Returned as per Client Instructions'),
      scan('DL', 'RTO', 'RT-110', '2026-11-20T12:50:00', 'RTO delivered to shipper'),
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'rto_delivered',
      shipment_sub_status: 'rto_delivered',
    });
  });

  it('hands an NDR instruction over once when two pollers run at once (two processes on one database)', async () => {
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    // India time, minutes after booking.
    const at = (minutes: number) =>
      new Date(ctx.clock.now().getTime() + (330 + minutes) * 60_000).toISOString().slice(0, 19);
    sim.scan(
      failed.awb_code!,
      scan('UD', 'In Transit', 'X-PPOM', at(10)),
      scan('UD', 'Dispatched', 'X-DDD3FD', at(20)),
      scan('UD', 'Pending', 'EOD-11', at(26), 'Consignee unavailable'),
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({ shipment_status: 'ndr_raised' });
    expect((await post(ctx, apiKey, `${V1}/reattempt`, { awb: failed.awb_code })).statusCode).toBe(200);

    // Each round reads the open instructions before either has told Delhivery: both would send it
    // but for the lease the first takes.
    const rounds = await Promise.all([ctx.app.courierPoller.runOnce(), ctx.app.courierPoller.runOnce()]);
    expect(rounds.map((r) => r.instructions).sort()).toEqual([0, 1]);
    expect(sim.updates.filter((u) => u.waybill === failed.awb_code)).toEqual([
      { waybill: failed.awb_code, act: 'RE-ATTEMPT' },
    ]);
    const [action] = (await status(ctx, apiKey, failed.awb_code!)).ndr_actions;
    expect(action).toMatchObject({ action: 'reattempt', acknowledged_at: ctx.clock.now().toISOString() });
    await ctx.app.courierPoller.runOnce();
    expect(sim.updates.filter((u) => u.waybill === failed.awb_code)).toHaveLength(1);
  });

  it('backs off after a failed pull and answers 503 while Delhivery limits us', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    ctx.clock.advance(24 * 60 * 60_000);
    sim.failNext(TRACK, '500');
    const asked = () =>
      sim.callsTo(TRACK).filter((r) => r.query.get('waybill')?.split(',').includes(payload.awb_code!)).length;
    const calls = asked();
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(calls + 1);
    // Backoff: not due again for twice the base interval (2 min).
    ctx.clock.advance(60_000);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(calls + 1);
    ctx.clock.advance(61_000);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(calls + 2);

    // Delhivery's WAF: a 403 page and no Retry-After; Dakiya waits the 30 s its documentation asks.
    sim.failNext(CREATE, 'waf');
    const limited = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(limited.statusCode).toBe(503);
    expect(limited.headers['retry-after']).toBe('30');
    expect(limited.json().message).toBe(
      'Delhivery could not be reached (it is limiting our requests); nothing was changed, try again',
    );
    ctx.clock.advance(31_000);
    expect(payload.awb_code).not.toBeNull();
  });

  it('answers 503 with Retry-After once Delhivery’s WAF throttles us, calls it no more until then, and books the retried order once', async () => {
    ctx.clock.advance(60_000);
    sim.limitRate({ requests: 3, windowMs: 60_000, now: () => ctx.clock.now().getTime() });
    try {
      const { body, headers, response } = await bookUntilRefused(ctx, apiKey, () =>
        orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }),
      );
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe(
        'Delhivery could not be reached (it is limiting our requests); nothing was changed, try again',
      );
      expect(response.headers['retry-after']).toBe('30');
      const calls = sim.requests.length;
      expect((await post(ctx, apiKey, ORCHESTRATE, body, headers)).statusCode).toBe(503);
      expect(sim.requests.length).toBe(calls);
      // 30 s on, the WAF still blocks (its window is a minute here): another 30 s.
      ctx.clock.advance(30_000);
      const still = await post(ctx, apiKey, ORCHESTRATE, body, headers);
      expect([still.statusCode, still.headers['retry-after']]).toEqual([503, '30']);
      expect(sim.requests.length).toBe(calls + 1);
      ctx.clock.advance(30_000);
      const retried = await post(ctx, apiKey, ORCHESTRATE, body, headers);
      expect(retried.statusCode, retried.body).toBe(200);
      const { shipment_id: shipmentId, awb_code: awb } = retried.json().payload;
      expect([...sim.packages.values()].filter((p) => p.order === shipmentId).map((p) => p.waybill)).toEqual([awb]);
    } finally {
      sim.limitRate();
    }
  });

  it('never writes the token into logs or answers', () => {
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(SIM_TOKEN);
  });
});

describe('delhivery circuit breaker', () => {
  it('stops calling Delhivery after failures in a row (503 at once), and tries again after the cool-down', async () => {
    const sim = await startDelhiverySimulator();
    const { ctx, apiKey, warehouseId } = await start(sim, []);
    try {
      // Each failed booking is two failures (the create and the look-up before a second try); the fifth opens the circuit.
      for (let i = 0; i < 2; i++) {
        sim.failNext(CREATE, '500');
        sim.failNext(TRACK, '500');
        expect(
          (await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).statusCode,
        ).toBe(502);
      }
      sim.failNext(CREATE, '500');
      expect(
        (await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).statusCode,
      ).toBe(503);
      const calls = sim.requests.length;
      const open = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
      expect(open.statusCode).toBe(503);
      expect(open.json().message).toBe(
        'Delhivery could not be reached (it failed repeatedly just now); nothing was changed, try again',
      );
      expect(sim.requests.length).toBe(calls);
      ctx.clock.advance(31_000);
      expect(
        (await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).statusCode,
      ).toBe(200);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });

  it('keeps other accounts’ Delhivery shipments out of an account’s tracking', async () => {
    const sim = await startDelhiverySimulator();
    const { ctx, apiKey, warehouseId } = await start(sim, []);
    try {
      const mine = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
      const other = await ctx.createAccount();
      const response = await post(ctx, other.apiKey, `${V1}/order-tracking`, { awbs: [mine.awb_code] });
      expect(response.json().result[mine.awb_code!].tracking_data).toEqual({
        track_status: 0,
        error: `AWB ${mine.awb_code} not found`,
      });
      const cancel = await ctx.app.inject({
        method: 'POST',
        url: CANCEL,
        headers: authed(other.apiKey),
        payload: { awbs: [mine.awb_code] },
      });
      expect(cancel.json().results).toEqual([{ awb: mine.awb_code, cancelled: false, message: 'AWB not found' }]);
      expect(sim.callsTo(EDIT)).toHaveLength(0);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });
});
