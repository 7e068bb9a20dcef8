import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  authed,
  ORCHESTRATE,
  ORDER_TRACKING,
  post,
  RETURNS,
  REVERSE_ORCHESTRATE,
  SHIPMENTS,
  V1,
} from '../../../test/kit/http.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { deliveredForward, returnBody } from '../../../test/kit/returns.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { REATTEMPT } from '../../../test/ndr.js';
import { eventsSettled } from '../../../test/databases.js';

// Issue 26: every answer is written as JSON.stringify writes it. The listing's elements are written
// by the database, whose json_build_object and jsonb put spaces around ':' and after ','; these
// answers carry every part the database writes (items, milestones, scans, an NDR action's details
// and vendor details, both jsonb, a return) with text that looks like JSON's punctuation.

const TRICKY = 'Kurta "Blue" : L, {size} [2] \\ back';
const VENDOR = {
  name: 'Shop "A": Sector 5, Noida',
  address: 'Plot 7, Phase 2',
  city: 'Noida',
  state: 'Uttar Pradesh',
  country: 'India',
};
const UPDATED_ADDRESS = { address_line: 'Flat 3B, 42 "Lotus": 5th Cross', landmark: 'Behind the temple, left' };

let ctx: TestContext;
let apiKey: string;
let awb: string;
let returnAwb: string;
useTestApp(async (made) => {
  ctx = made;
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  ({ apiKey } = await ctx.createAccount('Compact JSON'));
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const body = {
    ...orderBodyFromFields(warehouseId, {
      carrierId: SHADOWFAX,
      items: [{ name: TRICKY, sku: 'SKU-1', units: 1, selling_price: 499.5 }],
      value: 499.5,
    }),
    vendor_details: VENDOR,
  };
  const booked = await post(ctx, apiKey, ORCHESTRATE, body);
  expect(booked.statusCode, booked.body).toBe(200);
  awb = booked.json().payload.awb_code;
  const token = await issueCarrierToken(ctx, SHADOWFAX);
  const at = (time: string) => `2026-11-20T${time}:00.000Z`;
  ctx.clock.set(at('10:00'));
  const results = await sendEvents(ctx, token, [
    { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at('06:40'), location: 'Okhla, "Hub" : 2' },
    { awb, status: 'out_for_delivery', event_time: at('07:30') },
    { awb, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: at('08:00') },
  ]);
  expect(
    results.map((r) => r.accepted),
    JSON.stringify(results),
  ).toEqual([true, true, true]);
  const action = await ctx.app.inject({
    method: 'POST',
    url: REATTEMPT,
    headers: authed(apiKey),
    payload: { awb, updated_address: UPDATED_ADDRESS },
  });
  expect(action.statusCode, action.body).toBe(200);
  const forward = await deliveredForward(ctx, { apiKey, warehouseId });
  const returned = await post(ctx, apiKey, REVERSE_ORCHESTRATE, {
    ...returnBody(warehouseId),
    forward_awb: forward.awb_code,
  });
  expect(returned.statusCode, returned.body).toBe(200);
  returnAwb = returned.json().payload.awb_code;
});

/** The answer's bytes are JSON.stringify's of what they say. */
function expectCompact(body: string) {
  expect(body).toBe(JSON.stringify(JSON.parse(body)));
}

describe('answers written from the database are byte-identical to JSON.stringify', () => {
  it('POST /shipments, with every part the database writes, keeping the text of the values', async () => {
    const response = await post(ctx, apiKey, SHIPMENTS, { per_page: 100 });
    expect(response.statusCode).toBe(200);
    expectCompact(response.body);
    const element = response
      .json()
      .data.find((e: { attributes: { tracking_number: string } }) => e.attributes.tracking_number === awb);
    expect(element.attributes.items).toEqual([
      { id: expect.any(String), quantity: 1, price: 499.5, name: TRICKY, sku: 'SKU-1' },
    ]);
    expect(element.attributes.order.vendor_details).toEqual(VENDOR);
    expect(element.attributes.ndr_actions).toHaveLength(1);
    expect(element.attributes.ndr_actions[0].details.updated_address).toEqual(UPDATED_ADDRESS);
    expect(element.attributes.tracking_details[0].last_location).toBe('Okhla, "Hub" : 2');
    expect(response.json().data.some((e: { attributes: { return: unknown } }) => e.attributes.return !== null)).toBe(
      true,
    );
  });

  it('POST /returns', async () => {
    const response = await post(ctx, apiKey, RETURNS, {});
    expect(response.statusCode).toBe(200);
    expectCompact(response.body);
    expect(response.body).toContain(returnAwb);
  });

  it('POST /order-tracking', async () => {
    const response = await post(ctx, apiKey, ORDER_TRACKING, { awbs: [awb, returnAwb] });
    expect(response.statusCode).toBe(200);
    expectCompact(response.body);
  });

  it('GET /events, whose snapshots are the listing elements', async () => {
    await eventsSettled(ctx.database);
    const response = await ctx.app.inject({ method: 'GET', url: `${V1}/events`, headers: authed(apiKey) });
    expect(response.statusCode).toBe(200);
    expectCompact(response.body);
    expect(response.body).toContain('Shop \\"A\\": Sector 5, Noida');
  });
});
