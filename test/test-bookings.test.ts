import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COURIER_SETTINGS } from '../src/base/config.js';
import { defaultRatesContext } from '../src/data-files.js';
import { parseCourierCatalogue } from '../src/domain/rates/catalogue.js';
import { createTestApp, TEST_AWB_RATES, type TestContext } from './app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from './kit/couriers.js';
import { authed, ORCHESTRATE, post, SHIPMENTS } from './kit/http.js';
import { labelPath, pdfText } from './kit/labels.js';
import { orchestrate, orderBody } from './kit/orders.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { until } from './webhook-receiver.js';
import { readFileSync } from 'node:fs';

const rawCatalogue = JSON.parse(readFileSync(new URL('../data/couriers.json', import.meta.url), 'utf8'));

const BAND = 'TEST — NOT A COURIER LABEL';
const NOTICE = 'Test booking: this shipment was booked on a test courier connection. No courier will collect or deliver it.';

/** What a booking shows of its mode: the answer, the listing, the label and the tracking page (HTML and JSON). */
async function modeShown(ctx: TestContext, apiKey: string, booked: { shipment_id: string; awb_code: string | null; label_url: string | null; track_url: string | null }) {
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
    const assigned = await post(ctx, apiKey, '/custom/api/v1/forward-order-shipment', { shipment_id: created.json().payload.shipment_id, carrier_id: SHADOWFAX });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().payload).toMatchObject({ awb_code: 'SFX0000000002', test_mode: true });
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
      message: 'Shadowfax Standard has no AWB numbers left in the series it allotted (up to SF1410000999): choose another courier, or set a new awb_series in the courier catalogue',
      errors: ['Shadowfax Standard has no AWB numbers left in the series it allotted (up to SF1410000999): choose another courier, or set a new awb_series in the courier catalogue'],
      details: [{ field: 'carrier_id', message: "Shadowfax Standard's AWB series is used up" }],
    });
    // Another courier of the same catalogue, without a series, still books: as a test booking.
    const other = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(other).toMatchObject({ awb_code: 'DLS0000000001', test_mode: true });
  });
});

describe('a fresh install: the shipped catalogue and settings', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;
  const STEP_MS = DEFAULT_COURIER_SETTINGS.sandbox.stepSeconds * 1000;
  beforeAll(async () => {
    ctx = await createTestApp({
      rates: defaultRatesContext(),
      couriers: DEFAULT_COURIER_SETTINGS,
      notifications: { worker: true, pollIntervalMs: 100 },
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
      const response = await ctx.app.inject({ method: 'GET', url: `/custom/api/v1/shipments/${delivered.awb_code}/emails`, headers: authed(apiKey) });
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
