import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { DELHIVERY_SURFACE, DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { post } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, postEvents, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { CARRIER_RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';

let ctx: TestContext;
let shadowfax: string;
let dtdc: string;
let delhivery: string;
useTestApp(async (app) => {
  ctx = app;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
  dtdc = await issueCarrierToken(ctx, DTDC);
  delhivery = await issueCarrierToken(ctx, DELHIVERY_SURFACE);
});

interface ReturnRowView {
  status: string;
  sub_status: string | null;
  qc_status: string | null;
  qc_reason: string | null;
  picked_up_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  lost_at: string | null;
  updated_at: string;
  events: number;
}

async function stored(returnId: string): Promise<ReturnRowView> {
  const [row] = await queryRows<ReturnRowView>(
    ctx.database.db,
    sql`select status, sub_status, qc_status, qc_reason,
               to_char(picked_up_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as picked_up_at,
               to_char(delivered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as delivered_at,
               to_char(cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as cancelled_at,
               to_char(lost_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as lost_at,
               updated_at::text as updated_at,
               (select count(*)::int from return_events e where e.return_id = r.id) as events
          from returns r where id = ${returnId}`,
  );
  return row!;
}

const qcReturn = async () => {
  const m = await merchantWithCityWarehouse(ctx);
  return { m, ret: await bookReturn(ctx, m.apiKey, m.warehouseId, { qc: true, carrierId: SHADOWFAX }) };
};

describe('carrier events for returns', () => {
  it('moves a QC return through pickup (QC passed), transit and delivery, answered per event', async () => {
    const { ret } = await qcReturn();
    expect(ret.qc_enabled).toBe(1);
    const awb = ret.awb_code!;
    const results = await sendEvents(ctx, shadowfax, [
      {
        awb,
        status: 'return_picked_up',
        event_time: at(-120),
        sub_status: 'return_picked_up',
        qc_status: 'passed',
        location: 'Colaba',
      } as never,
      { awb, status: 'return_in_transit', event_time: at(-60), location: 'Mumbai Hub' },
      { awb, status: 'return_delivered', event_time: at(-10), location: 'Okhla Hub' },
    ]);
    expect(results).toEqual([
      { awb, accepted: true },
      { awb, accepted: true },
      { awb, accepted: true },
    ]);
    expect(await stored(ret.return_id)).toMatchObject({
      status: 'return_delivered',
      sub_status: null,
      qc_status: 'passed',
      qc_reason: null,
      picked_up_at: at(-120),
      delivered_at: at(-10),
      cancelled_at: null,
      events: 3,
    });
  });

  it('gives the same state for a batch sent newest first, and a replay changes nothing', async () => {
    const { ret } = await qcReturn();
    const awb = ret.awb_code!;
    const events = [
      { awb, status: 'return_delivered', event_time: at(-10), event_id: 'd1' },
      { awb, status: 'return_in_transit', event_time: at(-60) },
      { awb, status: 'return_picked_up', event_time: at(-120), qc_status: 'passed' },
    ];
    const receivedAt = ctx.clock.now().toISOString();
    expect((await sendEvents(ctx, shadowfax, events as never)).every((r) => r.accepted && !r.duplicate)).toBe(true);
    const before = await stored(ret.return_id);
    expect(before).toMatchObject({ status: 'return_delivered', qc_status: 'passed', picked_up_at: at(-120) });
    ctx.clock.advance(60_000);
    // The same event_id with another time, and the same status and instant written in another offset.
    const replay = await sendEvents(ctx, shadowfax, [
      { awb, status: 'return_delivered', event_time: at(-5), event_id: 'd1' },
      { awb, status: 'return_in_transit', event_time: '2026-11-20T11:00:00+05:30' },
    ]);
    expect(replay).toEqual([
      {
        awb,
        accepted: true,
        duplicate: true,
        changed: false,
        reason: `duplicate of the return_delivered scan at ${at(-10)} (received ${receivedAt}): nothing changed`,
      },
      {
        awb,
        accepted: true,
        duplicate: true,
        changed: false,
        reason: `duplicate of the return_in_transit scan at ${at(-60)} (received ${receivedAt}): nothing changed`,
      },
    ]);
    expect(await stored(ret.return_id)).toEqual(before);
  });

  it('never leaves a terminal status: a later scan is kept in the history without effect', async () => {
    const { ret } = await qcReturn();
    const awb = ret.awb_code!;
    await sendEvents(ctx, shadowfax, [
      { awb, status: 'return_picked_up', event_time: at(-100) },
      { awb, status: 'return_lost', event_time: at(-50), sub_status: 'return_lost' },
    ]);
    const results = await sendEvents(ctx, shadowfax, [
      { awb, status: 'return_in_transit', event_time: at(-40) },
      { awb, status: 'return_delivered', event_time: at(-30) },
    ]);
    const kept = (status: string) =>
      `the status machine does not apply ${status} at its event_time (the return is return_lost (return_lost)): recorded in its history, status unchanged`;
    expect(results).toEqual([
      { awb, accepted: true, changed: false, reason: kept('return_in_transit') },
      { awb, accepted: true, changed: false, reason: kept('return_delivered') },
    ]);
    expect(await stored(ret.return_id)).toMatchObject({
      status: 'return_lost',
      sub_status: 'return_lost',
      lost_at: at(-50),
      delivered_at: null,
      events: 4,
    });
  });

  it('a failed QC cancels the return with its reason; cancel-order then says it is already cancelled', async () => {
    const { m, ret } = await qcReturn();
    const awb = ret.awb_code!;
    const results = await sendEvents(ctx, shadowfax, [
      {
        awb,
        status: 'return_cancelled',
        sub_status: 'qc_failed',
        event_time: at(-30),
        qc_status: 'failed',
        qc_reason: 'Seal broken',
      } as never,
    ]);
    expect(results).toEqual([{ awb, accepted: true }]);
    expect(await stored(ret.return_id)).toMatchObject({
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      qc_status: 'failed',
      qc_reason: 'Seal broken',
      cancelled_at: at(-30),
    });
    const cancel = await post(ctx, m.apiKey, '/custom/api/v1/cancel-order', { awbs: [awb] });
    expect(cancel.json().results).toEqual([{ awb, cancelled: false, message: 'Return is already cancelled' }]);
  });

  it('records cancel-order as an event; a pickup scan dated before it that arrives later wins', async () => {
    const { m, ret } = await qcReturn();
    const awb = ret.awb_code!;
    const cancel = await post(ctx, m.apiKey, '/custom/api/v1/cancel-order', { awbs: [awb] });
    expect(cancel.json().results).toEqual([{ awb, cancelled: true, message: 'Return cancelled' }]);
    expect(await stored(ret.return_id)).toMatchObject({
      status: 'return_cancelled',
      sub_status: 'return_cancelled_by_merchant',
      events: 1,
    });
    const pickedAt = new Date(ctx.clock.now().getTime() - 5 * 60_000).toISOString();
    expect(await sendEvents(ctx, shadowfax, [{ awb, status: 'return_picked_up', event_time: pickedAt }])).toEqual([
      { awb, accepted: true },
    ]);
    expect(await stored(ret.return_id)).toMatchObject({
      status: 'return_picked_up',
      cancelled_at: null,
      picked_up_at: pickedAt,
      events: 2,
    });
    const again = await post(ctx, m.apiKey, '/custom/api/v1/cancel-order', { awbs: [awb] });
    expect(again.json().results).toEqual([
      { awb, cancelled: false, message: 'Return is return_picked_up and can no longer be cancelled' },
    ]);
    expect((await stored(ret.return_id)).events).toBe(2);
  });

  it('refuses each unsound event alone and records none of them', async () => {
    const { m, ret } = await qcReturn();
    const awb = ret.awb_code!;
    const plain = await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: DTDC });
    expect(plain.qc_enabled).toBe(0);
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const t = at(-20);
    const cases: [Record<string, unknown>, string, string?][] = [
      [
        { awb, status: 'return_requested' },
        `status must be one of pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others; on a return AWB one of ${CARRIER_RETURN_STATUSES.join(', ')}`,
      ],
      [{ awb, status: 'in_transit' }, `AWB is a return: status must be one of ${CARRIER_RETURN_STATUSES.join(', ')}`],
      [
        { awb: forward.awb_code, status: 'return_picked_up' },
        'AWB is a forward shipment: return statuses belong to return AWBs',
      ],
      [
        { awb: forward.awb_code, status: 'in_transit', qc_status: 'passed' },
        'qc_status and qc_reason belong to return events only',
      ],
      [
        { awb, status: 'return_picked_up', sub_status: 'picked_up' },
        'sub_status for return_picked_up must be one of return_picked_up',
      ],
      [
        { awb, status: 'return_cancelled', ndr_reason: 'refused' },
        'ndr_reason and rto_reason belong to forward events only',
      ],
      [{ awb, status: 'return_picked_up', qc_status: 'ok' }, 'qc_status must be one of passed, failed'],
      [
        { awb, status: 'return_in_transit', qc_status: 'passed' },
        'qc_status passed belongs to return_picked_up events',
      ],
      [
        { awb, status: 'return_picked_up', qc_status: 'failed', qc_reason: 'Torn' },
        'qc_status failed belongs to return_cancelled events (the parcel stays with the customer)',
      ],
      [{ awb, status: 'return_cancelled', qc_status: 'failed' }, 'qc_reason is required when qc_status is failed'],
      [{ awb, status: 'return_picked_up', qc_reason: 'fine' }, 'qc_reason belongs to events with qc_status failed'],
      [
        { awb: plain.awb_code, status: 'return_picked_up', qc_status: 'passed' },
        'qc_status belongs to quality-checked returns; this one is not',
        dtdc,
      ],
      [{ awb: plain.awb_code, status: 'return_picked_up' }, 'AWB not found for this courier', delhivery],
      [{ awb, status: 'return_picked_up', event_time: at(60) }, 'event_time is in the future'],
    ];
    for (const [event, error, token] of cases) {
      const response = await postEvents(ctx, token ?? shadowfax, [{ event_time: t, ...event }]);
      expect(response.statusCode).toBe(200);
      expect(response.json().results).toEqual([{ awb: event.awb, accepted: false, error }]);
    }
    for (const id of [ret.return_id, plain.return_id])
      expect(await stored(id)).toMatchObject({ status: 'return_pickup_scheduled', events: 0 });
  });

  it("another account's courier token cannot reach the return; a 400 batch records nothing", async () => {
    const { ret } = await qcReturn();
    const awb = ret.awb_code!;
    const bad = await postEvents(ctx, shadowfax, [
      { awb, status: 'return_picked_up', event_time: at(-5), qc_outcome: 'passed' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect((await stored(ret.return_id)).events).toBe(0);
  });
});
