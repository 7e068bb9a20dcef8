import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, codOrderBody, merchant, ORCHESTRATE, post, V1 } from '../../../test/kit/index.js';
import { until } from '../../../test/webhook-receiver.js';
import { eventsSettled } from '../../../test/databases.js';

// The merchant's order update re-runs the address checks and RTO risk (decision 93).

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const ORDER = `${V1}/order`;
const put = (apiKey: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PUT', url: ORDER, headers: authed(apiKey), payload });
async function checked(apiKey: string) {
  await eventsSettled(ctx.database);
  return (
    await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?type[]=shipment.address_checked`,
      headers: authed(apiKey),
    })
  ).json().data as {
    data: Record<string, unknown> & { shipment: { id: string; attributes: Record<string, unknown> } };
  }[];
}

/** A booked COD order to Mumbai whose address has no house number or street word: incomplete. */
async function incompleteOrder(apiKey: string, warehouseId: string) {
  const body = codOrderBody(warehouseId, { billing_address: 'Asha Sharma Colaba' });
  const response = await post(ctx, apiKey, ORCHESTRATE, body);
  expect(response.statusCode, response.body).toBe(200);
  const payload = response.json().payload;
  expect(payload).toMatchObject({
    address_validity: 'incomplete',
    address_reasons: ['no_house_or_street'],
    rto_risk_score: 35,
  });
  return { orderId: body.order_id as string, shipmentId: payload.shipment_id as string };
}

describe('PUT /order re-checks the address and the risk', () => {
  it('a corrected address answers valid, the risk re-scored, and records shipment.address_checked with the verdict before', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const { orderId, shipmentId } = await incompleteOrder(m.apiKey, m.warehouseId);
    const response = await put(m.apiKey, { order_id: orderId, billing_address: '14, Shivaji Marg, Colaba' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload).toMatchObject({
      address_validity: 'valid',
      address_reasons: [],
      rto_risk: 'low',
      rto_risk_score: 20,
      rto_risk_reasons: [{ reason: 'cod', points: 20 }],
    });
    await until(async () => (await checked(m.apiKey)).length === 1, 'the address_checked event');
    const [event] = await checked(m.apiKey);
    expect(event!.data.shipment.id).toBe(shipmentId);
    expect(event!.data).toMatchObject({
      previous: {
        address_validity: 'incomplete',
        address_reasons: ['no_house_or_street'],
        rto_risk: 'medium',
        rto_risk_score: 35,
      },
      address_validity: 'valid',
      address_reasons: [],
      rto_risk: 'low',
      rto_risk_score: 20,
      changed: ['address'],
      checked_by: 'merchant',
    });
    expect(event!.data.shipment.attributes).toMatchObject({ address_validity: 'valid', rto_risk: 'low' });
    // Another account's feed never carries it.
    expect(await checked(other.apiKey)).toEqual([]);
  });

  it('a phone turned landline makes it incomplete again; a change elsewhere re-checks nothing', async () => {
    const m = await merchant(ctx);
    const { orderId } = await incompleteOrder(m.apiKey, m.warehouseId);
    const fixed = await put(m.apiKey, { order_id: orderId, billing_address: '14, Shivaji Marg, Colaba' });
    expect(fixed.json().payload.address_validity).toBe('valid');
    const landline = await put(m.apiKey, { order_id: orderId, billing_phone: '2223456789' });
    expect(landline.statusCode, landline.body).toBe(200);
    expect(landline.json().payload).toMatchObject({
      address_validity: 'incomplete',
      address_reasons: ['phone_not_mobile'],
      rto_risk_score: 35,
    });
    const email = await put(m.apiKey, { order_id: orderId, billing_email: 'asha.sharma@example.in' });
    expect(email.statusCode, email.body).toBe(200);
    expect(email.json().payload).toMatchObject({ address_validity: 'incomplete', rto_risk_score: 35 });
    await until(async () => (await checked(m.apiKey)).length === 2, 'two address_checked events');
    expect((await checked(m.apiKey)).map((e) => e.data.changed).sort()).toEqual([['address'], ['phone']]);
  });

  it('an update refused for a bad field changes neither the verdict nor the events', async () => {
    const m = await merchant(ctx);
    const { orderId } = await incompleteOrder(m.apiKey, m.warehouseId);
    const refused = await put(m.apiKey, {
      order_id: orderId,
      billing_address: '14, Shivaji Marg',
      billing_phone: '12',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.some((e: string) => e.includes('phone'))).toBe(true);
    const again = await put(m.apiKey, { order_id: orderId, billing_email: 'x@example.in' });
    expect(again.json().payload).toMatchObject({ address_validity: 'incomplete', rto_risk_score: 35 });
    expect(await checked(m.apiKey)).toEqual([]);
  });
});
