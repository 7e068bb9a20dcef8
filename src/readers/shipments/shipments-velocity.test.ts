import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { BLUEDART_AIR, DELHIVERY_SURFACE, DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, MINUTE, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { book, type Booked, orderBodyFromFields } from '../../../test/kit/orders.js';
import { list, type ShipmentElement } from '../../../test/kit/shipments.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';

// Issue 10: the listing takes Velocity's names and forms beside SPEC's (VELOCITY.md "Listings").

/** What the listing adds for Velocity's integrations. */
type Attributes = ShipmentElement['attributes'] & {
  expected_delivery_date: string | null;
  order: { channel_id: string | null; vendor_details: Record<string, string> | null };
};

/**
 * Twelve shipments of one account, created a minute apart from 06:30Z (index = creation order), the
 * order of #i dated 2026-11-(09+i) 10:00 India time, with merchant order id VEL-i:
 *
 *  #  | warehouse | courier   | state the events leave it in
 *  0  | W1        | Shadowfax | delivered (booked with channel_id and vendor_details)
 *  1  | W1        | Delhivery | ndr_raised (customer_unavailable)
 *  2  | W1        | (none)    | pending, no courier
 *  3  | W2        | Shadowfax | pending, booked
 *  4  | W1        | DTDC      | pending (pickup_failed)
 *  5  | W1        | Shadowfax | in_transit
 *  6  | W2        | Delhivery | out_for_delivery
 *  7  | W1        | Blue Dart | rto_initiated, then others (lost)
 *  8  | W1        | DTDC      | others (lost)
 *  9  | W1        | Shadowfax | others (damaged)
 *  10 | W1        | Delhivery | cancelled
 *  11 | W1        | Blue Dart | rto_in_transit
 */
const COURIERS = [
  SHADOWFAX,
  DELHIVERY_SURFACE,
  undefined,
  SHADOWFAX,
  DTDC,
  SHADOWFAX,
  DELHIVERY_SURFACE,
  BLUEDART_AIR,
  DTDC,
  SHADOWFAX,
  DELHIVERY_SURFACE,
  BLUEDART_AIR,
];
const IN_W2 = new Set([3, 6]);
const ALL = COURIERS.map((_, i) => i);
const VENDOR = { name: 'Kala Crafts', phone: '+91 98111 00000', city: 'New Delhi', pin_code: 110020 };

let ctx: TestContext;
let apiKey: string;
let W1: string;
let W2: string;
let booked: Booked[];
/** Shipment ids of the given rows, in the listing's default order (newest first). */
const ids = (...rows: number[]) => [...rows].sort((a, b) => b - a).map((i) => booked[i]!.shipment_id);
/** The ids a filter lists; its meta.total must be exactly that many. */
async function filtered(body: Record<string, unknown>): Promise<string[]> {
  const { data, meta } = await list(ctx, apiKey, { per_page: 100, ...body });
  expect(meta.total).toBe(data.length);
  return data.map((s) => s.id);
}
const s = (iso: string) => Date.parse(iso) / 1000;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await ctx.createAccount());
  W1 = await createCityWarehouse(ctx, apiKey, 'delhi');
  W2 = await createCityWarehouse(ctx, apiKey, 'mumbai');
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  booked = [];
  for (const [i, carrierId] of COURIERS.entries()) {
    const fields = { orderId: `VEL-${i}`, orderDate: `2026-11-${String(9 + i).padStart(2, '0')} 10:00` };
    const warehouseId = IN_W2.has(i) ? W2 : W1;
    if (i === 0) {
      const body = {
        ...orderBodyFromFields(warehouseId, { ...fields, carrierId }),
        channel_id: 'SHOPIFY-88',
        vendor_details: VENDOR,
      };
      const response = await post(ctx, apiKey, ORCHESTRATE, body);
      expect(response.statusCode).toBe(200);
      booked.push(response.json().payload);
    } else {
      booked.push(await book(ctx, apiKey, warehouseId, { ...fields, carrierId }, carrierId !== undefined));
    }
    ctx.clock.advance(MINUTE);
  }

  ctx.clock.set('2026-11-20T08:00:00.000Z');
  const cancel = await post(ctx, apiKey, CANCEL, { awbs: [booked[10]!.awb_code] });
  expect(cancel.json().results[0].cancelled).toBe(true);

  ctx.clock.set('2026-11-25T00:00:00.000Z');
  const awb = (i: number) => booked[i]!.awb_code!;
  const scans: Record<string, CarrierEvent[]> = {
    [SHADOWFAX]: [
      { awb: awb(0), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z' },
      { awb: awb(0), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb: awb(0), status: 'delivered', sub_status: 'delivered', event_time: '2026-11-22T06:00:00Z' },
      { awb: awb(5), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-21T10:00:00Z' },
      { awb: awb(9), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T12:00:00Z' },
      { awb: awb(9), status: 'others', sub_status: 'damaged', event_time: '2026-11-21T12:00:00Z' },
    ],
    [DELHIVERY_SURFACE]: [
      { awb: awb(1), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T11:00:00Z' },
      { awb: awb(1), status: 'out_for_delivery', event_time: '2026-11-22T05:00:00Z' },
      { awb: awb(1), status: 'ndr_raised', sub_status: 'customer_unavailable', event_time: '2026-11-22T09:00:00Z' },
      { awb: awb(6), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T13:00:00Z' },
      { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-23T04:00:00Z' },
    ],
    [DTDC]: [
      { awb: awb(4), status: 'pending', sub_status: 'pickup_failed', event_time: '2026-11-20T12:00:00Z' },
      { awb: awb(8), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T14:00:00Z' },
      { awb: awb(8), status: 'others', sub_status: 'lost', event_time: '2026-11-22T14:00:00Z' },
    ],
    [BLUEDART_AIR]: [
      { awb: awb(7), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T15:00:00Z' },
      { awb: awb(7), status: 'rto_initiated', rto_reason: 'merchant_requested', event_time: '2026-11-21T15:00:00Z' },
      { awb: awb(7), status: 'others', sub_status: 'lost', event_time: '2026-11-23T15:00:00Z' },
      { awb: awb(11), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T16:00:00Z' },
      { awb: awb(11), status: 'rto_initiated', event_time: '2026-11-21T16:00:00Z' },
      { awb: awb(11), status: 'rto_in_transit', event_time: '2026-11-22T16:00:00Z' },
    ],
  };
  for (const [carrierId, events] of Object.entries(scans)) {
    const results = await sendEvents(ctx, await issueCarrierToken(ctx, carrierId), events);
    expect(results.every((r) => r.accepted)).toBe(true);
  }
  // Another account with an order of the same merchant id, which no filter of the first may show.
  const other = await ctx.createAccount();
  await book(ctx, other.apiKey, await createCityWarehouse(ctx, other.apiKey), { orderId: 'VEL-0' });
});

afterAll(async () => {
  await ctx.close();
});

describe('the fixture', () => {
  it('lists all twelve with the states the events produced', async () => {
    const { data, meta } = await list(ctx, apiKey, { per_page: 100 });
    expect(data.map((e) => e.id)).toEqual(ids(...ALL));
    expect(meta.total).toBe(12);
    const by = (i: number) => data.find((e) => e.id === booked[i]!.shipment_id)!.attributes;
    expect(ALL.map((i) => [by(i).order.display_id, by(i).status, by(i).sub_status, by(i).carrier?.id ?? null])).toEqual(
      [
        ['VEL-0', 'delivered', 'delivered', SHADOWFAX],
        ['VEL-1', 'ndr_raised', 'customer_unavailable', DELHIVERY_SURFACE],
        ['VEL-2', 'pending', null, null],
        ['VEL-3', 'pending', null, SHADOWFAX],
        ['VEL-4', 'pending', 'pickup_failed', DTDC],
        ['VEL-5', 'in_transit', 'picked_up', SHADOWFAX],
        ['VEL-6', 'out_for_delivery', null, DELHIVERY_SURFACE],
        ['VEL-7', 'others', 'lost', BLUEDART_AIR],
        ['VEL-8', 'others', 'lost', DTDC],
        ['VEL-9', 'others', 'damaged', SHADOWFAX],
        ['VEL-10', 'cancelled', 'cancelled_by_merchant', DELHIVERY_SURFACE],
        ['VEL-11', 'rto_in_transit', null, BLUEDART_AIR],
      ],
    );
  });
});

describe("Velocity's status words, on SPEC's statuses", () => {
  it.each([
    ['need_attention', [1]],
    ['reattempt_delivery', [1]],
    ['rto_need_attention', [7]],
    ['return_requested', [2]],
    ['return_pickup_scheduled', [3, 4]],
    ['pickup_scheduled', [3, 4]],
    ['return_in_transit', [5, 6]],
    ['in_transit', [5]],
    ['return_received', [0]],
    ['return_delivered', [0]],
    ['return_lost', [7, 8]],
    ['cancelled', [10]],
  ])('%s', async (status, rows) => {
    // Counted on the side (from the counters where they can answer), in the search's own scan,
    // and row by row (a warehouse filter beside a status is not a counter column): the same total.
    expect(await filtered({ status })).toEqual(ids(...rows));
    const searched = await list(ctx, apiKey, { status, search: 'asha@example.com', per_page: 1 });
    expect(searched.data.map((e) => e.id)).toEqual(ids(...rows).slice(0, 1));
    expect(searched.meta.total).toBe(rows.length);
    expect((await list(ctx, apiKey, { status, warehouse_ids: [W1, W2], per_page: 1 })).meta.total).toBe(rows.length);
  });

  it("SPEC's own statuses keep their meaning", async () => {
    expect(await filtered({ status: 'pending' })).toEqual(ids(2, 3, 4));
    expect(await filtered({ status: 'others' })).toEqual(ids(7, 8, 9));
    expect(await filtered({ status: 'ndr_raised' })).toEqual(ids(1));
    expect(await filtered({ status: 'rto_in_transit' })).toEqual(ids(11));
  });

  it.each([
    ['return_in_transit + carrier_ids', { status: 'return_in_transit', carrier_ids: [DELHIVERY_SURFACE] }, [6]],
    ['return_lost + granular_status lost', { status: 'return_lost', granular_status: ['lost'] }, [7, 8]],
    ['return_lost + granular_status damaged', { status: 'return_lost', 'granular_status[]': ['damaged'] }, []],
    ['pickup_scheduled + a carrier', { status: 'pickup_scheduled', carrier_id: DTDC }, [4]],
    ['return_requested + a carrier', { status: 'return_requested', carrier_id: SHADOWFAX }, []],
    ['rto_need_attention + rto_reason', { status: 'rto_need_attention', rto_reason: ['merchant_requested'] }, [7]],
    ['need_attention + attempts', { status: 'need_attention', attempts_count__gte: 1 }, [1]],
    ['return_in_transit + picked_up_at', { status: 'return_in_transit', picked_up_at__gte: '2026-11-21' }, [5]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it('pickup_scheduled + warehouse_id[]', async () => {
    expect(await filtered({ status: 'pickup_scheduled', 'warehouse_id[]': [W2] })).toEqual(ids(3));
  });
});

describe("Velocity's names for SPEC's filters, alone and beside them", () => {
  it.each([
    [{ 'carrier_ids[]': [SHADOWFAX] }, [0, 3, 5, 9]],
    [{ carrier_ids: DELHIVERY_SURFACE }, [1, 6, 10]],
    [{ carrier_ids: [DTDC, BLUEDART_AIR] }, [4, 7, 8, 11]],
    [{ 'carrier_id[]': [SHADOWFAX], carrier_ids: [DTDC] }, [0, 3, 4, 5, 8, 9]],
    [{ carrier_id: DTDC, 'carrier_ids[]': [DTDC] }, [4, 8]],
    [{ carrier_id: 'CARNOPE000001', 'carrier_ids[]': [DELHIVERY_SURFACE] }, [1, 6, 10]],
  ])('carrier_ids %j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it('warehouse_id', async () => {
    expect(await filtered({ 'warehouse_id[]': [W2] })).toEqual(ids(3, 6));
    expect(await filtered({ warehouse_id: W1 })).toEqual(ids(0, 1, 2, 4, 5, 7, 8, 9, 10, 11));
    expect(await filtered({ warehouse_ids: [W1], 'warehouse_id[]': [W2] })).toEqual(ids(...ALL));
    expect(await filtered({ 'warehouse_ids[]': W2, warehouse_id: [W2] })).toEqual(ids(3, 6));
    expect(await filtered({ warehouse_id: ['00000000-0000-4000-8000-000000000000'] })).toEqual([]);
  });
});

describe("display_id: the merchant's order ids, exactly", () => {
  it.each([
    [{ 'display_id[]': ['VEL-0', 'VEL-5'] }, [0, 5]],
    [{ display_id: 'VEL-11' }, [11]],
    [{ display_id: 'VEL-1', 'display_id[]': ['VEL-2'] }, [1, 2]],
    [{ display_id: ['VEL-1', 'VEL-1'] }, [1]],
    [{ display_id: 'vel-0' }, []],
    [{ display_id: 'VEL-' }, []],
    [{ display_id: 'NO-SUCH-ORDER' }, []],
    [{ display_id: ['VEL-0', 'VEL-1'], status: 'need_attention' }, [1]],
    [{ display_id: ['VEL-3', 'VEL-4'], search: 'asha' }, [3, 4]],
    [{ display_id: 'VEL-3', search: 'nobody' }, []],
  ])('%j', async (body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it('beside a warehouse', async () => {
    expect(await filtered({ display_id: ['VEL-3', 'VEL-6', 'VEL-9'], warehouse_id: W2 })).toEqual(ids(3, 6));
  });

  it("another account's order of the same id is its own", async () => {
    const other = await ctx.createAccount();
    expect((await list(ctx, other.apiKey, { display_id: 'VEL-0' })).meta.total).toBe(0);
    expect(await filtered({ display_id: 'VEL-0' })).toEqual(ids(0));
  });

  it('pages and counts like any filter', async () => {
    const first = await list(ctx, apiKey, { display_id: ['VEL-1', 'VEL-2', 'VEL-3'], per_page: 2 });
    expect(first.data.map((e) => e.id)).toEqual(ids(3, 2));
    expect(first.meta.total).toBe(3);
    const next = await list(ctx, apiKey, {
      display_id: ['VEL-1', 'VEL-2', 'VEL-3'],
      per_page: 2,
      search_after: first.meta.next_search_after,
    });
    expect(next.data.map((e) => e.id)).toEqual(ids(1));
    expect(next.meta).toEqual({ current_page: 1, per_page: 2, total: 3, next_search_after: null });
  });
});

describe('page as {"number": N}, and sort_by', () => {
  it('{"number": N} is page N', async () => {
    const all = ids(...ALL);
    const two = await list(ctx, apiKey, { page: { number: 2 }, per_page: 5 });
    expect(two).toEqual(await list(ctx, apiKey, { page: 2, per_page: 5 }));
    expect(two.data.map((e) => e.id)).toEqual(all.slice(5, 10));
    expect(two.meta).toMatchObject({ current_page: 2, per_page: 5, total: 12 });
    const three = await list(ctx, apiKey, { page: { number: 3 }, per_page: 5 });
    expect(three.data.map((e) => e.id)).toEqual(all.slice(10));
    expect(three.meta).toEqual({ current_page: 3, per_page: 5, total: 12, next_search_after: null });
    const first = await list(ctx, apiKey, { page: { number: 1 }, per_page: 100 });
    expect(first.data.map((e) => e.id)).toEqual(all);
  });

  it('sort_by created_at is the listing order, in either direction', async () => {
    expect(await list(ctx, apiKey, { sort_by: 'created_at', per_page: 100 })).toEqual(
      await list(ctx, apiKey, { per_page: 100 }),
    );
    const asc = await list(ctx, apiKey, { sort_by: 'created_at', sort_order: 'asc', per_page: 4 });
    expect(asc.data.map((e) => e.id)).toEqual(
      ids(...ALL)
        .reverse()
        .slice(0, 4),
    );
    const next = await list(ctx, apiKey, {
      sort_by: 'created_at',
      sort_order: 'asc',
      per_page: 4,
      search_after: asc.meta.next_search_after,
    });
    expect(next.data.map((e) => e.id)).toEqual(
      ids(...ALL)
        .reverse()
        .slice(4, 8),
    );
  });
});

describe('date pairs <field>__gte / <field>__lte (inclusive)', () => {
  it.each([
    [
      'created_at, ISO 8601 in UTC',
      { created_at__gte: '2026-11-20T06:32:00Z', created_at__lte: '2026-11-20T06:34:00Z' },
      [2, 3, 4],
    ],
    [
      'created_at, Unix seconds',
      { created_at__gte: s('2026-11-20T06:32:00Z'), created_at__lte: s('2026-11-20T06:34:00Z') },
      [2, 3, 4],
    ],
    [
      'created_at, Unix milliseconds',
      { created_at__gte: Date.parse('2026-11-20T06:32:00Z'), created_at__lte: Date.parse('2026-11-20T06:33:59.999Z') },
      [2, 3],
    ],
    ['created_at, India time without an offset', { created_at__gte: '2026-11-20 12:09' }, [9, 10, 11]],
    ['created_at, India time with T and seconds', { created_at__gte: '2026-11-20T12:09:00' }, [9, 10, 11]],
    ['created_at, with an offset', { created_at__lte: '2026-11-20T12:01:00+05:30' }, [0, 1]],
    ['created_at, with a fraction', { created_at__gte: '2026-11-20T06:40:59.999Z' }, [11]],
    ['order_date, whole India days', { order_date__gte: '2026-11-12', order_date__lte: '2026-11-14' }, [3, 4, 5]],
    ['order_date, up to the end of a day', { order_date__lte: '2026-11-09' }, [0]],
    ['order_date, from the start of a day', { order_date__gte: '2026-11-20' }, [11]],
    ['delivered_at', { delivered_at__gte: '2026-11-22', delivered_at__lte: '2026-11-22' }, [0]],
    ['delivered_at, before any delivery', { delivered_at__lte: '2026-11-21' }, []],
    ['picked_up_at', { picked_up_at__gte: '2026-11-20T13:00:00Z' }, [5, 6, 7, 8, 11]],
    [
      'cancelled_at',
      { cancelled_at__gte: s('2026-11-20T08:00:00Z'), cancelled_at__lte: s('2026-11-20T08:00:00Z') },
      [10],
    ],
    ['rto_initiated_at', { rto_initiated_at__lte: '2026-11-21T15:30:00Z' }, [7]],
    ['rto_initiated_at, both', { rto_initiated_at__gte: 0 }, [7, 11]],
    ['rto_delivered_at', { rto_delivered_at__gte: 0 }, []],
    ['updated_at', { updated_at__lte: '2026-11-20T07:00:00Z' }, [2, 3]],
    ['two fields at once', { created_at__lte: '2026-11-20T06:36:00Z', picked_up_at__gte: 0 }, [0, 1, 5, 6]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });

  it.each([
    [
      'start_time and a pair of the same field',
      { date_field: 'created_at', start_time: s('2026-11-20T06:31:00Z'), created_at__lte: '2026-11-20T06:33:00Z' },
      [1, 2, 3],
    ],
    [
      'the pair inside start/end',
      {
        start_time: s('2026-11-20T06:30:00Z'),
        end_time: s('2026-11-20T06:40:00Z'),
        created_at__gte: s('2026-11-20T06:35:00Z'),
        created_at__lte: s('2026-11-20T06:45:00Z'),
      },
      [5, 6, 7, 8, 9, 10],
    ],
    [
      'start_time inside the pair',
      { start_time: s('2026-11-20T06:36:00Z'), created_at__gte: s('2026-11-20T06:32:00Z') },
      [6, 7, 8, 9, 10, 11],
    ],
    ['end_time inside the pair', { end_time: s('2026-11-20T06:31:00Z'), created_at__lte: '2026-11-20' }, [0, 1]],
    [
      'start_time on order_date, a pair on created_at',
      { date_field: 'order_date', start_time: s('2026-11-14T00:00:00Z'), created_at__lte: '2026-11-20T06:37:00Z' },
      [5, 6, 7],
    ],
    [
      'no overlap: nothing, not an error',
      { start_time: s('2026-11-20T06:40:00Z'), created_at__lte: '2026-11-20T06:35:00Z' },
      [],
    ],
  ])('with start_time/end_time: %s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });
});

describe("what each shipment carries for Velocity's integrations", () => {
  const attributesOf = async (i: number) => {
    const { data } = await list(ctx, apiKey, { display_id: `VEL-${i}` });
    return data[0]!.attributes as Attributes;
  };

  it("the promised delivery date, the order's channel_id and vendor_details", async () => {
    const a = await attributesOf(0);
    expect(a.expected_delivery_date).toBe('2026-11-25');
    expect((booked[0] as Booked & { expected_delivery_date: string }).expected_delivery_date).toBe('2026-11-25');
    expect(a.order).toEqual({
      id: booked[0]!.order_id,
      order_date: '2026-11-09T04:30:00.000Z',
      channel: 'manual_order',
      display_id: 'VEL-0',
      external_id: 'VEL-0',
      store_name: null,
      channel_id: 'SHOPIFY-88',
      // A sales channel's (POST /channels); an order booked through the API has none.
      channel_order_id: null,
      channel_order_name: null,
      vendor_details: { name: 'Kala Crafts', phone: '9811100000', city: 'New Delhi', pin_code: '110020' },
    });
  });

  it('a booked shipment lists its promised date as milestones too', async () => {
    const a = await attributesOf(3);
    expect(a.expected_delivery_date).toBe('2026-11-21');
    expect(a.shipment_milestones).toEqual([
      { milestone: 'order_created', milestone_at: '2026-11-20T06:33:00.000Z' },
      { milestone: 'courier_assigned', milestone_at: '2026-11-20T06:33:00.000Z' },
      { milestone: 'expected_delivery_date', milestone_at: '2026-11-20T18:30:00.000Z' },
      { milestone: 'original_expected_delivery_date', milestone_at: '2026-11-20T18:30:00.000Z' },
    ]);
    expect(a.order).toMatchObject({ channel_id: null, vendor_details: null });
  });

  it("keeps the promised date milestones through the courier's scans (#0 is delivered)", async () => {
    const milestones = (await attributesOf(0)).shipment_milestones.map((m) => m.milestone);
    expect(milestones).toEqual(
      expect.arrayContaining(['expected_delivery_date', 'original_expected_delivery_date', 'delivered']),
    );
  });

  it('an unassigned shipment has no promised date', async () => {
    const a = await attributesOf(2);
    expect(a.expected_delivery_date).toBeNull();
    expect(a.shipment_milestones).toEqual([{ milestone: 'order_created', milestone_at: '2026-11-20T06:32:00.000Z' }]);
  });
});
