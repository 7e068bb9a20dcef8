import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import type { Booked } from '../../../test/kit/orders.js';
import { list } from '../../../test/kit/shipments.js';
import { ALL, useListingFixture } from '../../../test/listing-fixture.js';

// The listing's date ranges, search and combined filters, on the nine shipments of
// test/listing-fixture.ts. Each filter on its own: shipments-filters.test.ts.

let ctx: TestContext;
let apiKey: string;
let W1: string;
let W2: string;
let booked: Booked[];
const { ids, filtered } = useListingFixture((fixture) => {
  ({ ctx, apiKey, W1, W2, booked } = fixture);
});

describe('date ranges (inclusive; Unix seconds, or milliseconds from 10^12)', () => {
  const s = (iso: string) => Date.parse(iso) / 1000;
  const ms = (iso: string) => Date.parse(iso);

  it.each([
    [
      'created_at, seconds',
      { date_field: 'created_at', start_time: s('2026-11-20T06:32:00Z'), end_time: s('2026-11-20T06:34:00Z') },
      [2, 3, 4],
    ],
    [
      'created_at, milliseconds',
      { date_field: 'created_at', start_time: ms('2026-11-20T06:32:00Z'), end_time: ms('2026-11-20T06:33:59.999Z') },
      [2, 3],
    ],
    ['created_at is the default field', { start_time: s('2026-11-20T06:37:00Z') }, [7, 8]],
    // Whole India days are totalled from shipment_daily_totals, the rest counted (filtered() checks the total).
    [
      'created_at, a whole India day',
      { date_field: 'created_at', start_time: ms('2026-11-19T18:30:00Z'), end_time: ms('2026-11-20T18:29:59.999Z') },
      [...ALL],
    ],
    [
      'created_at, whole days with an edge',
      { start_time: ms('2026-11-15T18:30:00Z'), end_time: ms('2026-11-20T06:33:00Z') },
      [0, 1, 2, 3],
    ],
    [
      'created_at, whole days and a store',
      { start_time: ms('2026-11-01T18:30:00Z'), end_time: ms('2026-11-30T18:29:59.999Z'), store_name: 'fashion-hub' },
      [0, 3, 6],
    ],
    [
      'created_at, whole days and stores that include none of the fixture',
      { start_time: ms('2026-11-01T18:30:00Z'), store_name: 'no-such-store' },
      [],
    ],
    ['only an end', { end_time: s('2026-11-20T06:30:00Z') }, [0]],
    [
      'order_date, seconds',
      { date_field: 'order_date', start_time: s('2026-11-10T04:30:00Z'), end_time: s('2026-11-18T04:30:00Z') },
      [2, 3, 4],
    ],
    [
      'order_date, milliseconds',
      { date_field: 'order_date', start_time: ms('2026-11-19T00:00:00Z'), end_time: ms('2026-11-20T23:59:59Z') },
      [5, 6, 7, 8],
    ],
    [
      'picked_up_at',
      { date_field: 'picked_up_at', start_time: s('2026-11-20T11:00:00Z'), end_time: s('2026-11-20T13:00:00Z') },
      [1, 2, 3],
    ],
    ['picked_up_at, all', { date_field: 'picked_up_at', start_time: 0 }, [0, 1, 2, 3, 6, 7, 8]],
    [
      'delivered_at',
      { date_field: 'delivered_at', start_time: s('2026-11-23T00:00:00Z'), end_time: s('2026-11-23T23:59:59Z') },
      [6],
    ],
    [
      'delivered_at, milliseconds',
      { date_field: 'delivered_at', start_time: ms('2026-11-22T06:00:00Z'), end_time: ms('2026-11-22T06:00:00Z') },
      [0],
    ],
    [
      'cancelled_at',
      { date_field: 'cancelled_at', start_time: s('2026-11-20T08:00:00Z'), end_time: s('2026-11-20T08:00:00Z') },
      [4],
    ],
    ['rto_initiated_at', { date_field: 'rto_initiated_at', start_time: s('2026-11-22T00:00:00Z') }, [2, 8]],
    ['rto_delivered_at', { date_field: 'rto_delivered_at', end_time: s('2026-12-01T00:00:00Z') }, [8]],
    ['updated_at', { date_field: 'updated_at', start_time: s('2026-11-24T00:00:00Z') }, [0, 1, 2, 3, 6, 7, 8]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
  });
});

describe('search: case-insensitive substring of AWB, order ids, customer, phone, email, city, pincode', () => {
  it('finds a shipment by its exact AWB, in any case', async () => {
    const awb = booked[6]!.awb_code!;
    expect(await filtered({ search: awb })).toEqual(ids(6));
    expect(await filtered({ search: awb.toLowerCase() })).toEqual(ids(6));
  });

  it.each([
    ['partial phone', '877665', [1]],
    ['phone digits shared by three', '012345', [2, 7, 8]],
    ['city', 'jaipur', [1, 7]],
    ['city, capitals', 'JAIPUR', [1, 7]],
    ['pincode', '682001', [2, 8]],
    ['customer first name', 'Priya', [6]],
    ['customer last name with an apostrophe', "d'souza", [3]],
    ['email', 'meera@mail', [2]],
    ['order id, partial', 'abc-60', [6]],
    ['order id, exact', 'SHOP-ABC-6006', [6]],
    ['% is a literal character', '%', [3]],
    ['_ is a literal character', '_', [3]],
    ['% and _ together', 'd_100%o', [3]],
    ['a backslash is a literal character', '\\', [4]],
    ['no match', 'zzzz', []],
  ])('%s: %s', async (_name, search, rows) => {
    expect(await filtered({ search })).toEqual(ids(...rows));
  });

  it('finds a shipment by its order UUID', async () => {
    expect(await filtered({ search: booked[5]!.order_id })).toEqual(ids(5));
    expect(await filtered({ search: booked[5]!.order_id.toUpperCase() })).toEqual(ids(5));
  });

  it('counts every match whatever the page: offset, past the end, or search_after', async () => {
    const all = ids(...ALL);
    const p3 = await list(ctx, apiKey, { search: 'MAIL.TEST', per_page: 2, page: 3 });
    expect(p3.data.map((s) => s.id)).toEqual(all.slice(4, 6));
    expect(p3.meta.total).toBe(9);
    const past = await list(ctx, apiKey, { search: 'mail.test', per_page: 2, page: 6 });
    expect(past.data).toEqual([]);
    expect(past.meta).toEqual({ current_page: 6, per_page: 2, total: 9, next_search_after: null });
    const after = await list(ctx, apiKey, {
      search: 'mail.test',
      per_page: 2,
      search_after: p3.meta.next_search_after,
    });
    expect(after.data.map((s) => s.id)).toEqual(all.slice(6, 8));
    expect(after.meta.total).toBe(9);
    const none = await list(ctx, apiKey, { search: 'mail.test', is_cod: true, 'zone[]': ['zone_a'] });
    expect(none.meta.total).toBe(0);
  });

  // A whole key (AWB, merchant order id, order id, a buyer's phone in any notation) is found
  // through its index and finds exactly its shipments; anything else stays a substring search.
  it.each([
    ['a whole phone finds its buyer alone, not the other account sharing it', '9988776655', [1]],
    ['a whole phone in another notation', '+91 70123-45678', [7]],
    ['a whole phone with the trunk prefix', '08012345678', [8]],
    ['its last nine digits are a substring of two', '012345678', [7, 8]],
    ['a whole order id in lower case', 'shop-abc-6006', [6]],
    ['a whole order id with spaces around it', '  SHOP-ABC-6006 ', [6]],
    ["another account's order id", 'OTHER-1', []],
    ['a phone nobody has, in a notation no text holds', '+91 99999 00000', []],
  ])('%s: %s', async (_name, search, rows) => {
    expect(await filtered({ search })).toEqual(ids(...rows));
  });

  it('a whole key still meets the other filters, in the page and the total', async () => {
    const awb = booked[6]!.awb_code!;
    // Row 6 is cash on delivery (shipments-filters.test.ts).
    expect(await filtered({ search: awb.toLowerCase(), is_cod: false })).toEqual([]);
    expect(await filtered({ search: awb, is_cod: true })).toEqual(ids(6));
  });

  it('an unassigned shipment is found by the rest of its text', async () => {
    expect(await filtered({ search: 'qureshi' })).toEqual(ids(5));
  });
});

describe('filters combined (AND), and both key forms', () => {
  it.each([
    ['status + is_cod + carrier', { status: 'delivered', is_cod: true, 'carrier_id[]': [DELHIVERY_SURFACE] }, [6]],
    ['zone + tags', { zone: ['zone_c', 'zone_d'], tags: ['gift'] }, [0, 1, 6]],
    ['store + sku', { store_name: 'fashion-hub', sku: 'KURTA-M-BLUE' }, [0]],
    ['search + status', { search: 'jaipur', status: 'others' }, [7]],
    ['date + weight', { date_field: 'picked_up_at', start_time: 0, applied_weight_min: 1000 }, [1, 3, 6, 8]],
    ['granular + ndr_reason', { granular_status: ['customer_unavailable'], ndr_reason: ['customer_unavailable'] }, [1]],
    [
      'four filters',
      {
        status: 'delivered',
        is_cod: true,
        zone: ['zone_c'],
        date_field: 'delivered_at',
        start_time: Date.parse('2026-11-23T00:00:00Z') / 1000,
      },
      [6],
    ],
    ['contradictory', { status: 'pending', 'carrier_id[]': [SHADOWFAX] }, []],
    ['name and name[] together: the union of both', { zone: 'zone_a', 'zone[]': ['zone_b'] }, [3, 4]],
    ['a value repeated in both forms', { tags: ['gift'], 'tags[]': 'gift' }, [0, 1, 6]],
  ])('%s', async (_name, body, rows) => {
    expect(await filtered(body)).toEqual(ids(...rows));
    expect((await list(ctx, apiKey, body)).meta.total).toBe(rows.length);
  });

  it('warehouse + attempts', async () => {
    expect(await filtered({ warehouse_ids: [W2], attempts_count__gte: 1 })).toEqual(ids(6));
    expect(await filtered({ 'warehouse_ids[]': W1, status: 'delivered', is_cod: false })).toEqual(ids(0));
  });

  it('filters apply to the count, the page and search_after alike', async () => {
    const first = await list(ctx, apiKey, { per_page: 2, is_cod: true });
    expect(first.meta).toEqual({
      current_page: 1,
      per_page: 2,
      total: 4,
      next_search_after: [String(Date.parse('2026-11-20T06:35:00Z')), booked[5]!.shipment_id],
    });
    expect(first.data.map((s) => s.id)).toEqual(ids(6, 5));
    const second = await list(ctx, apiKey, {
      per_page: 2,
      is_cod: true,
      search_after: first.meta.next_search_after,
      page: 2,
    });
    expect(second.data.map((s) => s.id)).toEqual(ids(2, 1));
    expect(second.meta).toEqual({ current_page: 2, per_page: 2, total: 4, next_search_after: null });
  });
});
