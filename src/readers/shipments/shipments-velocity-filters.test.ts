import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { type GranularFixture, granularFixture, ROWS } from '../../../test/granular-fixture.js';
import { list } from '../../../test/kit/shipments.js';
import { at } from '../../../test/kit/tracking.js';

// Issue 25: the listing's parameters and attributes from Velocity's API document that Dakiya lacked
// (VELOCITY.md, "More from Velocity's API document"), on the shipments of test/granular-fixture.ts.

let ctx: TestContext;
let f: GranularFixture;
useTestApp(async (app) => {
  ctx = app;
  f = await granularFixture(ctx);
});
const ALL = Array.from({ length: ROWS }, (_, i) => i);
const BUT = (...rows: number[]) => ALL.filter((i) => !rows.includes(i));
const s = (iso: string) => Date.parse(iso) / 1000;
type Attributes = Record<string, unknown> & { shipment_milestones: { milestone: string; milestone_at: string }[] };
const attributesOf = async (row: number) =>
  (await list(ctx, f.apiKey, { display_id: `GR-${row}` })).data[0]!.attributes as unknown as Attributes;

describe('filters Dakiya lacked, each matching and not', () => {
  it.each([
    ['label_generated true: a courier is booked', { label_generated: true }, BUT(0)],
    ['label_generated false', { label_generated: false }, [0]],
    ['city, any case', { city: 'PUNE' }, [5]],
    ['city, the rest', { city: 'mumbai' }, BUT(5)],
    ['city, only whole', { city: 'Pun' }, []],
    ['order_display_id', { 'order_display_id[]': ['GR-5'] }, [5]],
    ['order_display_id merged with display_id', { order_display_id: 'GR-5', display_id: ['GR-6'] }, [5, 6]],
    ['order_display_id, case-sensitive', { order_display_id: 'gr-5' }, []],
    ['manifested false: none is on a pickup here (pickups.once.test.ts has some)', { manifested: false }, ALL],
    ['manifested true', { manifested: true }, []],
    ['pickup_id that is not a pickup id', { pickup_id: '17' }, []],
    ['call_status: Dakiya keeps none', { 'call_status[]': ['answered'] }, []],
    ['oc_all_outcomes: a word Dakiya does not write', { oc_all_outcomes: 'delivered' }, []],
    ['an unkept filter beside one that matches', { city: 'Pune', call_status: 'answered' }, []],
    [
      'date_field ready_for_pickup_at: the booking',
      { date_field: 'ready_for_pickup_at', start_time: s('2026-11-20T06:01:00Z'), end_time: s('2026-11-20T06:02:00Z') },
      [1, 2],
    ],
    [
      'ready_for_pickup_at before any booking',
      { date_field: 'ready_for_pickup_at', end_time: s('2026-11-20T05:30:00Z') },
      [],
    ],
    ['in_transit_at__gte: the pickup scan', { in_transit_at__gte: at(14) }, [4]],
    ['in_transit_at__lte before any pickup', { in_transit_at__lte: at(9) }, []],
    [
      'date_field ndr_raised_at: the first failed delivery',
      { date_field: 'ndr_raised_at', start_time: s(at(95)), end_time: s(at(100)) },
      [8, 9],
    ],
    ['ndr_raised_at__gte after the last', { ndr_raised_at__gte: at(101) }, []],
    ['sub_status[] beside city', { sub_status: 'picked_up', city: 'Mumbai' }, [4]],
  ])('%s', async (_name, body, rows) => {
    expect(await f.filtered(body)).toEqual(f.ids(...rows));
  });

  it.each([
    ['expected_delivery_date_at', 'expected_delivery_date'],
    ['original_expected_delivery_date_at', 'original_expected_delivery_date'],
  ])('date_field %s: the promised day, a milestone', async (field, milestone) => {
    const promised = (await attributesOf(1)).shipment_milestones.find((m) => m.milestone === milestone)!.milestone_at;
    const withIt: number[] = [];
    for (const i of ALL)
      if (
        (await attributesOf(i)).shipment_milestones.some(
          (m) => m.milestone === milestone && m.milestone_at === promised,
        )
      )
        withIt.push(i);
    expect(withIt.length).toBeGreaterThan(10);
    expect(withIt).not.toContain(0);
    expect(await f.filtered({ date_field: field, start_time: s(promised), end_time: s(promised) })).toEqual(
      f.ids(...withIt),
    );
    expect(await f.filtered({ date_field: field, end_time: s(promised) - 1 })).toEqual([]);
  });
});

describe('paging as Velocity writes it', () => {
  const newestFirst = () => f.ids(...ALL);
  it.each([
    ['page[number] and page[per_page] as flat keys', { 'page[number]': 2, 'page[per_page]': 5 }],
    ['page as {number, per_page}', { page: { number: 2, per_page: 5 } }],
    ['page as {number} beside per_page', { page: { number: 2 }, per_page: 5 }],
  ])('%s', async (_name, body) => {
    const { data, meta } = await list(ctx, f.apiKey, body);
    expect(meta).toMatchObject({ current_page: 2, per_page: 5, total: ROWS });
    expect(data.map((x) => x.id)).toEqual(newestFirst().slice(5, 10));
  });

  it('defaults to 20 a page', async () => {
    expect((await list(ctx, f.apiKey, { page: {} })).meta).toMatchObject({ current_page: 1, per_page: 20 });
  });
});

describe('attributes Dakiya lacked', () => {
  it('rto_awb, rto_reason and the RTO charges once the RTO began (#12, COD)', async () => {
    const a = await attributesOf(12);
    const charges = (
      f.booked[12] as unknown as {
        charges: { forward_freight_charges: number; cod_charges: number; rto_freight_charges: number };
      }
    ).charges;
    expect(charges.rto_freight_charges).toBeGreaterThan(0);
    expect(charges.cod_charges).toBeGreaterThan(0);
    expect(a).toMatchObject({
      rto_awb: f.booked[12]!.awb_code,
      rto_reason: 'customer_refused',
      ndr_reason: null,
      granular_status: 'rto_initiated',
      fare_breakup: {
        forward_charges: charges.forward_freight_charges,
        cod_charges: charges.cod_charges,
        rto_charges: charges.rto_freight_charges,
        total_charges:
          Math.round((charges.forward_freight_charges + charges.cod_charges + charges.rto_freight_charges) * 100) / 100,
      },
    });
  });

  it('before an RTO: no rto_awb, no RTO charge (#5, prepaid); the NDR reason of a failed delivery (#7)', async () => {
    const a = await attributesOf(5);
    const charges = (f.booked[5] as unknown as { charges: { forward_freight_charges: number; cod_charges: number } })
      .charges;
    expect(a).toMatchObject({
      rto_awb: null,
      rto_reason: null,
      fare_breakup: {
        forward_charges: charges.forward_freight_charges,
        cod_charges: 0,
        rto_charges: 0,
        total_charges: charges.forward_freight_charges,
      },
    });
    expect(charges.cod_charges).toBe(0);
    expect(await attributesOf(7)).toMatchObject({
      ndr_reason: 'customer_unavailable',
      attempt_count: 1,
      granular_status: 'ndr_raised',
    });
  });

  it('no fare_breakup, carrier or rto_awb before a courier is booked (#0)', async () => {
    expect(await attributesOf(0)).toMatchObject({
      fare_breakup: null,
      carrier: null,
      rto_awb: null,
      granular_status: 'pending',
    });
  });
});
