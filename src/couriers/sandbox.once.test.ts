import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/app.js';
import { sandboxMerchant } from '../../test/kit/couriers.js';
import { authed, CANCEL, ORCHESTRATE, post, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import { bookReturn } from '../../test/kit/returns.js';
import { queryRows } from '../base/db/client.js';
import { sql } from 'drizzle-orm';

const STEP_MS = 60_000;

describe('sandbox courier', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    ({ ctx, apiKey, warehouseId } = await sandboxMerchant(STEP_MS / 1000));
  });
  afterAll(() => ctx?.close());

  const track = async (awb: string) =>
    (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data;
  /** Moves the clock `steps` sandbox steps, running a poller round every half step. */
  async function play(steps: number) {
    for (let i = 0; i < steps * 2; i++) {
      ctx.clock.advance(STEP_MS / 2);
      await ctx.app.courierPoller.runOnce();
    }
  }
  const newOrder = (suffix: string, overrides: Record<string, unknown> = {}) =>
    orderBody(warehouseId, { order_id: `SBX-${process.pid}-${Date.now()}-${suffix}`, ...overrides });

  it('plays every scenario through the tracking intake to its end state', async () => {
    const delivered = await orchestrate(ctx, apiKey, newOrder('1'));
    const ndr = await orchestrate(ctx, apiKey, newOrder('6'));
    const rto = await orchestrate(ctx, apiKey, newOrder('8'));
    const lost = await orchestrate(ctx, apiKey, newOrder('9'));
    const tagged = await orchestrate(ctx, apiKey, newOrder('1', { tags: ['sandbox_scenario:rto'] }));
    expect(delivered.routing_code).toBe('SBX/400');
    await play(10);
    expect(await track(delivered.awb_code!)).toMatchObject({
      shipment_status: 'delivered',
      shipment_sub_status: 'delivered',
    });
    expect(await track(ndr.awb_code!)).toMatchObject({
      shipment_status: 'delivered',
      shipment_sub_status: 'delivered',
    });
    expect(await track(rto.awb_code!)).toMatchObject({
      shipment_status: 'rto_delivered',
      shipment_sub_status: 'rto_delivered',
    });
    expect(await track(lost.awb_code!)).toMatchObject({ shipment_status: 'lost', shipment_sub_status: 'lost' });
    expect(await track(tagged.awb_code!)).toMatchObject({ shipment_status: 'rto_delivered' });
  });

  it('reattempts at once on a reattempt instruction, and returns the parcel on an RTO instruction', async () => {
    const again = await orchestrate(ctx, apiKey, newOrder('6'));
    const back = await orchestrate(ctx, apiKey, newOrder('7'));
    await play(4.5);
    expect(await track(again.awb_code!)).toMatchObject({
      shipment_status: 'ndr_raised',
      shipment_sub_status: 'customer_unavailable',
    });
    expect((await post(ctx, apiKey, `${V1}/reattempt`, { awb: again.awb_code })).statusCode).toBe(200);
    expect((await post(ctx, apiKey, `${V1}/initiate-rto`, { awb: back.awb_code })).statusCode).toBe(200);
    // One step after the instruction the courier acts; without one it would wait until step 6.
    await play(1);
    const reattempted = await track(again.awb_code!);
    expect(reattempted.shipment_status).toBe('out_for_delivery');
    expect(reattempted.ndr_actions[0].acknowledged_at).not.toBeNull();
    await play(1.5);
    expect(await track(again.awb_code!)).toMatchObject({ shipment_status: 'delivered' });
    expect(await track(back.awb_code!)).toMatchObject({ shipment_status: 'rto_delivered' });
  });

  it('cancels before pickup and never moves the parcel again; refuses once the courier has picked it up', async () => {
    const early = await orchestrate(ctx, apiKey, newOrder('1'));
    const late = await orchestrate(ctx, apiKey, newOrder('1'));
    expect((await post(ctx, apiKey, CANCEL, { awbs: [early.awb_code] })).json().results).toEqual([
      { awb: early.awb_code, cancelled: true, message: 'Shipment cancelled' },
    ]);
    ctx.clock.advance(STEP_MS);
    expect((await post(ctx, apiKey, CANCEL, { awbs: [late.awb_code] })).json().results).toEqual([
      {
        awb: late.awb_code,
        cancelled: false,
        message: `${late.courier_name} refused: the parcel has already been picked up`,
      },
    ]);
    await play(6);
    expect(await track(early.awb_code!)).toMatchObject({
      shipment_status: 'cancelled',
      shipment_sub_status: 'cancelled_by_merchant',
    });
    expect(await track(late.awb_code!)).toMatchObject({ shipment_status: 'delivered' });
  });
  it('moves a return booked on it by polling, read as a reverse pickup, and stops asking at its end', async () => {
    const back = await bookReturn(ctx, apiKey, warehouseId, { orderId: `SBX-RET-${process.pid}-${Date.now()}-1` });
    const lostBack = await bookReturn(ctx, apiKey, warehouseId, { orderId: `SBX-RET-${process.pid}-${Date.now()}-9` });
    expect(await track(back.awb_code!)).toMatchObject({ dakiya_status: 'return_pickup_scheduled' });
    // Polled at its beat (a step) from the first round half a step after booking: picked up a step in.
    await play(1.5);
    expect(await track(back.awb_code!)).toMatchObject({ dakiya_status: 'return_picked_up' });
    await play(10);
    const delivered = await track(back.awb_code!);
    expect(delivered).toMatchObject({ dakiya_status: 'return_delivered', shipment_sub_status: 'return_delivered' });
    expect(delivered.shipment_track_activities.map((a: { status: string }) => a.status)).toContain('return_in_transit');
    expect(await track(lostBack.awb_code!)).toMatchObject({
      dakiya_status: 'return_lost',
      shipment_sub_status: 'return_lost',
    });
    // Both ended: neither is asked about again.
    const [left] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from courier_polls where return_id in (${back.return_id}::uuid, ${lostBack.return_id}::uuid)`,
    );
    expect(Number(left!.n)).toBe(0);
  });

  it("calls a cancelled return's pickup off at the courier, and keeps a return the courier has collected", async () => {
    const early = await bookReturn(ctx, apiKey, warehouseId, { orderId: `SBX-RET-${process.pid}-${Date.now()}-c1` });
    const collected = await bookReturn(ctx, apiKey, warehouseId, {
      orderId: `SBX-RET-${process.pid}-${Date.now()}-c2`,
    });
    expect((await post(ctx, apiKey, CANCEL, { awbs: [early.awb_code] })).json().results).toEqual([
      { awb: early.awb_code, cancelled: true, message: 'Return cancelled' },
    ]);
    const [parcel] = await queryRows<{ cancelled_at: string | null }>(
      ctx.database.db,
      sql`select cancelled_at from sandbox_parcels where awb = ${early.awb_code}`,
    );
    expect(parcel!.cancelled_at).not.toBeNull();
    ctx.clock.advance(STEP_MS);
    const name = (await track(collected.awb_code!)).shipment_track[0].courier_name;
    expect((await post(ctx, apiKey, CANCEL, { awbs: [collected.awb_code] })).json().results).toEqual([
      { awb: collected.awb_code, cancelled: false, message: `${name} refused: the parcel has already been picked up` },
    ]);
    await play(2);
    expect(await track(early.awb_code!)).toMatchObject({
      dakiya_status: 'return_cancelled',
      shipment_sub_status: 'return_cancelled_by_merchant',
    });
    expect((await track(collected.awb_code!)).dakiya_status).not.toBe('return_cancelled');
  });

  it('books with an Idempotency-Key: the parcel is written in the booking transaction, and the replay is the same booking', async () => {
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: ORCHESTRATE,
        headers: { ...authed(apiKey), 'idempotency-key': `sandbox-keyed-${process.pid}` },
        payload: orderBody(warehouseId, { order_id: `KEYED-${process.pid}-1` }),
      });
    // On PGlite (one connection) this hung for ever while the sandbox wrote through a second one.
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const replay = await send();
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().payload.awb_code).toBe(first.json().payload.awb_code);
  });
});
