import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS } from '../../../test/kit/http.js';
import { seedShipments } from '../../../test/kit/orders.js';
import { list } from '../../../test/kit/shipments.js';

let ctx: TestContext;
let apiKey: string;
let shipmentIds: string[];
beforeAll(async () => {
  ctx = await createTestApp();
  const seeded = await seedShipments(ctx, 2);
  apiKey = seeded.apiKey;
  shipmentIds = seeded.booked.map((b) => b.shipment_id);
});
afterAll(async () => {
  await ctx.close();
});

const UUID0 = '00000000-0000-4000-8000-000000000000';
const STATUSES =
  'pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others, ' +
  'need_attention, reattempt_delivery, rto_need_attention, return_requested, return_pickup_scheduled, pickup_scheduled, ' +
  'return_in_transit, return_received, return_delivered, return_lost';
const DATE_FIELDS =
  'order_date, created_at, updated_at, picked_up_at, delivered_at, cancelled_at, rto_initiated_at, rto_delivered_at, ' +
  'ready_for_pickup_at, in_transit_at, ndr_raised_at, expected_delivery_date_at, original_expected_delivery_date_at';
const GRANULAR =
  "must be one of Velocity's statuses or a sub-status: pending, rejected, processing, ready_for_pickup, pickup_scheduled, not_picked, " +
  'in_transit, out_for_delivery, delivered, ndr_raised, need_attention, reattempt_delivery, cancelled, lost, rto_initiated, ' +
  'rto_cancelled, rto_in_transit, rto_need_attention, rto_delivered, return_rejected, return_pickup_scheduled, return_not_picked, ' +
  'return_qc_failed, return_in_transit, return_delivered, return_cancelled, return_ndr_raised, return_need_attention, ' +
  'externally_fulfilled, pickup_failed, picked_up, reached_origin_hub, departed_origin_hub, reached_destination_hub, misrouted, ' +
  'customer_unavailable, address_incomplete, refused, cod_not_ready, premises_closed, future_delivery_requested, ' +
  'contact_unreachable, other, rto_reached_origin_hub, rto_out_for_delivery, cancelled_by_merchant, cancelled_by_courier, damaged, ' +
  'destroyed, on_hold, box_exception, or an array of 1 to 100 of them';
const TEXT = 'must be a text of 1 to 100 characters';
const BOOLEAN = 'must be true or false';
const PER_PAGE = 'must be a whole number from 1 to 100';
const ZONES = 'zone_a, zone_b, zone_c, zone_d, zone_e, or an array of 1 to 100 of them';
const TEXTS = 'must be a text of 1 to 100 characters, or an array of 1 to 100 of them';
const UNIX = 'must be a Unix timestamp (seconds, or milliseconds when 10^12 or more)';
const CURSOR =
  'search_after must be meta.next_search_after of a previous page: ["<created_at in ms>", "<shipment id>"]';
const CURSOR_MS = 'search_after.0 must be the created_at of a row in milliseconds, as a string of digits';
const PAGE = 'must be a whole number from 1, or {"number": N, "per_page": M} with such numbers';
const DATE_BOUND =
  'must be an ISO 8601 timestamp (2026-11-20T14:30:00+05:30; India time without an offset), a date (YYYY-MM-DD, ' +
  'the whole India day) or a Unix timestamp (seconds, or milliseconds when 10^12 or more)';
const WAREHOUSE_ID = 'must be a warehouse id (UUID), or an array of 1 to 100 of them';

/** [name, body, messages (the field of each is the text before the first space)] */
const CASES: [string, unknown, string[]][] = [
  ['per_page 0', { per_page: 0 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page 101', { per_page: 101 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page 2.5', { per_page: 2.5 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page as a word', { per_page: 'twenty' }, ['per_page must be a whole number from 1 to 100']],
  ['page 0', { page: 0 }, [`page ${PAGE}`]],
  ['page 1.5', { page: 1.5 }, [`page ${PAGE}`]],
  ['page -1', { page: -1 }, [`page ${PAGE}`]],
  ['page 100001', { page: 100_001 }, [`page ${PAGE}`]],
  ['page as a word', { page: 'two' }, [`page ${PAGE}`]],
  ['page as a list', { page: [2] }, [`page ${PAGE}`]],
  ['page {"number": 0}', { page: { number: 0 } }, [`page ${PAGE}`, `page.number ${PAGE}`]],
  ['page {"number": 1.5}', { page: { number: 1.5 } }, [`page ${PAGE}`, `page.number ${PAGE}`]],
  ['page {"number": "two"}', { page: { number: 'two' } }, [`page ${PAGE}`, `page.number ${PAGE}`]],
  ['page {"per_page": 0}', { page: { per_page: 0 } }, [`page ${PAGE}`, `page.per_page ${PER_PAGE}`]],
  ['page[number] 0', { 'page[number]': 0 }, [`page[number] ${PAGE}`]],
  ['page[per_page] 101', { 'page[per_page]': 101 }, [`page[per_page] ${PER_PAGE}`]],
  ['page and page[number] that differ', { page: 2, 'page[number]': 3 }, ['page[number] must not differ from page']],
  [
    'per_page and page.per_page that differ',
    { per_page: 10, page: { per_page: 20 } },
    ['page.per_page must not differ from per_page'],
  ],
  ['granular_status unknown', { granular_status: 'shipped' }, [`granular_status ${GRANULAR}`]],
  [
    'granular_status[] with one unknown',
    { 'granular_status[]': ['in_transit', 'IN_TRANSIT'] },
    [`granular_status[] ${GRANULAR}`, `granular_status[].1 ${GRANULAR}`],
  ],
  ['granular_status a return sub-status', { granular_status: 'return_picked_up' }, [`granular_status ${GRANULAR}`]],
  ['sub_status empty', { 'sub_status[]': [] }, [`sub_status[] ${TEXTS}`]],
  ['order_display_id empty', { order_display_id: '' }, [`order_display_id ${TEXTS}`]],
  ['call_status true', { call_status: true }, [`call_status ${TEXTS}`]],
  ['oc_all_outcomes[] empty', { 'oc_all_outcomes[]': [] }, [`oc_all_outcomes[] ${TEXTS}`]],
  ['label_generated a word', { label_generated: 'yes' }, [`label_generated ${BOOLEAN}`]],
  ['manifested 2', { manifested: 2 }, [`manifested ${BOOLEAN}`]],
  ['pickup_id empty', { pickup_id: '' }, [`pickup_id ${TEXT}`]],
  ['city too long', { city: 'x'.repeat(101) }, [`city ${TEXT}`]],
  ['city a list', { city: ['Pune'] }, [`city ${TEXT}`]],
  ['ndr_raised_at__gte a word', { ndr_raised_at__gte: 'yesterday' }, [`ndr_raised_at__gte ${DATE_BOUND}`]],
  [
    'expected_delivery_date_at__lte 30 February',
    { expected_delivery_date_at__lte: '2026-02-30' },
    [`expected_delivery_date_at__lte ${DATE_BOUND}`],
  ],
  ['page null', { page: null }, [`page ${PAGE}`]],
  ['sort_order', { sort_order: 'newest' }, ['sort_order must be asc or desc']],
  ['sort_by another field', { sort_by: 'order_date' }, ['sort_by must be one of created_at']],
  ['sort_by with a direction', { sort_by: '-created_at' }, ['sort_by must be one of created_at']],
  ['unknown status', { status: 'shipped' }, [`status must be one of ${STATUSES}`]],
  ['a Velocity-like word it does not have', { status: 'return_shipped' }, [`status must be one of ${STATUSES}`]],
  ['a Velocity word in capitals', { status: 'NEED_ATTENTION' }, [`status must be one of ${STATUSES}`]],
  ['status in capitals', { status: 'DELIVERED' }, [`status must be one of ${STATUSES}`]],
  ['status as a list', { status: ['delivered'] }, [`status must be one of ${STATUSES}`]],
  ['unknown zone', { zone: 'zone_f' }, [`zone must be one of ${ZONES}`]],
  ['a zone letter', { 'zone[]': 'C' }, [`zone[] must be one of ${ZONES}`]],
  [
    'an unknown zone in a list',
    { 'zone[]': ['zone_a', 'zone_z'] },
    [`zone[] must be one of ${ZONES}`, `zone[].1 must be one of ${ZONES}`],
  ],
  ['an empty list', { 'carrier_id[]': [] }, [`carrier_id[] ${TEXTS}`]],
  ['101 values', { sku: Array.from({ length: 101 }, (_, i) => `SKU-${i}`) }, [`sku ${TEXTS}`]],
  ['an empty value', { tags: '' }, [`tags ${TEXTS}`]],
  ['true for a text filter', { channel: true }, [`channel ${TEXTS}`]],
  ['a warehouse id that is not a UUID', { warehouse_ids: 'WH-1' }, [`warehouse_ids ${WAREHOUSE_ID}`]],
  ['carrier_ids[] empty', { 'carrier_ids[]': [] }, [`carrier_ids[] ${TEXTS}`]],
  ['carrier_ids a list holding true', { carrier_ids: [true] }, [`carrier_ids ${TEXTS}`, `carrier_ids.0 ${TEXTS}`]],
  [
    'warehouse_id[] not a UUID',
    { 'warehouse_id[]': ['WH-1'] },
    [`warehouse_id[] ${WAREHOUSE_ID}`, `warehouse_id[].0 ${WAREHOUSE_ID}`],
  ],
  ['warehouse_id not a UUID', { warehouse_id: 'WH-1' }, [`warehouse_id ${WAREHOUSE_ID}`]],
  ['display_id empty', { display_id: '' }, [`display_id ${TEXTS}`]],
  [
    'display_id[] of 101 ids',
    { 'display_id[]': Array.from({ length: 101 }, (_, i) => `ORD-${i}`) },
    [`display_id[] ${TEXTS}`],
  ],
  ['unknown date_field', { date_field: 'shipped_at', start_time: 0 }, [`date_field must be one of ${DATE_FIELDS}`]],
  [
    'start_time after end_time',
    { start_time: 1795200000, end_time: 1795100000 },
    ['start_time must not be after end_time'],
  ],
  [
    'start_time after end_time, in milliseconds',
    { start_time: 1795200000000, end_time: 1795199999999 },
    ['start_time must not be after end_time'],
  ],
  [
    'start_time (ms) after end_time (s)',
    { start_time: 1795200000001, end_time: 1795200000 },
    ['start_time must not be after end_time'],
  ],
  ['negative start_time', { start_time: -1 }, [`start_time ${UNIX}`]],
  ['a date string for end_time', { end_time: '2026-11-20' }, [`end_time ${UNIX}`]],
  ['a fractional timestamp', { start_time: 1795200000.5 }, [`start_time ${UNIX}`]],
  ['is_cod as a word', { is_cod: 'yes' }, ['is_cod must be true or false']],
  ['is_cod as a number', { is_cod: 1 }, ['is_cod must be true or false']],
  [
    'weight min above max',
    { applied_weight_min: 1001, applied_weight_max: 1000 },
    ['applied_weight_min must not be above applied_weight_max'],
  ],
  ['negative weight', { applied_weight_max: -1 }, ['applied_weight_max must be >= 0']],
  [
    'attempts min above max',
    { attempts_count__gte: 3, attempts_count__lte: 2 },
    ['attempts_count__gte must not be above attempts_count__lte'],
  ],
  ['fractional attempts', { attempts_count__lte: 1.5 }, ['attempts_count__lte must be of type integer']],
  ['negative attempts', { attempts_count__gte: -1 }, ['attempts_count__gte must be >= 0']],
  ['empty search', { search: '' }, ['search must be at least 1 character long']],
  ['search over 100 characters', { search: 'x'.repeat(101) }, ['search must be at most 100 characters long']],
  ['search_after of one element', { search_after: ['1795156320000'] }, [CURSOR]],
  ['search_after of three elements', { search_after: ['1795156320000', UUID0, 'x'] }, [CURSOR]],
  ['search_after as a string', { search_after: `1795156320000,${UUID0}` }, [CURSOR]],
  ['search_after with non-numeric ms', { search_after: ['2026-11-20', UUID0] }, [CURSOR_MS]],
  ['search_after with a negative ms', { search_after: ['-1', UUID0] }, [CURSOR_MS]],
  ['search_after with 16 digits', { search_after: ['1234567890123456', UUID0] }, [CURSOR_MS]],
  ['search_after with ms as a fraction', { search_after: [1795156320000.5, UUID0] }, [CURSOR_MS]],
  [
    'search_after with a non-UUID id',
    { search_after: ['1795156320000', 'SFX0000000001'] },
    ['search_after.1 must be a shipment id (UUID)'],
  ],
  ['created_at__gte a word', { created_at__gte: 'yesterday' }, [`created_at__gte ${DATE_BOUND}`]],
  ['created_at__lte a date without dashes', { created_at__lte: '20/11/2026' }, [`created_at__lte ${DATE_BOUND}`]],
  ['order_date__gte 30 February', { order_date__gte: '2026-02-30' }, [`order_date__gte ${DATE_BOUND}`]],
  ['delivered_at__lte at hour 25', { delivered_at__lte: '2026-11-20T25:00:00Z' }, [`delivered_at__lte ${DATE_BOUND}`]],
  ['picked_up_at__gte negative', { picked_up_at__gte: -1 }, [`picked_up_at__gte ${DATE_BOUND}`]],
  ['updated_at__gte fractional seconds', { updated_at__gte: 1795200000.5 }, [`updated_at__gte ${DATE_BOUND}`]],
  ['cancelled_at__lte true', { cancelled_at__lte: true }, [`cancelled_at__lte ${DATE_BOUND}`]],
  ['rto_initiated_at__gte a list', { rto_initiated_at__gte: ['2026-11-20'] }, [`rto_initiated_at__gte ${DATE_BOUND}`]],
  [
    'rto_delivered_at__lte 15 digits',
    { rto_delivered_at__lte: '123456789012345' },
    [`rto_delivered_at__lte ${DATE_BOUND}`],
  ],
  [
    'a date pair the wrong way round',
    { created_at__gte: '2026-11-21', created_at__lte: '2026-11-20' },
    ['created_at__gte must not be after created_at__lte'],
  ],
  [
    'a date pair the wrong way round, mixed forms',
    { order_date__gte: 1795200001, order_date__lte: '2026-11-20T15:30:00Z' },
    ['order_date__gte must not be after order_date__lte'],
  ],
  ['a list for a body', [], ['body must be of type object']],
  ['null for a body', null, ['body must be of type object']],
];

/** The cases whose problem has a code of its own; the rest are the generic invalid_request. */
const CODES: Record<string, string> = {
  'page and page[number] that differ': 'paging_forms_differ',
  'per_page and page.per_page that differ': 'paging_forms_differ',
  'weight min above max': 'filter_range_inverted',
  'attempts min above max': 'filter_range_inverted',
};

describe('bad listing input: 400 with a message naming the parameter', () => {
  it.each(CASES)('%s', async (_name, body, messages) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...authed(apiKey), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: CODES[_name] ?? 'invalid_request',
      message: messages[0],
      errors: messages,
      details: messages.map((message) => ({ field: message.slice(0, message.indexOf(' ')), message })),
    });
  });

  it('refuses malformed JSON and other content types', async () => {
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...authed(apiKey), 'content-type': 'application/json' },
      payload: '{"per_page": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      code: 'malformed_json',
      message: 'Malformed JSON body',
      errors: ['Malformed JSON body'],
    });
    const text = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...authed(apiKey), 'content-type': 'text/plain' },
      payload: 'per_page=5',
    });
    expect(text.statusCode).toBe(415);
  });

  it('accepts the edges of each range', async () => {
    for (const body of [
      { per_page: 1 },
      { per_page: 100 },
      { page: 1 },
      { page: 100_000 },
      { page: { number: 1 } },
      { page: { number: 100_000 } },
      { page: { number: 2, per_page: 100 }, 'page[number]': 2, 'page[per_page]': 100, per_page: 100 },
      { page: {} },
      { sort_by: 'created_at' },
      { start_time: 0, end_time: 0 },
      { created_at__gte: 0, created_at__lte: 0 },
      { created_at__gte: '2026-11-20', created_at__lte: '2026-11-20' },
      { order_date__gte: 99_999_999_999_999, order_date__lte: 99_999_999_999_999 },
      { delivered_at__gte: '2026-11-20T06:30:00.123456789Z' },
      { 'display_id[]': Array.from({ length: 100 }, (_, i) => `ORD-${i}`) },
      { start_time: 1795200000, end_time: 1795200000000 },
      { applied_weight_min: 0, applied_weight_max: 0 },
      { attempts_count__gte: 2, attempts_count__lte: 2 },
      { search: 'x'.repeat(100) },
      { search_after: ['0', UUID0] },
      { 'carrier_id[]': Array.from({ length: 100 }, (_, i) => `C${i}`) },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: authed(apiKey), payload: body });
      expect({ body, status: response.statusCode }).toEqual({ body, status: 200 });
    }
  });
});

// Issue 10: on the Velocity routes an unknown field is dropped (and named in Dakiya-Ignored-Fields),
// and a decimal string is read as the number a parameter expects (and a number as its text, and
// "true"/"false" as booleans). What is still wrong after that is refused above.
describe('what the listing reads rather than refuses (issue 10)', () => {
  const IGNORED = 'dakiya-ignored-fields';
  const send = (body: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...authed(apiKey), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  // Newest first: the second shipment booked, then the first.
  const newestFirst = () => [...shipmentIds].reverse();

  it.each([
    ['an unknown parameter', { statuses: 'delivered' }, {}, 'statuses'],
    [
      'unknown parameters next to good ones',
      { per_page: 1, courier: 'x', idempotency_key: 'k1' },
      { per_page: 1 },
      'courier, idempotency_key',
    ],
    ['a key with [] twice', { 'zone[][]': ['zone_a'] }, {}, 'zone[][]'],
    ['an unknown date pair', { shipped_at__gte: '2026-11-20' }, {}, 'shipped_at__gte'],
    [
      'an unknown key inside page',
      { page: { number: 2, size: 1 }, per_page: 1 },
      { page: 2, per_page: 1 },
      'page.size',
    ],
    ['per_page as text', { per_page: '1' }, { per_page: 1 }, undefined],
    ['page as text', { page: '2', per_page: 1 }, { page: 2, per_page: 1 }, undefined],
    ['page.number as text', { page: { number: '2' }, per_page: 1 }, { page: 2, per_page: 1 }, undefined],
    ['is_cod as text', { is_cod: 'false' }, { is_cod: false }, undefined],
    [
      'a date bound in Unix seconds as text',
      { created_at__gte: '1795156260' },
      { created_at__gte: 1795156260 },
      undefined,
    ],
    ['a carrier id as a number', { carrier_ids: 5 }, { carrier_ids: '5' }, undefined],
    [
      'page[number] and page[per_page] as text',
      { 'page[number]': '2', 'page[per_page]': '1' },
      { page: 2, per_page: 1 },
      undefined,
    ],
    ['page {number, per_page} as text', { page: { number: '2', per_page: '1' } }, { page: 2, per_page: 1 }, undefined],
    ['label_generated as text', { label_generated: 'true' }, { label_generated: true }, undefined],
    ['a pickup id as a number', { pickup_id: 17 }, { pickup_id: '17' }, undefined],
  ])('%s', async (_name, body, equivalent, ignored) => {
    const response = await send(body);
    expect(response.statusCode).toBe(200);
    expect(response.headers[IGNORED]).toBe(ignored);
    const { warnings, ...answer } = response.json();
    expect(answer).toEqual(await list(ctx, apiKey, equivalent));
    // The body names what the header names (unknown-fields.once.test.ts has their words).
    expect(warnings?.map((w: { field: string }) => w.field).join(', ')).toBe(ignored);
  });

  it('warns of an unknown parameter with the known one nearest to its name: statuses, did you mean status?', async () => {
    const response = await send({ statuses: 'delivered' });
    expect(response.json().warnings).toEqual([
      { field: 'statuses', message: 'statuses is not a field of this request and was ignored; did you mean status?' },
    ]);
  });

  it('reads the milliseconds of search_after written as a number', async () => {
    const first = await list(ctx, apiKey, { per_page: 1 });
    const [ms, id] = first.meta.next_search_after!;
    const response = await send({ per_page: 1, search_after: [Number(ms), id] });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((s: { id: string }) => s.id)).toEqual(newestFirst().slice(1));
  });

  it('the equivalents list what they say', async () => {
    expect((await list(ctx, apiKey, {})).data.map((s) => s.id)).toEqual(newestFirst());
    expect((await list(ctx, apiKey, { page: 2, per_page: 1 })).data.map((s) => s.id)).toEqual(newestFirst().slice(1));
    expect((await list(ctx, apiKey, { created_at__gte: 1795156260 })).data.map((s) => s.id)).toEqual(
      newestFirst().slice(0, 1),
    );
    expect((await list(ctx, apiKey, { carrier_ids: '5' })).meta.total).toBe(0);
  });

  it('names the ignored fields on a 400 caused by another field too', async () => {
    const response = await send({ colour: 'red', status: 'shipped' });
    expect(response.statusCode).toBe(400);
    expect(response.headers[IGNORED]).toBe('colour');
    expect(response.json().details).toEqual([
      { field: 'status', message: `status must be one of ${STATUSES}` },
      { field: 'colour', message: 'colour is not a field of this request and was ignored' },
    ]);
  });
});
