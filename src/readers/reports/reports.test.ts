import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, FORWARD_ORDER, post, REPORTS } from '../../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';

let ctx: TestContext;
let token: string;
useTestApp(async (app) => {
  ctx = app;
  token = await issueCarrierToken(ctx, SHADOWFAX);
});

const zero = { count: 0, sum_of_prepaid_orders: 0, sum_of_cod_orders: 0 };

/** Books an order (created at the test clock's current time) and moves it through `statuses`. */
async function shipmentIn(apiKey: string, body: Record<string, unknown>, statuses: string[]) {
  const booked = await orchestrate(ctx, apiKey, { ...body, carrier_id: SHADOWFAX });
  const bookedAt = ctx.clock.now().getTime();
  // Scans happen after the booking and are never in the future.
  ctx.clock.advance(10 * 60_000);
  const results = await sendEvents(
    ctx,
    token,
    statuses.map((status, i) => ({
      awb: booked.awb_code!,
      status,
      event_time: new Date(bookedAt + (i + 1) * 60_000).toISOString(),
    })),
  );
  expect(results.map((r) => r.error ?? r.accepted)).toEqual(statuses.map(() => true));
  return booked;
}

const report = (apiKey: string, body: Record<string, unknown>) => post(ctx, apiKey, REPORTS, body);

describe('POST /reports', () => {
  it('summarises forward shipments created in the range by status, with prepaid and COD order values, all ten statuses', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    ctx.clock.set('2026-10-31T18:29:59.999Z'); // one millisecond before the range
    await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    ctx.clock.set('2026-10-31T18:30:00.000Z'); // 2026-11-01 00:00 India time: the range's first instant
    expect((await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId))).statusCode).toBe(200);
    ctx.clock.set('2026-11-10T06:30:00.000Z');
    expect(
      (
        await post(
          ctx,
          m.apiKey,
          FORWARD_ORDER,
          codOrderBody(m.warehouseId, { sub_total: 1499.5, cod_collectible: 1000 }),
        )
      ).statusCode,
    ).toBe(200);
    await shipmentIn(m.apiKey, orderBody(m.warehouseId), ['in_transit']);
    await shipmentIn(m.apiKey, codOrderBody(m.warehouseId), ['in_transit']);
    await shipmentIn(m.apiKey, codOrderBody(m.warehouseId), ['in_transit', 'delivered']);
    await shipmentIn(m.apiKey, codOrderBody(m.warehouseId), ['in_transit', 'ndr_raised', 'rto_initiated']);
    const cancelled = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [cancelled.awb_code] })).statusCode).toBe(200);
    await orchestrate(ctx, other.apiKey, orderBody(other.warehouseId)); // another account's: never counted
    ctx.clock.set('2026-11-30T18:29:59.000Z'); // the range's last instant, inclusive
    await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId));
    ctx.clock.set('2026-11-30T18:30:00.000Z'); // just after it
    await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId));

    const body = {
      start_date_time: '2026-11-01 00:00',
      end_date_time: '2026-11-30T18:29:59Z',
      shipment_type: 'forward',
    };
    const response = await report(m.apiKey, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      payload: {
        date_range: { start_date_time: '2026-11-01 00:00', end_date_time: '2026-11-30T18:29:59Z' },
        shipment_type: 'forward',
        summary: {
          pending: { count: 3, sum_of_prepaid_orders: 998, sum_of_cod_orders: 1499.5 + 998 },
          in_transit: { count: 2, sum_of_prepaid_orders: 998, sum_of_cod_orders: 998 },
          out_for_delivery: zero,
          delivered: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
          ndr_raised: zero,
          rto_initiated: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
          rto_in_transit: zero,
          rto_delivered: zero,
          cancelled: { count: 1, sum_of_prepaid_orders: 998, sum_of_cod_orders: 0 },
          others: zero,
          total_shipments: 8,
        },
      },
    });
    expect(Object.keys(response.json().payload.summary)).toEqual([...SHIPMENT_STATUSES, 'total_shipments']);

    // Whole India days are summed from the daily totals, the parts of days at a range's ends
    // counted on the shipments: the same range to its last millisecond (thirty whole days, no
    // edge), and ranges inside one day, which see only what was created within them.
    const summaryOf = async (start_date_time: string, end_date_time: string) => {
      const answer = await report(m.apiKey, { start_date_time, end_date_time, shipment_type: 'forward' });
      expect(answer.statusCode).toBe(200);
      return answer.json().payload.summary;
    };
    const summary = response.json().payload.summary;
    expect(await summaryOf('2026-10-31T18:30:00.000Z', '2026-11-30T18:29:59.999Z')).toEqual(summary);
    expect(await summaryOf('2026-11-30T18:29:59.000Z', '2026-11-30T18:30:00.000Z')).toMatchObject({
      pending: { count: 2, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 * 2 },
      total_shipments: 2,
    });
    expect(await summaryOf('2026-10-31T18:29:59.999Z', '2026-10-31T18:29:59.999Z')).toMatchObject({
      pending: { count: 1, sum_of_prepaid_orders: 998, sum_of_cod_orders: 0 },
      total_shipments: 1,
    });
    // The day before the range, whole, plus the range's first day: the edge shipment and the first.
    expect(await summaryOf('2026-10-30T18:30:00.000Z', '2026-11-01T18:29:59.999Z')).toMatchObject({
      pending: { count: 2, sum_of_prepaid_orders: 998 * 2, sum_of_cod_orders: 0 },
      total_shipments: 2,
    });
  });

  it('counts a day whole less the part outside the range when that part is shorter, a range that ends now most of all', async () => {
    const m = await merchant(ctx);
    // 2026-12-06 in India began at 2026-12-05T18:30:00Z: two bookings at 01:30 India, one at 07:30.
    ctx.clock.set('2026-12-05T20:00:00.000Z');
    await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId));
    ctx.clock.set('2026-12-06T02:00:00.000Z');
    await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId, { sub_total: 1499.5, cod_collectible: 1000 }));
    ctx.clock.set('2026-12-06T10:00:00.000Z'); // now: 15:30 India
    const pendingOf = async (start_date_time: string, end_date_time: string) => {
      const answer = await report(m.apiKey, { start_date_time, end_date_time, shipment_type: 'forward' });
      expect(answer.statusCode, answer.body).toBe(200);
      const { pending, total_shipments } = answer.json().payload.summary;
      return { ...pending, total_shipments };
    };
    // 02:30 India to now: the day's totals less its first two and a half hours (and the empty rest after now).
    expect(await pendingOf('2026-12-05T21:00:00.000Z', '2026-12-06T10:00:00.000Z')).toEqual({
      count: 1,
      sum_of_prepaid_orders: 0,
      sum_of_cod_orders: 1499.5,
      total_shipments: 1,
    });
    // The millisecond after the first two: the same.
    expect(await pendingOf('2026-12-05T20:00:00.001Z', '2026-12-06T10:00:00.000Z')).toMatchObject({ count: 1 });
    // From midnight to the instant of the first two, inclusive: counted as it is.
    expect(await pendingOf('2026-12-05T18:30:00.000Z', '2026-12-05T20:00:00.000Z')).toEqual({
      count: 2,
      sum_of_prepaid_orders: 998,
      sum_of_cod_orders: 998,
      total_shipments: 2,
    });
    // Most of the day, its first hour and its last hour out: the day less both.
    expect(await pendingOf('2026-12-05T19:30:00.000Z', '2026-12-06T17:30:00.000Z')).toMatchObject({
      count: 3,
      total_shipments: 3,
    });
    expect(await pendingOf('2026-12-05T20:00:00.001Z', '2026-12-06T17:30:00.000Z')).toMatchObject({
      count: 1,
      total_shipments: 1,
    });
  });

  it('answers the five return statuses, zeros included, as VELOCITY.md shows: no return was created in this range', async () => {
    const m = await merchant(ctx);
    await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const body = {
      start_date_time: '2022-01-01T00:00:00Z',
      end_date_time: '2025-09-08T20:00:00Z',
      shipment_type: 'return',
    };
    const response = await report(m.apiKey, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      payload: {
        date_range: { start_date_time: '2022-01-01T00:00:00Z', end_date_time: '2025-09-08T20:00:00Z' },
        shipment_type: 'return',
        summary: {
          return_pickup_scheduled: zero,
          return_in_transit: zero,
          return_delivered: zero,
          cancelled: zero,
          return_lost: zero,
          total_shipments: 0,
        },
      },
    });
    expect(Object.keys(response.json().payload.summary)).toEqual([
      'return_pickup_scheduled',
      'return_in_transit',
      'return_delivered',
      'cancelled',
      'return_lost',
      'total_shipments',
    ]);
  });

  const good = {
    start_date_time: '2026-11-01T00:00:00Z',
    end_date_time: '2026-11-30T00:00:00Z',
    shipment_type: 'forward',
  };
  const refused: [string, Record<string, unknown>, string, string][] = [
    ['a missing start_date_time', { ...good, start_date_time: undefined }, 'start_date_time', 'start_date_time'],
    ['a missing end_date_time', { ...good, end_date_time: undefined }, 'end_date_time', 'end_date_time'],
    ['a missing shipment_type', { ...good, shipment_type: undefined }, 'shipment_type', 'shipment_type'],
    [
      'an unknown shipment_type',
      { ...good, shipment_type: 'reverse' },
      'shipment_type',
      'must be "forward" or "return"',
    ],
    [
      'a start that is not a date',
      { ...good, start_date_time: 'yesterday' },
      'start_date_time',
      'start_date_time must be an ISO 8601 date-time',
    ],
    [
      'an impossible end date',
      { ...good, end_date_time: '2026-02-30T00:00:00Z' },
      'end_date_time',
      'end_date_time must be an ISO 8601 date-time',
    ],
    [
      'an end before the start',
      { ...good, end_date_time: '2026-10-31T23:59:59Z' },
      'end_date_time',
      'end_date_time must not be before start_date_time',
    ],
    [
      'a range over 1830 days',
      { ...good, start_date_time: '2020-01-01T00:00:00Z', end_date_time: '2026-01-01T00:00:00Z' },
      'end_date_time',
      'The range must not exceed 1830 days',
    ],
  ];
  it.each(refused)('refuses %s with 400 naming the field', async (_, body, field, message) => {
    const m = await merchant(ctx);
    const response = await expectNothingWritten(ctx.database, () => report(m.apiKey, body));
    expect(response.statusCode).toBe(400);
    const detail = response.json().details.find((d: { field: string }) => d.field === field);
    expect(detail?.message).toContain(message);
  });

  it('names both fields when both dates are unreadable', async () => {
    const m = await merchant(ctx);
    const response = await report(m.apiKey, { ...good, start_date_time: 'x', end_date_time: 'y' });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual([
      'start_date_time',
      'end_date_time',
    ]);
  });

  it('refuses a request without a credential with 401', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: REPORTS, payload: good });
    expect(response.statusCode).toBe(401);
  });
});
