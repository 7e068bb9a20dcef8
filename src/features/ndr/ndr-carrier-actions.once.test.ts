import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE } from '../../../test/kit/couriers.js';
import { authed, UNKNOWN_ID } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents, track } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { ACTIONS, FAILED_ONCE, NOW, REATTEMPT, useNdrApp } from '../../../test/ndr.js';

// The couriers' queue of NDR instructions (issue 12); reattempt and initiate-rto are in ndr.once.test.ts.

let ctx: TestContext;
let shadowfax: string;
let delhivery: string;
const { shipment, reattempt, carrierGet, ack } = useNdrApp((app, tokens) => {
  ctx = app;
  shadowfax = tokens.shadowfax;
  delhivery = tokens.delhivery;
});

describe('/carrier/v1/actions', () => {
  it("lists the courier's open instructions oldest first, a page at a time, until each is acknowledged", async () => {
    // On Delhivery: every other test books on Shadowfax, so their instructions stay out of this queue.
    const courier = await issueCarrierToken(ctx, DELHIVERY_SURFACE);
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const awbs: string[] = [];
    for (let i = 0; i < 3; i++) {
      awbs.push((await book(ctx, apiKey, warehouseId, { carrierId: DELHIVERY_SURFACE })).awb_code!);
    }
    ctx.clock.set(NOW);
    await sendEvents(
      ctx,
      courier,
      awbs.flatMap((awb) => FAILED_ONCE.map((e) => ({ ...e, awb }))),
    );
    const ids: string[] = [];
    for (const awb of awbs) {
      ids.push((await reattempt(apiKey, { awb })).json().data.action_id);
      ctx.clock.advance(1000);
    }

    const first = await carrierGet(courier, '?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((a: { id: string; awb: string }) => [a.id, a.awb])).toEqual([
      [ids[0], awbs[0]],
      [ids[1], awbs[1]],
    ]);
    const cursor = first.json().next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const second = (await carrierGet(courier, `?limit=2&cursor=${cursor}`)).json();
    expect(second.data.map((a: { id: string }) => a.id)).toEqual([ids[2]]);
    expect(second.next_cursor).toBeNull();

    ctx.clock.set('2026-11-20T11:00:00.000Z');
    const acked = await ack(courier, ids[0]!);
    expect(acked.statusCode).toBe(200);
    expect(acked.json().data).toMatchObject({
      id: ids[0],
      awb: awbs[0],
      action: 'reattempt',
      acknowledged_at: '2026-11-20T11:00:00.000Z',
      courier_status: 'done',
    });
    // Idempotent: the first acknowledgement's time stays.
    ctx.clock.advance(60_000);
    const again = await ack(courier, ids[0]!);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(acked.json());
    expect((await carrierGet(courier)).json().data.map((a: { id: string }) => a.id)).toEqual([ids[1], ids[2]]);
    const tracking = (await track(ctx, apiKey, awbs[0]!)) as unknown as {
      ndr_actions: { acknowledged_at: string | null; courier_status: string; refusal: string | null }[];
    };
    expect(tracking.ndr_actions[0]!.acknowledged_at).toBe('2026-11-20T11:00:00.000Z');
    // A push courier's acknowledgement is its word that it acts: done, for the merchant.
    expect(tracking.ndr_actions[0]).toMatchObject({ courier_status: 'done', refusal: null });
  });

  it("answers another courier's action, an unknown id and a malformed id with 404", async () => {
    const { apiKey, awb } = await shipment();
    const id = (await reattempt(apiKey, { awb })).json().data.action_id;
    for (const [token, target] of [
      [delhivery, id],
      [shadowfax, UNKNOWN_ID],
      [shadowfax, 'not-an-id'],
    ] as const) {
      const response = await ack(token, target);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        // A malformed id is the HTTP kit's 404 (every malformed path id is), with the generic code.
        code: target === 'not-an-id' ? 'not_found' : 'ndr_action_not_found',
        message: 'Action not found',
        errors: ['Action not found'],
      });
    }
    expect(
      ((await track(ctx, apiKey, awb)) as unknown as { ndr_actions: { acknowledged_at: null }[] }).ndr_actions[0]!
        .acknowledged_at,
    ).toBeNull();
  });

  it('refuses a bad limit or cursor with 400, and any credential but a carrier token with 401', async () => {
    const badUuid = '0.-a--0a-0000a0a-0a-a--a-a0--a0aa--a-a';
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?cursor=abc',
      `?cursor=${badUuid}`,
      `?cursor=999999999999999.${UNKNOWN_ID}`,
      '?sort=asc',
    ]) {
      expect((await carrierGet(shadowfax, query)).statusCode, query).toBe(400);
    }
    const { apiKey, awb } = await shipment();
    expect((await ctx.app.inject({ method: 'GET', url: ACTIONS, headers: authed(apiKey) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: ACTIONS })).statusCode).toBe(401);
    expect((await ack('nope', UNKNOWN_ID)).statusCode).toBe(401);
    const courierAsMerchant = await ctx.app.inject({
      method: 'POST',
      url: REATTEMPT,
      headers: authed(`Bearer ${shadowfax}`),
      payload: { awb },
    });
    expect(courierAsMerchant.statusCode).toBe(401);
  });
});
