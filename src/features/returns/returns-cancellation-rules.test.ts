import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { book } from '../../../test/kit/orders.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import {
  buildReturns,
  returnEvents,
  returnInput,
  returnRow,
  returnsWritten,
} from '../../../test/kit/returns-use-cases.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { merchant } from '../../../test/kit/warehouses.js';
import type { CancelAnswer } from '../../couriers/couriers.service.js';
import type { TrackingService } from '../tracking/tracking.service.js';
import type { ReturnsService } from './returns.service.js';

// The returns service's part in cancel-order, and returns of forward shipments, as functions over a
// seeded database (both engines): which returns may be cancelled, that a booked pickup is called off
// at the courier first and a courier's refusal or queue leaves the return as it is, that each account
// cancels and returns only its own, and which forward shipment a return may bring back.

let ctx: UseCaseContext;
let returns: ReturnsService;
let tracking: TrackingService;
/** The same service whose couriers answer a cancellation with `courierAnswer`, recording each ask. */
let answered: ReturnsService;
let courierAnswer: CancelAnswer = null;
const asked: { accountId: string; carrierId: string; awb: string; journey: string | undefined }[] = [];
beforeAll(async () => {
  ctx = await useCaseContext();
  ({ returns, tracking } = buildReturns(ctx));
  ({ returns: answered } = buildReturns(ctx, async (accountId, service, awb, _ex, journey) => {
    asked.push({ accountId, carrierId: service.id, awb, journey });
    return courierAnswer;
  }));
});
afterAll(async () => {
  await ctx.close();
});
/** Friday 20 November 2026, 12:00 India time. */
const BOOKED_AT = '2026-11-20T06:30:00.000Z';
beforeEach(() => {
  ctx.clock.set(BOOKED_AT);
  courierAnswer = null;
});

/** A merchant's return booked with Shadowfax at BOOKED_AT. */
async function bookedReturn(m: { id: string; warehouseId: string }) {
  return returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, { carrierId: SHADOWFAX }));
}

describe('cancelling returns', () => {
  it("cancels the account's booked return once, at the clock's time; AWBs not its returns get no answer", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const ret = await bookedReturn(m);
    const theirs = await bookedReturn(other);
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    ctx.clock.set('2026-11-20T07:45:00.000Z');

    const outcome = await returns.cancel(asAccount(m.id), [
      ret.awb_code!,
      theirs.awb_code!,
      forward.awb_code!,
      'SFX0000000001',
    ]);
    expect([...outcome]).toEqual([[ret.awb_code, { cancelled: true, message: 'Return cancelled' }]]);
    expect(await returnRow(ctx, ret.return_id)).toMatchObject({
      status: 'return_cancelled',
      cancelled_at: '2026-11-20T07:45:00.000Z',
      // The booking's charges stay as they were frozen.
      freight_paise: 6000,
      awb: ret.awb_code,
    });
    expect((await returnEvents(ctx, ret.return_id)).map((e) => [e.type, e.created_at])).toEqual([
      ['return.created', BOOKED_AT],
      ['return.booked', BOOKED_AT],
      ['return.status_changed', '2026-11-20T07:45:00.000Z'],
      ['return.cancelled', '2026-11-20T07:45:00.000Z'],
    ]);
    expect(await returnRow(ctx, theirs.return_id)).toMatchObject({
      status: 'return_pickup_scheduled',
      cancelled_at: null,
    });

    expect([...(await returns.cancel(asAccount(m.id), [ret.awb_code!]))]).toEqual([
      [ret.awb_code, { cancelled: false, message: 'Return is already cancelled' }],
    ]);
  });

  it('cancels a return without a courier by its shipment id, asking no courier; not one of another account', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const ret = await answered.createReturn(asAccount(m.id), returnInput(m.warehouseId));
    const checked: (string | null)[] = [];
    const checkAwb = (awb: string | null) => checked.push(awb);

    expect(await answered.cancelShipment(asAccount(other.id), ret.shipment_id, checkAwb)).toBeUndefined();
    expect(await answered.cancelShipment(asAccount(m.id), ret.shipment_id, checkAwb)).toEqual({
      awb: null,
      cancelled: true,
      message: 'Return cancelled',
    });
    expect(checked).toEqual([null]);
    expect(asked.filter((a) => a.accountId === m.id)).toEqual([]);
    expect(await returnRow(ctx, ret.return_id)).toMatchObject({ status: 'return_cancelled', awb: null });
  });

  it('a return its courier has picked up can no longer be cancelled', async () => {
    const m = await merchant(ctx);
    const ret = await bookedReturn(m);
    const scan = { awb: ret.awb_code!, status: 'return_picked_up', event_time: '2026-11-20T07:00:00.000Z' };
    ctx.clock.set('2026-11-20T07:05:00.000Z');
    expect(await tracking.ingest(SHADOWFAX, [scan])).toMatchObject([{ awb: ret.awb_code, accepted: true }]);

    expect([...(await returns.cancel(asAccount(m.id), [ret.awb_code!]))]).toEqual([
      [ret.awb_code, { cancelled: false, message: 'Return is return_picked_up and can no longer be cancelled' }],
    ]);
    expect(await returnRow(ctx, ret.return_id)).toMatchObject({ status: 'return_picked_up', cancelled_at: null });
  });

  it.each<[string, CancelAnswer, (courier: string) => string]>([
    ['refuses', { refused: 'Shipment already picked up' }, () => 'Shipment already picked up'],
    [
      'queues the cancellation',
      { queued: 'ticket 42' },
      (courier) =>
        `${courier} has queued the pickup's cancellation (ticket 42): the return is cancelled when its tracking confirms it`,
    ],
  ])('the courier %s: the return stays booked, and the answer says why', async (_name, answer, message) => {
    const m = await merchant(ctx);
    const ret = await bookedReturn(m);
    courierAnswer = answer;
    expect([...(await answered.cancel(asAccount(m.id), [ret.awb_code!]))]).toEqual([
      [ret.awb_code, { cancelled: false, message: message(ret.courier_name!) }],
    ]);
    expect(asked.filter((a) => a.accountId === m.id)).toEqual([
      { accountId: m.id, carrierId: SHADOWFAX, awb: ret.awb_code, journey: 'return' },
    ]);
    expect(await returnRow(ctx, ret.return_id)).toMatchObject({
      status: 'return_pickup_scheduled',
      cancelled_at: null,
    });
    expect((await returnEvents(ctx, ret.return_id)).map((e) => e.type)).toEqual(['return.created', 'return.booked']);
  });
});

describe('returns of forward shipments', () => {
  it('links a return to its delivered forward shipment, by AWB or by order id', async () => {
    const m = await merchant(ctx);
    const byAwb = await deliveredForward(ctx, m);
    const byOrder = await deliveredForward(ctx, m);
    const linked = [
      await returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, {}, { forward_awb: byAwb.awb_code })),
      await returns.createReturn(
        asAccount(m.id),
        returnInput(m.warehouseId, {}, { forward_order_id: byOrder.channel_order_id }),
      ),
    ];
    expect(linked.map((r) => r.forward_shipment)).toEqual([
      { shipment_id: byAwb.shipment_id, order_id: byAwb.channel_order_id, awb_code: byAwb.awb_code },
      { shipment_id: byOrder.shipment_id, order_id: byOrder.channel_order_id, awb_code: byOrder.awb_code },
    ]);
  });

  it('refuses a forward shipment that is unknown, of another account, undelivered or already returned', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const theirs = await deliveredForward(ctx, other);
    const undelivered = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const returned = await deliveredForward(ctx, m);
    await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, {}, { forward_awb: returned.awb_code }));

    const cases: [Record<string, unknown>, string, string, string][] = [
      [
        { forward_awb: 'SFX9999999999' },
        'forward_shipment_not_found',
        'forward_awb',
        "forward_awb 'SFX9999999999' names no forward shipment of this account",
      ],
      [
        { forward_awb: theirs.awb_code },
        'forward_shipment_not_found',
        'forward_awb',
        `forward_awb '${theirs.awb_code}' names no forward shipment of this account`,
      ],
      [
        { forward_order_id: theirs.channel_order_id },
        'forward_shipment_not_found',
        'forward_order_id',
        `forward_order_id '${theirs.channel_order_id}' names no forward shipment of this account`,
      ],
      [
        { forward_awb: undelivered.awb_code },
        'forward_shipment_not_delivered',
        'forward_awb',
        `The forward shipment ${undelivered.awb_code} is pending; only a delivered shipment can be returned`,
      ],
      [
        { forward_order_id: returned.channel_order_id },
        'forward_shipment_already_returned',
        'forward_order_id',
        'The forward shipment already has a return',
      ],
    ];
    for (const [link, code, field, message] of cases) {
      for (const write of [returns.createReturn, returns.orchestrate]) {
        const before = await returnsWritten(ctx, m.id);
        await expect(write(asAccount(m.id), returnInput(m.warehouseId, {}, link))).rejects.toMatchObject({
          code,
          kind: 'unprocessable',
          details: [{ field, message }],
        });
        expect(await returnsWritten(ctx, m.id)).toEqual(before);
      }
    }
  });

  it('a cancelled return frees its forward shipment for another return', async () => {
    const m = await merchant(ctx);
    const forward = await deliveredForward(ctx, m);
    const link = { forward_awb: forward.awb_code };
    const first = await returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, {}, link));
    expect([...(await returns.cancel(asAccount(m.id), [first.awb_code!]))][0]![1].cancelled).toBe(true);
    const second = await returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, {}, link));
    expect(second.forward_shipment?.shipment_id).toBe(forward.shipment_id);
    await expect(returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, {}, link))).rejects.toMatchObject({
      code: 'forward_shipment_already_returned',
    });
  });
});
