import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { DATE_BOUND_ERROR } from '../../domain/shipment/date-bounds.js';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, MINUTE, post, RETURNS, SHIPMENTS } from '../../../test/kit/http.js';
import { type BookedReturn, bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse, merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
let shadowfax: string;
useTestApp(async (app) => {
  ctx = app;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});

interface Listing {
  data: { id: string; type: string; attributes: Record<string, unknown> }[];
  meta: { current_page: number; per_page: number; total: number; next_search_after: [string, string] | null };
}

async function list(apiKey: string, body: Record<string, unknown> = {}): Promise<Listing> {
  const response = await post(ctx, apiKey, RETURNS, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * One account's returns, a clock minute apart, oldest first: a QC return picked up (QC passed),
 * one in transit, one delivered, one failed QC (cancelled), a non-QC one on DTDC to a second
 * warehouse, and one with no courier yet.
 */
async function seed() {
  const m = await merchantWithCityWarehouse(ctx);
  const mumbai = await createCityWarehouse(ctx, m.apiKey, 'mumbai');
  const r: BookedReturn[] = [];
  const next = async (fields: Parameters<typeof bookReturn>[3], book = true) => {
    r.push(await bookReturn(ctx, m.apiKey, m.warehouseId, fields, book));
    ctx.clock.advance(MINUTE);
  };
  await next({ qc: true, carrierId: SHADOWFAX, sku: 'KURTA-M' });
  await next({ qc: true, carrierId: SHADOWFAX, sku: 'SHIRT-L' });
  await next({ qc: true, carrierId: SHADOWFAX, sku: 'KURTA-M' });
  await next({ qc: true, carrierId: SHADOWFAX, sku: 'SAREE-1' });
  await next({ carrierId: DTDC, sku: 'SHIRT-L', warehouseId: mumbai, subTotal: 1250 });
  await next({ sku: 'KURTA-M' }, false);
  await sendEvents(ctx, shadowfax, [
    { awb: r[0]!.awb_code!, status: 'return_picked_up', event_time: at(-100), qc_status: 'passed' } as never,
    { awb: r[1]!.awb_code!, status: 'return_picked_up', event_time: at(-90), qc_status: 'passed' } as never,
    { awb: r[1]!.awb_code!, status: 'return_in_transit', event_time: at(-80) },
    { awb: r[2]!.awb_code!, status: 'return_picked_up', event_time: at(-70), qc_status: 'passed' } as never,
    { awb: r[2]!.awb_code!, status: 'return_delivered', event_time: at(-20) },
    {
      awb: r[3]!.awb_code!,
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      event_time: at(-60),
      qc_status: 'failed',
      qc_reason: 'Used',
    } as never,
  ]);
  return { ...m, mumbai, r, ids: r.map((x) => x.return_id) };
}

describe('POST /returns', () => {
  it('lists returns newest first as {id, type: "return", attributes}, with exact meta', async () => {
    const s = await seed();
    const listing = await list(s.apiKey);
    expect(listing.meta).toEqual({ current_page: 1, per_page: 20, total: 6, next_search_after: null });
    expect(listing.data.map((e) => e.id)).toEqual([...s.ids].reverse());
    const delivered = listing.data.find((e) => e.id === s.ids[2])!;
    expect(delivered).toEqual({
      id: s.ids[2],
      type: 'return',
      attributes: {
        tracking_number: s.r[2]!.awb_code,
        status: 'return_delivered',
        sub_status: null,
        granular_status: 'return_delivered',
        qc_enabled: true,
        qc_status: 'passed',
        qc_reason: null,
        refund_status: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        picked_up_at: at(-70),
        delivered_at: at(-20),
        cancelled_at: null,
        shipment_id: s.r[2]!.shipment_id,
        warehouse_id: s.warehouseId,
        total_price: 499,
        is_cod: false,
        zone: 'zone_c',
        applied_weight: { value: 500, metric_unit: 'g' },
        carrier: { id: SHADOWFAX, name: 'Shadowfax Standard' },
        order: { order_date: '2026-11-19T18:30:00.000Z', display_id: s.r[2]!.order_id, channel_id: null },
        forward_shipment_id: null,
        is_exchange: 0,
        exchange: null,
        items: [
          { id: expect.any(String), quantity: 1, price: 499, name: 'Cotton Kurta', sku: 'KURTA-M', qc_enable: true },
        ],
        pickup_address: {
          name: 'Asha Menon',
          phone: '9123456780',
          city: 'Mumbai',
          state: 'Maharashtra',
          zip: '400001',
        },
        shipping_address: {
          name: 'Warehouse delhi',
          phone: '9876543210',
          city: 'New Delhi',
          state: 'Delhi',
          zip: '110001',
        },
        tracking_details: [
          {
            id: expect.any(String),
            status: 'return_picked_up',
            sub_status: null,
            last_location: null,
            event_date_time: at(-70),
            description: null,
          },
          {
            id: expect.any(String),
            status: 'return_delivered',
            sub_status: null,
            last_location: null,
            event_date_time: at(-20),
            description: null,
          },
        ],
      },
    });
    expect(listing.data.find((e) => e.id === s.ids[5])!.attributes).toMatchObject({
      tracking_number: null,
      status: 'return_requested',
      carrier: null,
      qc_enabled: false,
    });
  });

  it('filters with exact totals: status words, qc_status[], carriers, warehouses, SKUs, is_cod, search, dates', async () => {
    const s = await seed();
    const [qcPicked, inTransit, delivered, qcFailed, plain, unbooked] = s.ids;
    const cases: [Record<string, unknown>, (string | undefined)[]][] = [
      [{ status: 'return_picked_up' }, [qcPicked]],
      [{ status: 'in_transit' }, [inTransit, qcPicked]],
      [{ status: 'return_received' }, [delivered]],
      [{ status: 'cancelled' }, [qcFailed]],
      [{ status: 'pickup_scheduled' }, [plain]],
      [{ status: 'return_requested' }, [unbooked]],
      // Velocity's granular words (issue 25): picked up and in transit are both return_in_transit.
      [{ granular_status: 'return_in_transit' }, [inTransit, qcPicked]],
      [{ 'granular_status[]': ['return_qc_failed'] }, [qcFailed]],
      [{ granular_status: 'return_cancelled' }, []],
      [{ granular_status: ['pending', 'return_pickup_scheduled'] }, [unbooked, plain]],
      [{ granular_status: 'return_delivered' }, [delivered]],
      [{ granular_status: 'qc_failed' }, [qcFailed]],
      [{ granular_status: ['ready_for_pickup', 'return_not_picked'] }, []],
      [{ qc_status: 'failed' }, [qcFailed]],
      [{ 'qc_status[]': ['failed', 'not_applicable'] }, [unbooked, plain, qcFailed]],
      [{ 'qc_status[]': 'pending' }, []],
      [{ 'carrier_id[]': [DTDC] }, [plain]],
      [{ carrier_ids: [DTDC], 'carrier_id[]': [SHADOWFAX] }, [plain, qcFailed, delivered, inTransit, qcPicked]],
      [{ 'warehouse_id[]': [s.mumbai] }, [plain]],
      [{ warehouse_ids: s.warehouseId }, [unbooked, qcFailed, delivered, inTransit, qcPicked]],
      [{ 'sku[]': ['KURTA-M'] }, [unbooked, delivered, qcPicked]],
      [{ sku: ['SHIRT-L', 'SAREE-1'] }, [plain, qcFailed, inTransit]],
      [{ is_cod: true }, []],
      [{ is_cod: false, status: 'return_delivered' }, [delivered]],
      [{ search: s.r[1]!.awb_code!.toLowerCase() }, [inTransit]],
      [{ search: s.r[4]!.order_id }, [plain]],
      [{ search: 'asha MEN' }, [unbooked, plain, qcFailed, delivered, inTransit, qcPicked]],
      [{ date_field: 'delivered_at', start_time: Date.parse(at(-30)) / 1000 }, [delivered]],
      [
        { date_field: 'picked_up_at', start_time: Date.parse(at(-95)), end_time: Date.parse(at(-65)) },
        [delivered, inTransit],
      ],
      [{ date_field: 'cancelled_at', end_time: Date.parse(at(0)) / 1000, 'qc_status[]': ['failed'] }, [qcFailed]],
    ];
    for (const [body, expected] of cases) {
      const listing = await list(s.apiKey, body);
      expect({ body, ids: listing.data.map((e) => e.id), total: listing.meta.total }).toEqual({
        body,
        ids: expected,
        total: expected.length,
      });
    }
  });

  it("takes Velocity's date pairs on its own date fields, each narrowing start_time/end_time", async () => {
    const s = await seed();
    const [qcPicked, inTransit, delivered, qcFailed, plain, unbooked] = s.ids;
    const everyone = [unbooked, plain, qcFailed, delivered, inTransit, qcPicked];
    const created = Object.fromEntries(
      (await list(s.apiKey)).data.map((e) => [e.id, Date.parse(e.attributes.created_at as string)]),
    );
    const seconds = (minutes: number) => Date.parse(at(minutes)) / 1000;
    // at(0) is 12:00 India time on 20 November; picked up at(-100), at(-90), at(-70), cancelled at(-60), delivered at(-20).
    const cases: [Record<string, unknown>, (string | undefined)[]][] = [
      [{ order_date__gte: '2026-11-20', order_date__lte: '2026-11-20' }, everyone],
      [{ order_date__gte: '2026-11-21' }, []],
      [{ delivered_at__gte: '2026-11-20', delivered_at__lte: '2026-11-20' }, [delivered]],
      [{ delivered_at__lte: '2026-11-19' }, []],
      [{ picked_up_at__gte: '2026-11-20T10:25:00' }, [delivered, inTransit]],
      [{ picked_up_at__lte: '2026-11-20 10:20' }, [qcPicked]],
      [{ picked_up_at__lte: '2026-11-20T05:00:00Z' }, [inTransit, qcPicked]],
      [{ cancelled_at__gte: seconds(-60) }, [qcFailed]],
      [{ cancelled_at__gte: String(seconds(-60)) }, [qcFailed]],
      [{ cancelled_at__lte: Date.parse(at(-61)) }, []],
      [
        { created_at__gte: created[inTransit!], created_at__lte: created[qcFailed!]! / 1000 },
        [qcFailed, delivered, inTransit],
      ],
      [
        { date_field: 'picked_up_at', start_time: seconds(-95), picked_up_at__lte: '2026-11-20T10:50:00' },
        [delivered, inTransit],
      ],
      [
        {
          date_field: 'picked_up_at',
          start_time: seconds(-200),
          end_time: seconds(0),
          picked_up_at__gte: seconds(-90),
          picked_up_at__lte: seconds(-80),
        },
        [inTransit],
      ],
      [
        {
          start_time: created[qcPicked!]! / 1000,
          created_at__lte: created[inTransit!],
          delivered_at__lte: '2026-11-20',
        },
        [],
      ],
      [
        {
          start_time: created[qcPicked!]! / 1000,
          created_at__lte: created[delivered!],
          picked_up_at__gte: seconds(-90),
        },
        [delivered, inTransit],
      ],
    ];
    for (const [body, expected] of cases) {
      const listing = await list(s.apiKey, body);
      expect({ body, ids: listing.data.map((e) => e.id), total: listing.meta.total }).toEqual({
        body,
        ids: expected,
        total: expected.length,
      });
    }
    const forwardOnly = await post(ctx, s.apiKey, RETURNS, { rto_delivered_at__gte: '2026-11-21' });
    expect(forwardOnly.headers['dakiya-ignored-fields']).toBe('rto_delivered_at__gte');
    expect(forwardOnly.json().meta.total).toBe(6);
  });

  it('pages by offset and by search_after, in both directions, with no repeats or gaps', async () => {
    const s = await seed();
    const newestFirst = [...s.ids].reverse();
    const second = await list(s.apiKey, { page: { number: 2 }, per_page: 2 });
    expect(second.data.map((e) => e.id)).toEqual(newestFirst.slice(2, 4));
    expect(second.meta).toMatchObject({ current_page: 2, per_page: 2, total: 6 });
    for (const [order, expected] of [
      ['desc', newestFirst],
      ['asc', s.ids],
    ] as const) {
      const seen: string[] = [];
      let cursor: [string, string] | null = null;
      do {
        const listing: Listing = await list(s.apiKey, {
          per_page: 4,
          sort_order: order,
          ...(cursor && { search_after: cursor }),
        });
        expect(listing.meta.total).toBe(6);
        seen.push(...listing.data.map((e) => e.id));
        cursor = listing.meta.next_search_after;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
  });

  it("lists only the account's returns, and the forward listing is unchanged by them", async () => {
    const s = await seed();
    const other = await merchantWithCityWarehouse(ctx);
    expect((await list(other.apiKey)).meta.total).toBe(0);
    expect((await list(other.apiKey, { search: s.r[0]!.awb_code })).data).toEqual([]);
    const forward = await post(ctx, s.apiKey, SHIPMENTS, {});
    expect(forward.json().meta.total).toBe(0);
  });

  it('an empty POST and a missing credential', async () => {
    const s = await merchantWithCityWarehouse(ctx);
    const empty = await ctx.app.inject({ method: 'POST', url: RETURNS, headers: authed(s.apiKey) });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      data: [],
      meta: { current_page: 1, per_page: 20, total: 0, next_search_after: null },
    });
    expect((await ctx.app.inject({ method: 'POST', url: RETURNS, payload: {} })).statusCode).toBe(401);
  });

  const STATUSES =
    'return_requested, return_pickup_scheduled, return_picked_up, return_in_transit, return_delivered, return_cancelled, return_lost, ' +
    'pickup_scheduled, in_transit, return_received, cancelled';
  const QC = 'must be one of passed, failed, pending, not_applicable, or an array of 1 to 100 of them';
  const GRANULAR =
    "must be one of Velocity's statuses or a return sub-status: pending, rejected, processing, ready_for_pickup, pickup_scheduled, " +
    'not_picked, in_transit, out_for_delivery, delivered, ndr_raised, need_attention, reattempt_delivery, cancelled, lost, ' +
    'rto_initiated, rto_cancelled, rto_in_transit, rto_need_attention, rto_delivered, return_rejected, return_pickup_scheduled, ' +
    'return_not_picked, return_qc_failed, return_in_transit, return_delivered, return_cancelled, return_ndr_raised, ' +
    'return_need_attention, externally_fulfilled, return_pickup_rescheduled, return_pickup_failed, return_picked_up, ' +
    'return_reached_hub, return_out_for_delivery, return_cancelled_by_merchant, return_cancelled_by_courier, qc_failed, ' +
    'customer_refused, return_lost, return_damaged, or an array of 1 to 100 of them';
  const CASES: [string, unknown, string[]][] = [
    ['per_page 101', { per_page: 101 }, ['per_page must be a whole number from 1 to 100']],
    ['a forward status', { status: 'rto_delivered' }, [`status must be one of ${STATUSES}`]],
    ['an unknown qc_status', { 'qc_status[]': ['ok'] }, [`qc_status[] ${QC}`, `qc_status[].0 ${QC}`]],
    [
      'a forward date field',
      { date_field: 'rto_delivered_at' },
      ['date_field must be one of created_at, order_date, updated_at, picked_up_at, delivered_at, cancelled_at'],
    ],
    [
      'start_time after end_time',
      { start_time: 1795200000, end_time: 1795100000 },
      ['start_time must not be after end_time'],
    ],
    [
      'search_after with a non-UUID id',
      { search_after: ['1795156320000', 'SFX0000000001'] },
      ['search_after.1 must be a return id (UUID)'],
    ],
    ['is_cod as a word', { is_cod: 'no' }, ['is_cod must be true or false']],
    ['a forward sub-status as granular_status', { granular_status: 'picked_up' }, [`granular_status ${GRANULAR}`]],
    ['created_at__gte a word', { created_at__gte: 'yesterday' }, [`created_at__gte ${DATE_BOUND_ERROR}`]],
    ['delivered_at__lte 30 February', { delivered_at__lte: '2026-02-30' }, [`delivered_at__lte ${DATE_BOUND_ERROR}`]],
    ['order_date__gte negative', { order_date__gte: -1 }, [`order_date__gte ${DATE_BOUND_ERROR}`]],
    [
      'a date pair the wrong way round',
      { picked_up_at__gte: '2026-11-21', picked_up_at__lte: '2026-11-20' },
      ['picked_up_at__gte must not be after picked_up_at__lte'],
    ],
    [
      'a date pair the wrong way round in Unix seconds and ISO',
      { cancelled_at__gte: 1795200001, cancelled_at__lte: '2026-11-20T15:30:00Z' },
      ['cancelled_at__gte must not be after cancelled_at__lte'],
    ],
  ];
  it.each(CASES)('400: %s', async (_name, body, messages) => {
    const s = await merchantWithCityWarehouse(ctx);
    const response = await post(ctx, s.apiKey, RETURNS, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: messages[0],
      errors: messages,
      details: messages.map((message) => ({ field: message.slice(0, message.indexOf(' ')), message })),
    });
  });

  it('ignores, and names, a field it does not know (a forward-only filter), as the forward listing does; refund_status[] it knows', async () => {
    const s = await seed();
    const response = await post(ctx, s.apiKey, RETURNS, {
      ndr_reason: 'refused',
      'refund_status[]': ['not_applicable'],
      status: 'return_received',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('ndr_reason');
    // Booked by the merchant, not from a buyer's request: no refund.
    expect(response.json().meta.total).toBe(1);
  });
});
