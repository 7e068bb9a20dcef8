import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../src/settings.js';
import { defaultRatesContext } from '../src/data-files.js';
import { parseCourierCatalogue } from '../src/domain/rates/catalogue.js';
import { createTestApp, TEST_AWB_RATES, type TestContext } from './app.js';
import { DELHIVERY_SURFACE, ratesWith, SHADOWFAX } from './kit/couriers.js';
import { withSimulatedCouriers } from '../src/couriers/with-connectors.js';
import { SIM_TOKEN, startDelhiverySimulator } from '../src/demo/simulators/delhivery-simulator.js';
import {
  authed,
  ORCHESTRATE,
  post,
  REVERSE_ASSIGN,
  REVERSE_ORCHESTRATE,
  REVERSE_ORDER,
  SHIPMENTS,
} from './kit/http.js';
import { returnBody } from './kit/returns.js';
import { countRows } from './kit/rows.js';
import { openTestDatabase } from './databases.js';
import { type Database, queryRows } from '../src/base/db/client.js';
import { sql } from 'drizzle-orm';
import { labelPath, pdfText } from './kit/labels.js';
import { orchestrate, orderBody } from './kit/orders.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { until } from './webhook-receiver.js';
import { readFileSync } from 'node:fs';

const rawCatalogue = JSON.parse(readFileSync(new URL('../data/couriers.json', import.meta.url), 'utf8'));

const BAND = 'TEST — NOT A COURIER LABEL';
const NOTICE =
  'Test booking: this shipment was booked on a test courier connection. No courier will collect or deliver it.';

/** What a booking shows of its mode: the answer, the listing, the label and the tracking page (HTML and JSON). */
async function modeShown(
  ctx: TestContext,
  apiKey: string,
  booked: { shipment_id: string; awb_code: string | null; label_url: string | null; track_url: string | null },
) {
  const listed = await post(ctx, apiKey, SHIPMENTS, { search: booked.awb_code });
  expect(listed.statusCode).toBe(200);
  const label = await ctx.app.inject({ method: 'GET', url: labelPath(booked.label_url!) });
  expect(label.statusCode).toBe(200);
  const page = await ctx.app.inject({ method: 'GET', url: new URL(booked.track_url!).pathname });
  const json = await ctx.app.inject({ method: 'GET', url: `${new URL(booked.track_url!).pathname}.json` });
  expect(page.statusCode).toBe(200);
  return {
    listing: listed.json().data.map((s: { attributes: { test_mode: boolean } }) => s.attributes.test_mode),
    band: (await pdfText(label.rawPayload)).includes(BAND),
    notice: page.body.includes(NOTICE),
    json: json.json().test_mode,
  };
}

describe('a push courier without an allotted AWB series', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;
  beforeAll(async () => {
    ctx = await createTestApp({ rates: TEST_AWB_RATES });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createCityWarehouse(ctx, apiKey);
  });
  afterAll(() => ctx?.close());

  it('books test bookings: test_mode in the answer, the listing and the tracking page, and a TEST band on the label', async () => {
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(booked).toMatchObject({ awb_code: 'SFX0000000001', courier_company_id: SHADOWFAX, test_mode: true });
    expect(await modeShown(ctx, apiKey, booked)).toEqual({ listing: [true], band: true, notice: true, json: true });
  });

  it('an order not yet booked is no test booking: test_mode false until a courier is', async () => {
    const created = await post(ctx, apiKey, '/custom/api/v1/forward-order', orderBody(warehouseId));
    expect(created.statusCode).toBe(200);
    expect(created.json().payload).toMatchObject({ awb_code: null, test_mode: false });
    const assigned = await post(ctx, apiKey, '/custom/api/v1/forward-order-shipment', {
      shipment_id: created.json().payload.shipment_id,
      carrier_id: SHADOWFAX,
    });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().payload).toMatchObject({ awb_code: 'SFX0000000002', test_mode: true });
  });

  it('a return booked on it is a test booking too, as forward ones are; not before its courier is booked', async () => {
    const booked = await post(ctx, apiKey, REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: SHADOWFAX }));
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().payload).toMatchObject({
      awb_code: 'SFX0000000003',
      courier_company_id: SHADOWFAX,
      test_mode: true,
    });
    const created = await post(ctx, apiKey, REVERSE_ORDER, returnBody(warehouseId));
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().payload).toMatchObject({ awb_code: null, test_mode: false });
  });
});

describe("a courier API's connector pointed at a simulator of the courier (npm run demo)", () => {
  let sim: Awaited<ReturnType<typeof startDelhiverySimulator>>;
  /** The same connector and simulator, the service marked as simulated or not. */
  const apps: TestContext[] = [];
  async function merchant(simulated: boolean) {
    const rates = ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' });
    const ctx = await createTestApp({
      rates: simulated ? withSimulatedCouriers(rates, [DELHIVERY_SURFACE]) : rates,
      settings: { couriers: { delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl }, timeoutMs: 2000 } },
    });
    apps.push(ctx);
    const { apiKey } = await ctx.createAccount();
    return { ctx, apiKey, warehouseId: await createCityWarehouse(ctx, apiKey) };
  }
  const connection = async (ctx: TestContext, apiKey: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/courier-connections', headers: authed(apiKey) }))
      .json()
      .data.find((c: { carrier_id: string }) => c.carrier_id === DELHIVERY_SURFACE);
  beforeAll(async () => {
    sim = await startDelhiverySimulator();
  });
  afterAll(async () => {
    for (const ctx of apps) await ctx.close();
    await sim?.close();
  });

  it('books through the connector as a test booking everywhere a sandbox one is: answer, listing, label band, tracking page, Settings', async () => {
    const { ctx, apiKey, warehouseId } = await merchant(true);
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    // The simulator issued the waybill through Delhivery's API, as Delhivery would.
    expect(booked).toMatchObject({ courier_company_id: DELHIVERY_SURFACE, test_mode: true });
    expect(sim.packages.has(booked.awb_code!)).toBe(true);
    expect(await modeShown(ctx, apiKey, booked)).toEqual({ listing: [true], band: true, notice: true, json: true });
    expect(await connection(ctx, apiKey)).toMatchObject({ connector: 'delhivery', test_bookings: true });
  });

  it('the same connector and simulator unmarked books real bookings: no band, no notice', async () => {
    const { ctx, apiKey, warehouseId } = await merchant(false);
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(booked).toMatchObject({ courier_company_id: DELHIVERY_SURFACE, test_mode: false });
    expect(await modeShown(ctx, apiKey, booked)).toEqual({ listing: [false], band: false, notice: false, json: false });
    expect(await connection(ctx, apiKey)).toMatchObject({ connector: 'delhivery', test_bookings: false });
  });
});

describe('a push courier with the AWB series it allotted (awb_series in the catalogue)', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;
  beforeAll(async () => {
    const file = structuredClone(rawCatalogue) as { couriers: Record<string, unknown>[] };
    for (const courier of file.couriers) {
      courier.connector = 'push';
      if (courier.id === SHADOWFAX) courier.awb_series = { first: 'SF1410000998', last: 'SF1410000999' };
    }
    const catalogue = parseCourierCatalogue(file, 'couriers.json', defaultRatesContext().directory);
    ctx = await createTestApp({ rates: { ...defaultRatesContext(), catalogue } });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createCityWarehouse(ctx, apiKey);
  });
  afterAll(() => ctx?.close());

  it('draws AWBs from the series in order, books real bookings (no band, no notice), and refuses with 422 once the series is used up', async () => {
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(first).toMatchObject({ awb_code: 'SF1410000998', test_mode: false });
    expect(await modeShown(ctx, apiKey, first)).toEqual({ listing: [false], band: false, notice: false, json: false });
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(second).toMatchObject({ awb_code: 'SF1410000999', test_mode: false });

    const third = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(third.statusCode).toBe(422);
    expect(third.json()).toEqual({
      code: 'awb_series_exhausted',
      message:
        'Shadowfax Standard has no AWB numbers left in the series it allotted (up to SF1410000999): choose another courier, or set a new awb_series in the courier catalogue',
      errors: [
        'Shadowfax Standard has no AWB numbers left in the series it allotted (up to SF1410000999): choose another courier, or set a new awb_series in the courier catalogue',
      ],
      details: [{ field: 'carrier_id', message: "Shadowfax Standard's AWB series is used up" }],
    });
    // Another courier of the same catalogue, without a series, still books: as a test booking.
    const other = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(other).toMatchObject({ awb_code: 'DLS0000000001', test_mode: true });
  });
});

/** The shipped catalogue on push, with Shadowfax on the series `first`…`last` when given. */
function shadowfaxSeries(series?: { first: string; last: string }) {
  const file = structuredClone(rawCatalogue) as { couriers: Record<string, unknown>[] };
  for (const courier of file.couriers) {
    courier.connector = 'push';
    if (series && courier.id === SHADOWFAX) courier.awb_series = series;
  }
  return {
    ...defaultRatesContext(),
    catalogue: parseCourierCatalogue(file, 'couriers.json', defaultRatesContext().directory),
  };
}

describe('an allotted AWB series that overlaps AWBs already issued (test bookings numbered with its prefix)', () => {
  let database: Database;
  let testBookings: TestContext;
  let alloted: TestContext;
  let apiKey: string;
  let warehouseId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    testBookings = await createTestApp({ database, rates: shadowfaxSeries() });
    ({ apiKey } = await testBookings.createAccount());
    warehouseId = await createCityWarehouse(testBookings, apiKey);
    for (const awb of ['SFX0000000001', 'SFX0000000002', 'SFX0000000003']) {
      expect(await orchestrate(testBookings, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }))).toMatchObject({
        awb_code: awb,
        test_mode: true,
      });
    }
  });
  afterAll(async () => {
    await testBookings?.app.close();
    await alloted?.app.close();
    await database?.close();
  });

  it('stops start-up, naming the AWB and the series', async () => {
    await expect(
      createTestApp({ database, rates: shadowfaxSeries({ first: 'SFX0000000002', last: 'SFX0000000100' }) }),
    ).rejects.toThrow(
      'Shadowfax Standard (CARSHFXSTD001): its awb_series (SFX0000000002 to SFX0000000100) holds AWB SFX0000000002, already issued to a ' +
        'shipment or return (test bookings are numbered with the same prefix): set awb_series in the courier catalogue to start after the AWBs already issued',
    );
  });

  it('a waybill issued after start-up is a 409 naming it and the series, writing nothing; the next number books', async () => {
    alloted = await createTestApp({
      database,
      rates: shadowfaxSeries({ first: 'SFX0000000004', last: 'SFX0000000100' }),
    });
    // Another process, still without the series, numbers two more test bookings into it.
    expect(await orchestrate(testBookings, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }))).toMatchObject({
      awb_code: 'SFX0000000004',
    });
    const testReturn = await post(
      testBookings,
      apiKey,
      REVERSE_ORCHESTRATE,
      returnBody(warehouseId, { carrierId: SHADOWFAX }),
    );
    expect(testReturn.json().payload).toMatchObject({ awb_code: 'SFX0000000005', test_mode: true });

    const taken = (awb: string) => {
      const message =
        `AWB ${awb} from the AWB series Shadowfax Standard allotted (SFX0000000004 to SFX0000000100) is already issued to another shipment ` +
        'or return, so nothing was booked: set awb_series in the courier catalogue to start after the AWBs already issued, or choose another courier';
      return { code: 'awb_taken', message, errors: [message], details: [{ field: 'carrier_id', message }] };
    };
    const counts = async () =>
      Promise.all(
        ['orders', 'order_items', 'shipments', 'returns', 'events'].map((table) => countRows(database, table)),
      );
    const before = await counts();
    const forward = await post(alloted, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(forward.statusCode, forward.body).toBe(409);
    expect(forward.json()).toEqual(taken('SFX0000000004'));
    const back = await post(alloted, apiKey, REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: SHADOWFAX }));
    expect(back.statusCode, back.body).toBe(409);
    expect(back.json()).toEqual(taken('SFX0000000005'));
    expect(await counts()).toEqual(before);

    // A courier assigned to a waiting return later (reverse-order-shipment) meets the same refusal,
    // and the return keeps waiting for one.
    const waiting = await post(alloted, apiKey, REVERSE_ORDER, returnBody(warehouseId));
    expect(waiting.statusCode, waiting.body).toBe(200);
    const returnId = waiting.json().payload.return_id as string;
    const another = await post(
      testBookings,
      apiKey,
      REVERSE_ORCHESTRATE,
      returnBody(warehouseId, { carrierId: SHADOWFAX }),
    );
    expect(another.json().payload).toMatchObject({ awb_code: 'SFX0000000006', test_mode: true });
    const assigned = await post(alloted, apiKey, REVERSE_ASSIGN, { return_id: returnId, carrier_id: SHADOWFAX });
    expect(assigned.statusCode, assigned.body).toBe(409);
    expect(assigned.json()).toEqual(taken('SFX0000000006'));
    const [left] = await queryRows<{ awb: string | null }>(
      database.db,
      sql`select awb from returns where id = ${returnId}`,
    );
    expect(left).toEqual({ awb: null });

    expect(await orchestrate(alloted, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }))).toMatchObject({
      awb_code: 'SFX0000000007',
      test_mode: false,
    });
    const booked = await post(alloted, apiKey, REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: SHADOWFAX }));
    expect(booked.json().payload).toMatchObject({ awb_code: 'SFX0000000008', test_mode: false });
  });
});

describe('a fresh install: the shipped catalogue and settings', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;
  const STEP_MS = defaultSettings().couriers.sandbox.stepSeconds * 1000;
  beforeAll(async () => {
    ctx = await createTestApp({
      rates: defaultRatesContext(),
      settings: { workers: { pollIntervalMs: 100 } },
      delivery: ['notifications'],
    });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createCityWarehouse(ctx, apiKey);
  });
  afterAll(() => ctx?.close());

  const status = async (awb: string) => {
    const listed = await post(ctx, apiKey, SHIPMENTS, { search: awb });
    const a = listed.json().data[0].attributes;
    return `${a.status}/${a.sub_status}`;
  };
  /** Moves the clock one sandbox step (a minute by default) and runs a poller round. */
  async function step() {
    ctx.clock.advance(STEP_MS);
    await ctx.app.courierPoller.runOnce();
  }

  it('books on the sandbox: a test booking that is picked up a minute later and delivered four; an order id ending in 6 meets an NDR', async () => {
    expect(STEP_MS).toBe(60_000);
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { order_id: `FIRST-${process.pid}-1` }));
    const ndr = await orchestrate(ctx, apiKey, orderBody(warehouseId, { order_id: `FIRST-${process.pid}-6` }));
    expect(delivered.test_mode).toBe(true);
    expect(await modeShown(ctx, apiKey, delivered)).toEqual({ listing: [true], band: true, notice: true, json: true });
    await ctx.app.courierPoller.runOnce();
    expect(await status(delivered.awb_code!)).toBe('pending/null');
    await step();
    expect(await status(delivered.awb_code!)).toBe('in_transit/picked_up');
    await step();
    await step();
    expect(await status(delivered.awb_code!)).toBe('out_for_delivery/out_for_delivery');
    await step();
    expect(await status(delivered.awb_code!)).toBe('delivered/delivered');
    expect(await status(ndr.awb_code!)).toBe('ndr_raised/customer_unavailable');

    // The customer's e-mails, kept in the outbox (no SMTP_URL): booked, out for delivery, delivered.
    type Email = { notify_event: string; status: string; to: string; subject: string; text: string; html: string };
    let emails: Email[] = [];
    await until(async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/custom/api/v1/shipments/${delivered.awb_code}/emails`,
        headers: authed(apiKey),
      });
      emails = response.json().data;
      return emails.length === 3;
    }, 'three e-mails in the outbox');
    expect(emails.map((e) => [e.notify_event, e.status, e.to])).toEqual([
      ['shipped', 'outbox', 'asha@example.com'],
      ['out_for_delivery', 'outbox', 'asha@example.com'],
      ['delivered', 'outbox', 'asha@example.com'],
    ]);
  });
});
