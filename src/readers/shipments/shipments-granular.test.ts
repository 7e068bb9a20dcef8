import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { GRANULAR_ROWS, type GranularFixture, granularFixture, ROWS } from '../../../test/granular-fixture.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, META_STATUSES } from '../../../test/kit/http.js';
import { list } from '../../../test/kit/shipments.js';
import { track } from '../../../test/kit/tracking.js';

// Issue 25: Velocity's granular statuses on the listing (attribute and granular_status[] filter),
// in order-tracking, and in GET /meta/statuses. The seventeen shipments are in test/granular-fixture.ts.

let ctx: TestContext;
let f: GranularFixture;
useTestApp(async (app) => {
  ctx = app;
  f = await granularFixture(ctx);
});

describe('granular_status[]: every word Dakiya produces, on a forward shipment', () => {
  it.each(Object.entries(GRANULAR_ROWS))(
    '%s lists exactly its shipments, each showing the word',
    async (word, rows) => {
      expect(await f.filtered({ granular_status: word })).toEqual(f.ids(...rows));
      const { data } = await list(ctx, f.apiKey, { 'granular_status[]': [word] });
      expect(data.map((s) => (s.attributes as { granular_status?: string }).granular_status)).toEqual(
        rows.map(() => word),
      );
    },
  );

  it('each shipment has one word, and the words cover the fixture', async () => {
    const listed = (await list(ctx, f.apiKey, { per_page: 100 })).data;
    const byId = new Map(listed.map((s) => [s.id, (s.attributes as { granular_status?: string }).granular_status]));
    const expected = new Map(
      Object.entries(GRANULAR_ROWS).flatMap(([word, rows]) => rows.map((i) => [f.booked[i]!.shipment_id, word])),
    );
    expect(byId).toEqual(expected);
    expect(byId.size).toBe(ROWS);
  });

  it.each([
    ['rejected'],
    ['processing'],
    ['rto_cancelled'],
    ['externally_fulfilled'],
    ['return_pickup_scheduled'],
    ['return_in_transit'],
    ['return_qc_failed'],
  ])('%s, a word no forward shipment has, matches nothing', async (word) => {
    expect(await f.filtered({ granular_status: word })).toEqual([]);
  });

  it.each([
    ["a sub-status: today's meaning, whatever the word", ['customer_unavailable'], [7, 8]],
    ['a sub-status of a failed delivery with a reattempt asked', ['refused'], [9]],
    ['picked_up: the shipment still at that scan', ['picked_up'], [4]],
    ['a word and a sub-status together: either', ['ndr_raised', 'refused'], [7, 9]],
    ['several words', ['ndr_raised', 'need_attention', 'reattempt_delivery'], [7, 8, 9, 16]],
    ['lost, both a word and a sub-status', ['lost'], [11]],
    ['a sub-status no shipment has now', ['rto_out_for_delivery'], []],
  ])('%s', async (_name, words, rows) => {
    expect(await f.filtered({ granular_status: words })).toEqual(f.ids(...rows));
  });

  it.each([
    ['beside status', { status: 'ndr_raised', granular_status: 'need_attention' }, [8]],
    [
      'beside a status word of its own group',
      { status: 'others', granular_status: ['need_attention', 'lost'] },
      [11, 16],
    ],
    [
      'beside carrier_id (counted from the counters)',
      { 'carrier_id[]': [SHADOWFAX], granular_status: ['pending', 'ready_for_pickup'] },
      [1],
    ],
    ['beside attempts', { granular_status: 'need_attention', attempts_count__gte: 3 }, [8]],
    [
      'beside is_cod',
      { granular_status: ['rto_initiated', 'rto_in_transit', 'rto_delivered'], is_cod: false },
      [13, 15],
    ],
  ])('%s', async (_name, body, rows) => {
    expect(await f.filtered(body)).toEqual(f.ids(...rows));
  });

  it('pages a granular filter with the exact total', async () => {
    const first = await list(ctx, f.apiKey, {
      granular_status: ['need_attention', 'rto_need_attention', 'lost'],
      per_page: 2,
    });
    expect(first.meta.total).toBe(4);
    expect(first.data.map((s) => s.id)).toEqual(f.ids(11, 14, 16, 8).slice(0, 2));
    const next = await list(ctx, f.apiKey, {
      granular_status: ['need_attention', 'rto_need_attention', 'lost'],
      per_page: 2,
      search_after: first.meta.next_search_after,
    });
    expect(next.data.map((s) => s.id)).toEqual(f.ids(8, 11));
  });
});

describe('sub_status[]: the sub-status itself', () => {
  it.each([
    [['pickup_failed'], [3]],
    [
      ['lost', 'damaged'],
      [11, 16],
    ],
    [
      ['customer_unavailable', 'on_hold'],
      [7, 8, 14],
    ],
    [['rto_out_for_delivery'], []],
  ])('%j', async (subs, rows) => {
    expect(await f.filtered({ 'sub_status[]': subs })).toEqual(f.ids(...rows));
  });
});

describe("order-tracking shows Velocity's word", () => {
  it("as shipment_status and current_status, with Dakiya's own status beside it", async () => {
    for (const [word, rows] of Object.entries(GRANULAR_ROWS)) {
      for (const i of rows.filter((row) => row !== 0)) {
        const data = await track(ctx, f.apiKey, f.booked[i]!.awb_code!);
        const listed = (await list(ctx, f.apiKey, { display_id: `GR-${i}` })).data[0]!.attributes;
        expect({
          i,
          shipment_status: data.shipment_status,
          current_status: data.shipment_track?.[0]?.current_status,
        }).toEqual({
          i,
          shipment_status: word,
          current_status: word,
        });
        expect((data as { dakiya_status?: string }).dakiya_status).toBe(listed.status);
      }
    }
  });
});

const NEED_ATTENTION =
  'Every reattempt is spent (only an RTO is left), or the parcel is damaged or held before any RTO, or a box of a multi-piece shipment went its own way (box_exception).';

describe('GET /custom/api/v1/meta/statuses: granular_statuses', () => {
  it("lists each way to each word, in Velocity's order, with the unproduced words and why", async () => {
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES, headers: authed(f.apiKey) });
    expect(response.statusCode).toBe(200);
    const entries = response.json().granular_statuses as { granular_status: string; produced: boolean }[];
    expect([...new Set(entries.map((e) => e.granular_status))]).toHaveLength(29);
    expect(entries.filter((e) => !e.produced).map((e) => e.granular_status)).toEqual([
      'rejected',
      'processing',
      'rto_cancelled',
      'return_rejected',
      'return_ndr_raised',
      'externally_fulfilled',
    ]);
    expect(entries.filter((e) => e.granular_status === 'need_attention')).toEqual([
      {
        granular_status: 'need_attention',
        shipment_type: 'forward',
        status: 'ndr_raised',
        sub_statuses: [
          'customer_unavailable',
          'address_incomplete',
          'refused',
          'cod_not_ready',
          'premises_closed',
          'future_delivery_requested',
          'contact_unreachable',
          'other',
        ],
        without_sub_status: true,
        when: { reattempt_requested: false, attempts_above: 2 },
        produced: true,
        description: NEED_ATTENTION,
      },
      {
        granular_status: 'need_attention',
        shipment_type: 'forward',
        status: 'others',
        sub_statuses: ['damaged', 'on_hold', 'box_exception'],
        without_sub_status: true,
        when: { rto_started: false },
        produced: true,
        description: NEED_ATTENTION,
      },
    ]);
    const QC = "The quality check at the customer's door failed; the parcel stays with the customer.";
    expect(entries.filter((e) => e.granular_status === 'return_qc_failed')).toEqual([
      {
        granular_status: 'return_qc_failed',
        shipment_type: 'return',
        status: 'return_cancelled',
        sub_statuses: ['qc_failed'],
        without_sub_status: false,
        when: {},
        produced: true,
        description: QC,
      },
      {
        granular_status: 'return_qc_failed',
        shipment_type: 'return',
        status: 'return_cancelled',
        sub_statuses: ['return_cancelled_by_merchant', 'return_cancelled_by_courier', 'customer_refused'],
        without_sub_status: true,
        when: { qc_failed: true },
        produced: true,
        description: QC,
      },
    ]);
    expect(entries.find((e) => e.granular_status === 'rto_cancelled')).toEqual({
      granular_status: 'rto_cancelled',
      shipment_type: 'rto',
      status: null,
      sub_statuses: [],
      without_sub_status: false,
      when: {},
      produced: false,
      description:
        'The return to origin was called off. Never produced: Once a courier reports an RTO the parcel goes back; Dakiya has no way to call an RTO off.',
    });
  });
});
