import { describe, expect, it } from 'vitest';
import { unknownField } from '../../../test/lenient-input.js';
import { type TestContext, useTestApp } from '../../../test/app.js';
import {
  at,
  authed,
  book,
  codOrderBody,
  createCityWarehouse,
  issueCarrierToken,
  merchant,
  ORCHESTRATE,
  post,
  SHADOWFAX,
  sendEvents,
  V1,
} from '../../../test/kit/index.js';
import { eventsSettled } from '../../../test/databases.js';

// Address checks and RTO risk at booking (docs/rto.md), through the booking routes; the scoring
// and the checks themselves are table-tested in src/domain/rto.

let ctx: TestContext;
let shadowfax: string;
useTestApp(async (made) => {
  ctx = made;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});

const THRESHOLDS = `${V1}/rto-risk/thresholds`;
const BUYER = '9876501234';
/** The test clock's start: bookings are made then, and scans sent from three hours later. */
const START = at(0);

/** A Shadowfax COD booking to Mumbai for `phone`, sent back to origin after a refusal. */
async function bookAndReturn(apiKey: string, warehouseId: string, phone: string) {
  const booked = await book(ctx, apiKey, warehouseId, { phone, cod: true });
  ctx.clock.set(at(180));
  await sendEvents(ctx, shadowfax, [
    { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(10) },
    { awb: booked.awb_code!, status: 'out_for_delivery', event_time: at(60) },
    { awb: booked.awb_code!, status: 'ndr_raised', ndr_reason: 'refused', event_time: at(90) },
    { awb: booked.awb_code!, status: 'rto_initiated', event_time: at(120) },
  ]);
  ctx.clock.set(START);
}

async function events(apiKey: string, type: string) {
  await eventsSettled(ctx.database);
  return (await ctx.app.inject({ method: 'GET', url: `${V1}/events?type[]=${type}`, headers: authed(apiKey) })).json()
    .data as {
    type: string;
    data: Record<string, unknown> & { shipment: { id: string; attributes: Record<string, unknown> } };
  }[];
}

describe('address checks at booking', () => {
  it('flags a bad address with its reasons, on the answer, the shipment and a shipment.address_flagged event', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, {
      billing_address: 'test',
      billing_city: 'Bengaluru',
      billing_phone: '4023456789',
    });
    const response = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload).toMatchObject({
      address_validity: 'suspicious',
      address_reasons: [
        'city_mismatch',
        'placeholder_text',
        'address_too_short',
        'no_house_or_street',
        'phone_not_mobile',
      ],
      rto_risk: 'medium',
      rto_risk_score: 50,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'address_suspicious', points: 30 },
      ],
    });
    // On PostgreSQL the event log lists an event once no older transaction on the server can still commit.
    let listed = await events(m.apiKey, 'shipment.address_flagged');
    for (const deadline = Date.now() + 120_000; listed.length === 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = await events(m.apiKey, 'shipment.address_flagged');
    }
    const [flagged, ...more] = listed;
    expect(more).toEqual([]);
    expect(flagged!.data).toMatchObject({
      address_validity: 'suspicious',
      address_reasons: [
        'city_mismatch',
        'placeholder_text',
        'address_too_short',
        'no_house_or_street',
        'phone_not_mobile',
      ],
    });
    expect(flagged!.data.shipment.id).toBe(payload.shipment_id);
    expect(flagged!.data.shipment.attributes).toMatchObject({
      address_validity: 'suspicious',
      rto_risk: 'medium',
      rto_risk_score: 50,
    });
  });

  it('flags nothing for a full address', async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, ORCHESTRATE, codOrderBody(m.warehouseId));
    expect(response.json().payload).toMatchObject({
      address_validity: 'valid',
      address_reasons: [],
      rto_risk: 'low',
      rto_risk_score: 20,
    });
    expect(await events(m.apiKey, 'shipment.address_flagged')).toEqual([]);
  });
});

describe("RTO risk from the account's delivered history", () => {
  it('makes a buyer with two earlier RTOs high risk, in this account only', async () => {
    const other = await ctx.createAccount();
    const otherWarehouse = await createCityWarehouse(ctx, other.apiKey);
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const first = await book(ctx, apiKey, warehouseId, { phone: BUYER, cod: true });
    expect(first).toMatchObject({ rto_risk: 'low', rto_risk_reasons: [{ reason: 'cod', points: 20 }] });

    await bookAndReturn(other.apiKey, otherWarehouse, BUYER);
    await bookAndReturn(other.apiKey, otherWarehouse, BUYER);
    // The other account's RTOs of the same phone do not raise this account's risk.
    expect(await book(ctx, apiKey, warehouseId, { phone: BUYER, cod: true })).toMatchObject({
      rto_risk: 'low',
      rto_risk_score: 20,
    });
    expect(await book(ctx, other.apiKey, otherWarehouse, { phone: BUYER, cod: true })).toMatchObject({
      rto_risk: 'high',
      rto_risk_score: 100,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'buyer_rto_history', points: 60 },
        { reason: 'buyer_refusal_history', points: 20 },
      ],
    });
    // A prepaid order of that buyer: the two RTOs alone are high.
    expect(await book(ctx, other.apiKey, otherWarehouse, { phone: BUYER })).toMatchObject({
      rto_risk: 'high',
      rto_risk_score: 80,
    });
  });

  it('lowers the risk of a buyer delivered to before', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    for (let i = 0; i < 2; i++) {
      const booked = await book(ctx, apiKey, warehouseId, { phone: '9876505678', cod: true });
      ctx.clock.set(at(180));
      await sendEvents(ctx, shadowfax, [
        { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(10) },
        { awb: booked.awb_code!, status: 'delivered', event_time: at(100) },
      ]);
      ctx.clock.set(START);
    }
    expect(await book(ctx, apiKey, warehouseId, { phone: '9876505678', cod: true })).toMatchObject({
      rto_risk: 'low',
      rto_risk_score: 5,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'buyer_delivered_before', points: -15 },
      ],
    });
  });
});

describe('the thresholds', () => {
  it('reads the defaults, sets new ones that bookings are scored against, and keeps them to the account', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const get = (apiKey: string) => ctx.app.inject({ method: 'GET', url: THRESHOLDS, headers: authed(apiKey) });
    expect((await get(m.apiKey)).json()).toEqual({
      data: { medium: 30, high: 60, high_value_cod: 3000, default: true },
    });
    const set = await ctx.app.inject({
      method: 'PUT',
      url: THRESHOLDS,
      headers: authed(m.apiKey),
      payload: { medium: 10, high: 40, high_value_cod: 900.5 },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { medium: 10, high: 40, high_value_cod: 900.5, default: false } });
    expect((await get(m.apiKey)).json().data).toEqual({ medium: 10, high: 40, high_value_cod: 900.5, default: false });
    // ₹998 COD: 20 for COD and 15 for a value above ₹900.50 is medium here, low in the other account.
    expect((await post(ctx, m.apiKey, ORCHESTRATE, codOrderBody(m.warehouseId))).json().payload).toMatchObject({
      rto_risk: 'medium',
      rto_risk_score: 35,
    });
    expect((await post(ctx, other.apiKey, ORCHESTRATE, codOrderBody(other.warehouseId))).json().payload).toMatchObject({
      rto_risk: 'low',
      rto_risk_score: 20,
    });
    expect((await get(other.apiKey)).json().data.default).toBe(true);
  });

  it('takes numbers sent as text and ignores unknown fields, naming them, as every /custom/api/v1 route does', async () => {
    const m = await merchant(ctx);
    const payload = { medium: '20', high: 45, high_value_cod: '1999.99', notify: true };
    const response = await ctx.app.inject({ method: 'PUT', url: THRESHOLDS, headers: authed(m.apiKey), payload });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('notify');
    expect(response.json()).toEqual({
      data: { medium: 20, high: 45, high_value_cod: 1999.99, default: false },
      warnings: [unknownField('notify')],
    });
  });

  it.each([
    [{ medium: 0, high: 1001, high_value_cod: -1 }, 400, ['medium', 'high', 'high_value_cod']],
    [{ medium: 30, high: 60 }, 400, ['high_value_cod']],
    [{ medium: 60, high: 60, high_value_cod: 3000 }, 422, ['medium']],
    [{ medium: 30, high: 60, high_value_cod: 10.005 }, 400, ['high_value_cod']],
  ])('refuses %j, naming every bad field', async (payload, status, fields) => {
    const m = await merchant(ctx);
    const response = await ctx.app.inject({ method: 'PUT', url: THRESHOLDS, headers: authed(m.apiKey), payload });
    expect(response.statusCode).toBe(status);
    expect(response.json().code).toBe(status === 422 ? 'rto_thresholds_invalid' : 'invalid_request');
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(fields);
    expect(
      (await ctx.app.inject({ method: 'GET', url: THRESHOLDS, headers: authed(m.apiKey) })).json().data.default,
    ).toBe(true);
  });
});

describe("the listing's filters", () => {
  const list = async (apiKey: string, filters: Record<string, unknown>) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/shipments`,
      headers: authed(apiKey),
      payload: filters,
    });
    return response;
  };
  const ids = async (apiKey: string, filters: Record<string, unknown>) => {
    const body = (await list(apiKey, filters)).json();
    return { ids: body.data.map((e: { id: string }) => e.id).sort(), total: body.meta.total };
  };

  it('filters on rto_risk, address_validity[] and ndr_all_outcomes[], counting exactly', async () => {
    const m = await merchant(ctx);
    const flagged = (
      await post(ctx, m.apiKey, ORCHESTRATE, codOrderBody(m.warehouseId, { billing_address: 'asdf' }))
    ).json().payload.shipment_id;
    const fine = (await post(ctx, m.apiKey, ORCHESTRATE, codOrderBody(m.warehouseId))).json().payload.shipment_id;
    expect(await ids(m.apiKey, { rto_risk: 'medium' })).toEqual({ ids: [flagged], total: 1 });
    expect(await ids(m.apiKey, { rto_risk: ['low', 'high'] })).toEqual({ ids: [fine], total: 1 });
    expect(await ids(m.apiKey, { 'address_validity[]': ['incomplete', 'suspicious'] })).toEqual({
      ids: [flagged],
      total: 1,
    });
    expect(await ids(m.apiKey, { address_validity: 'valid', rto_risk: 'low' })).toEqual({ ids: [fine], total: 1 });
    expect(await ids(m.apiKey, { 'ndr_all_outcomes[]': ['reattempt', 'rto', 'buyer_message'] })).toEqual({
      ids: [],
      total: 0,
    });
  });

  it.each([
    [{ rto_risk: 'severe' }, ['rto_risk']],
    [{ 'address_validity[]': ['valid', 'fake'] }, ['address_validity[]', 'address_validity[].1']],
    [{ ndr_all_outcomes: 'called' }, ['ndr_all_outcomes']],
  ])('refuses %j naming the field', async (filters, fields) => {
    const m = await merchant(ctx);
    const response = await list(m.apiKey, filters);
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(fields);
  });
});
