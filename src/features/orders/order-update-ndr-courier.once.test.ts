import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { ratesWith, XPRESSBEES } from '../../../test/kit/couriers.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import {
  startXpressbeesSimulator,
  XPRESSBEES_EMAIL,
  XPRESSBEES_PASSWORD,
  type XpressbeesSimulator,
} from '../../demo/simulators/xpressbees-simulator.js';

// Issue 46: an address a merchant corrects with PUT /order during a failed delivery reaches a
// courier that takes instructions through its API as a reattempt's updated_address does: here
// Xpressbees' simulator gets the reattempt with change_address and change_phone. The push couriers'
// side, and the rules, are in order-update-ndr.once.test.ts on both engines.

let sim: XpressbeesSimulator;
let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  sim = await startXpressbeesSimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [XPRESSBEES]: 'xpressbees' }),
    settings: {
      couriers: {
        xpressbees: { email: XPRESSBEES_EMAIL, password: XPRESSBEES_PASSWORD, baseUrl: sim.baseUrl },
        timeoutMs: 2000,
        pollSeconds: 60,
      },
    },
  });
  apiKey = (await ctx.createAccount()).apiKey;
  warehouseId = await createWarehouse(ctx, apiKey);
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('PUT /order during a failed delivery, on a courier told through its API', () => {
  it('hands Xpressbees the reattempt with the corrected address and phone, and acknowledges it', async () => {
    const body = orderBody(warehouseId, { carrier_id: XPRESSBEES });
    const booked = await orchestrate(ctx, apiKey, body);
    const awb = booked.awb_code!;
    const at = (minutes: number) => {
      const ist = new Date(ctx.clock.now().getTime() + 330 * 60_000 + minutes * 60_000).toISOString();
      return `${ist.slice(0, 10)} ${ist.slice(11, 16)}`;
    };
    sim.scan(
      awb,
      { status_code: 'PKD', event_time: at(10), message: 'SHIPMENT PICKED UP' },
      { status_code: 'OFD', event_time: at(20), message: 'SHIPMENT OUT FOR DELIVERY' },
      { status_code: 'EX', event_time: at(26), message: 'CONSIGNEE NOT REACHABLE' },
    );
    ctx.clock.advance(60 * 60_000);
    await ctx.app.courierPoller.runOnce();

    const response = await ctx.app.inject({
      method: 'PUT',
      url: `${V1}/order`,
      headers: authed(apiKey),
      payload: {
        order_id: body.order_id,
        billing_address: '14 Marine Drive, Flat 3',
        billing_address_2: 'Opposite the Oval',
        billing_phone: '9876543210',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    ctx.clock.advance(10 * 60_000);
    await ctx.app.courierPoller.runOnce();

    expect(sim.ndrActions).toEqual([
      { awb, action: 're-attempt', action_data: { re_attempt_date: '2026-11-21' } },
      {
        awb,
        action: 'change_address',
        action_data: { name: 'Asha Menon', address_1: '14 Marine Drive, Flat 3', address_2: 'Opposite the Oval' },
      },
      { awb, action: 'change_phone', action_data: { phone: '9876543210' } },
    ]);
    const tracked = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/order-tracking`,
      headers: authed(apiKey),
      payload: { awbs: [awb] },
    });
    const [action] = tracked.json().result[awb].tracking_data.ndr_actions;
    expect(action).toMatchObject({
      action: 'reattempt',
      acknowledged_at: ctx.clock.now().toISOString(),
      details: { address_correction: true },
    });
  });
});
