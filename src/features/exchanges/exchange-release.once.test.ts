import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { EXCHANGE_SETTINGS, exchange, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { MINUTE } from '../../../test/kit/http.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { heldMessage } from '../../shipment-records/hold.js';

// The account's release term holds an exchange's replacement back until the old item's pickup
// (or its QC pass) is scanned; a failed QC flags the exchange.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

type Exchange = Awaited<ReturnType<typeof exchange>>;

async function bookUnder(releaseOn: string, overrides: Record<string, unknown> = {}) {
  const m = await merchant(ctx);
  const set = await ctx.app.inject({
    method: 'PUT',
    url: EXCHANGE_SETTINGS,
    headers: { authorization: m.apiKey },
    payload: { release_on: releaseOn, qc_charge: null, exchange_charge: 0 },
  });
  expect(set.statusCode).toBe(200);
  const body = exchangeBody(m.warehouseId, overrides);
  return { m, body, made: (await exchange(ctx, m.apiKey, body)) as Exchange };
}

/** The replacement's label, fetched by its signed link. */
const fetchLabel = (made: Exchange) =>
  ctx.app.inject({ method: 'GET', url: new URL(made.label_url).pathname + new URL(made.label_url).search });

async function scanPickup(made: Exchange, scan: Record<string, unknown>) {
  const token = await issueCarrierToken(ctx, made.return_shipment.courier_company_id);
  ctx.clock.advance(MINUTE);
  const [result] = await sendEvents(ctx, token, [
    { awb: made.reverse_awb, event_time: ctx.clock.now().toISOString(), ...scan } as never,
  ]);
  expect(result!.accepted).toBe(true);
}

/**
 * The account's exchange events, oldest first, as GET /events lists them once settled (on the
 * server, another test file's open transaction holds them back a moment).
 */
async function exchangeEvents(apiKey: string) {
  await eventsSettled(ctx.database);
  const types = ['exchange.created', 'exchange.replacement_released', 'exchange.qc_failed'];
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/custom/api/v1/events?${types.map((type) => `type[]=${type}`).join('&')}`,
    headers: { authorization: apiKey },
  });
  expect(response.statusCode).toBe(200);
  return (response.json().data as { type: string; data: { exchange: Record<string, unknown> } }[]).map((event) => [
    event.type,
    event.data.exchange,
  ]);
}

/** The exchange as it is now: its answer to the same order_id. */
const now = (m: { apiKey: string }, body: Record<string, unknown>) =>
  exchange(ctx, m.apiKey, body) as Promise<Exchange>;

describe("an exchange's replacement held until the old item is picked up", () => {
  it('refuses its label until the pickup scan, then prints it', async () => {
    const { m, body, made } = await bookUnder('return_picked_up');
    expect(made.exchange_order_details).toMatchObject({ status: 'awaiting_return', replacement_held: true });
    const refused = await fetchLabel(made);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'shipment_held',
      message: heldMessage(made.forward_awb, 'exchange_awaiting_return'),
    });

    await scanPickup(made, { status: 'return_picked_up' });
    const printed = await fetchLabel(made);
    expect(printed.statusCode).toBe(200);
    const exchangeData = (status: string, held: boolean) => ({
      id: made.exchange_order_id,
      display_id: made.exchange_order_details.display_id,
      unique_id: made.exchange_order_details.unique_id,
      status,
      forward_shipment_id: made.forward_shipment_id,
      forward_awb: made.forward_awb,
      return_id: made.return_id,
      return_awb: made.reverse_awb,
      release_on: 'return_picked_up',
      replacement_held: held,
      qc_failed_at: null,
    });
    expect(await exchangeEvents(m.apiKey)).toEqual([
      ['exchange.created', exchangeData('awaiting_return', true)],
      ['exchange.replacement_released', exchangeData('in_progress', false)],
    ]);
    expect(printed.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect((await now(m, body)).exchange_order_details).toMatchObject({
      status: 'in_progress',
      replacement_held: false,
      qc_failed: false,
    });
  });
});

describe("an exchange's replacement held until the old item passes QC", () => {
  it('stays held at a pickup without a QC result, and goes once QC passes', async () => {
    const { m, body, made } = await bookUnder('qc_passed');
    await scanPickup(made, { status: 'return_pickup_scheduled', sub_status: 'return_pickup_rescheduled' });
    expect((await now(m, body)).exchange_order_details.replacement_held).toBe(true);
    await scanPickup(made, { status: 'return_picked_up', qc_status: 'passed' });
    expect((await now(m, body)).exchange_order_details).toMatchObject({
      status: 'in_progress',
      replacement_held: false,
    });
    expect((await fetchLabel(made)).statusCode).toBe(200);
  });

  it('goes at the pickup when no QC was asked, there being no pass to wait on', async () => {
    const { m, body, made } = await bookUnder('qc_passed', {
      return_items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }],
    });
    expect(made.charges.reverse.qc_charges).toBe('0.00');
    await scanPickup(made, { status: 'return_picked_up' });
    expect((await now(m, body)).exchange_order_details.replacement_held).toBe(false);
  });

  it('is flagged, and stays held, when the old item fails QC', async () => {
    const { m, body, made } = await bookUnder('qc_passed');
    await scanPickup(made, {
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      qc_status: 'failed',
      qc_reason: 'Used',
    });
    expect((await now(m, body)).exchange_order_details).toMatchObject({
      status: 'qc_failed',
      replacement_held: true,
      qc_failed: true,
    });
    expect((await fetchLabel(made)).statusCode).toBe(409);
    expect(await exchangeEvents(m.apiKey)).toEqual([
      ['exchange.created', expect.objectContaining({ status: 'awaiting_return', qc_failed_at: null })],
      [
        'exchange.qc_failed',
        expect.objectContaining({
          status: 'qc_failed',
          replacement_held: true,
          qc_failed_at: ctx.clock.now().toISOString(),
        }),
      ],
    ]);
  });
});

describe('an exchange under the default term', () => {
  it('is never held, and a QC failure still flags it', async () => {
    const m = await merchant(ctx);
    const body = exchangeBody(m.warehouseId);
    const made = (await exchange(ctx, m.apiKey, body)) as Exchange;
    expect((await fetchLabel(made)).statusCode).toBe(200);
    await scanPickup(made, {
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      qc_status: 'failed',
      qc_reason: 'Torn',
    });
    expect((await now(m, body)).exchange_order_details).toMatchObject({
      status: 'qc_failed',
      replacement_held: false,
      qc_failed: true,
    });
  });
});
