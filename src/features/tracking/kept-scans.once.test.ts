import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, authed, post, V1 } from '../../../test/kit/http.js';
import { book, nextOrderId } from '../../../test/kit/orders.js';
import { expectUnchanged } from '../../../test/kit/rows.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';

// What couriers send that cannot be applied is kept, listed and read again (issue 47): nothing a
// partner sends is thrown away in silence. Shadowfax here is a push courier (the shipped catalogue).

let ctx: TestContext;
let token: string;
let merchant: { id: string; apiKey: string };
let warehouseId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = await issueCarrierToken(ctx, SHADOWFAX);
  merchant = await ctx.createAccount('Kept Scans');
  warehouseId = await createCityWarehouse(ctx, merchant.apiKey);
});
afterAll(async () => {
  await ctx.close();
});

const kept = async (apiKey: string, query = '') =>
  ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans${query}`, headers: authed(apiKey) });
const operatorList = async (query = '') =>
  (await ctx.app.inject({ method: 'GET', url: `/admin/v1/kept-scans${query}`, headers: admin })).json();
const bookShadowfax = () =>
  book(ctx, merchant.apiKey, warehouseId, { carrierId: SHADOWFAX, orderId: nextOrderId('KEPT') });
const trackOf = async (awb: string) =>
  (await post(ctx, merchant.apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data;

describe('kept scans', () => {
  it('keeps a scan for an AWB no parcel has yet, and applies it when a replay finds the booking that came after it', async () => {
    // The courier's scan of its next waybill reaches Dakiya before the booking that takes it.
    const next = 'SFX0000000001';
    const early = { awb: next, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T06:30:00.000Z' };
    expect(await sendEvents(ctx, token, [early])).toEqual([
      { awb: next, accepted: false, error: 'AWB not found for this courier' },
    ]);
    const open = await operatorList();
    expect(open.data).toEqual([
      {
        id: expect.any(String),
        account_id: null,
        awb: next,
        carrier_id: SHADOWFAX,
        connector: 'push',
        journey: null,
        reason_code: 'unknown_awb',
        reason: 'AWB not found for this courier',
        raw: early,
        first_seen_at: '2026-11-20T06:30:00.000Z',
        replayed_at: null,
        applied_at: null,
      },
    ]);
    expect(open.meta).toEqual({
      next_after: open.data[0].id,
      has_more: false,
      open: [{ connector: 'push', reason_code: 'unknown_awb', count: 1 }],
    });
    // An AWB no parcel has belongs to no account: the merchant's own list is empty.
    expect((await kept(merchant.apiKey)).json().data).toEqual([]);

    ctx.clock.advance(60_000);
    const booked = await bookShadowfax();
    expect(booked.awb_code).toBe(next);
    expect(await trackOf(next)).toMatchObject({ dakiya_status: 'pending' });

    ctx.clock.advance(60_000);
    const replay = await ctx.app.inject({ method: 'POST', url: '/admin/v1/kept-scans/replay', headers: admin });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ read: 1, applied: 1, kept: 0, by_reason: {}, next_after: null });
    // Stamped a minute before the booking: within the tolerance, placed just after it.
    expect(await trackOf(next)).toMatchObject({ dakiya_status: 'in_transit', shipment_sub_status: 'picked_up' });
    expect((await operatorList()).data).toEqual([]);
    const all = (await kept(merchant.apiKey, '?status=all')).json().data;
    expect(all).toEqual([
      expect.objectContaining({
        awb: next,
        journey: null,
        replayed_at: '2026-11-20T06:32:00.000Z',
        applied_at: '2026-11-20T06:32:00.000Z',
      }),
    ]);
    // A second replay finds nothing open.
    expect(
      (
        await ctx.app.inject({ method: 'POST', url: `${V1}/kept-scans/replay`, headers: authed(merchant.apiKey) })
      ).json(),
    ).toEqual({ read: 0, applied: 0, kept: 0, by_reason: {}, next_after: null });
  });

  it('keeps a scan stamped too long before its booking, counts it on the connections screen, and applies it once the operator widens the tolerance', async () => {
    const booked = await bookShadowfax();
    const awb = booked.awb_code!;
    const bookedAt = ctx.clock.now().getTime();
    const tooEarly = {
      awb,
      status: 'in_transit',
      sub_status: 'picked_up',
      event_time: new Date(bookedAt - 20 * 60_000).toISOString(),
    };
    const [refused] = await sendEvents(ctx, token, [tooEarly]);
    expect(refused!.accepted).toBe(false);
    const listed = (await kept(merchant.apiKey)).json();
    expect(listed.data).toEqual([
      expect.objectContaining({
        awb,
        carrier_id: SHADOWFAX,
        journey: 'forward',
        reason_code: 'before_booking',
        reason: refused!.error,
        raw: tooEarly,
        applied_at: null,
      }),
    ]);
    expect(listed.data[0]).not.toHaveProperty('account_id');
    const connections = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/courier-connections`, headers: authed(merchant.apiKey) })
    ).json().data;
    expect(connections.find((c: { carrier_id: string }) => c.carrier_id === SHADOWFAX).kept_scans).toBe(1);

    // Replayed with today's tolerance it is still too early: kept, with what the replay found.
    ctx.clock.advance(60_000);
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/kept-scans/replay`,
      headers: authed(merchant.apiKey),
    });
    expect(again.json()).toEqual({ read: 1, applied: 0, kept: 1, by_reason: { before_booking: 1 }, next_after: null });
    expect((await kept(merchant.apiKey)).json().data[0].replayed_at).toBe(ctx.clock.now().toISOString());

    // The operator widens SCAN_EARLY_TOLERANCE_SECONDS to an hour: another process on the same database.
    const wider = await createTestApp({ database: ctx.database, settings: { tracking: { earlyScanSeconds: 3600 } } });
    try {
      const replayed = await wider.app.inject({
        method: 'POST',
        url: `${V1}/kept-scans/replay`,
        headers: authed(merchant.apiKey),
      });
      expect(replayed.json()).toEqual({ read: 1, applied: 1, kept: 0, by_reason: {}, next_after: null });
    } finally {
      await wider.app.close();
    }
    expect(await trackOf(awb)).toMatchObject({ dakiya_status: 'in_transit', shipment_sub_status: 'picked_up' });
    const after = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/courier-connections`, headers: authed(merchant.apiKey) })
    ).json().data;
    expect(after.find((c: { carrier_id: string }) => c.carrier_id === SHADOWFAX).kept_scans).toBe(0);
  });

  it('keeps a move the status machine does not take, once, however often the courier sends it again', async () => {
    const booked = await bookShadowfax();
    const awb = booked.awb_code!;
    const at = (minutes: number) => new Date(ctx.clock.now().getTime() + minutes * 60_000).toISOString();
    ctx.clock.advance(30 * 60_000);
    const delivered = { awb, status: 'delivered', event_time: at(-10), event_id: 'SFX-DL-1' };
    const late = {
      awb,
      status: 'ndr_raised',
      ndr_reason: 'customer_unavailable',
      event_time: at(-5),
      event_id: 'SFX-NDR-1',
    };
    await sendEvents(ctx, token, [{ awb, status: 'in_transit', event_time: at(-20), event_id: 'SFX-IT-1' }, delivered]);
    for (let i = 0; i < 3; i++) await sendEvents(ctx, token, [late]);
    const listed = (await kept(merchant.apiKey, '?reason_code=not_applied')).json().data;
    expect(listed).toEqual([
      expect.objectContaining({
        awb,
        reason_code: 'not_applied',
        reason:
          'the status machine does not apply ndr_raised at its event_time (the shipment is delivered): recorded in its history, status unchanged',
        raw: late,
      }),
    ]);
  });

  it("never shows one account's kept scans to another, nor takes another's id as a cursor", async () => {
    const other = await ctx.createAccount('Other');
    expect((await kept(other.apiKey, '?status=all')).json().data).toEqual([]);
    const mine = (await kept(merchant.apiKey, '?status=all')).json().data[0].id;
    const refused = await kept(other.apiKey, `?after=${mine}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual(['after must be the id of one of the kept scans']);
    const replayed = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({ method: 'POST', url: `${V1}/kept-scans/replay`, headers: authed(other.apiKey) }),
    );
    expect(replayed.json()).toEqual({ read: 0, applied: 0, kept: 0, by_reason: {}, next_after: null });
  });

  it.each([
    [
      '?reason_code=lost',
      'reason_code',
      'reason_code must be one of unread, not_applied, before_booking, unknown_awb, refused, unverified',
    ],
    ['?status=closed', 'status', 'status must be open or all'],
    ['?limit=0', 'limit', 'limit must be 1 to 100'],
    ['?after=nope', 'after', 'after must be the id of a kept scan'],
  ])('refuses %s, naming the field', async (query, field, message) => {
    const response = await kept(merchant.apiKey, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ field, message }]);
  });
});
