import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { auth, SHIPMENTS, seedShipments } from '../../../test/tracking-fixtures.js';


let ctx: TestContext;
let apiKey: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await seedShipments(ctx, 2));
});
afterAll(async () => {
  await ctx.close();
});

const UUID0 = '00000000-0000-4000-8000-000000000000';
const STATUSES = 'pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others';
const DATE_FIELDS = 'order_date, created_at, updated_at, picked_up_at, delivered_at, cancelled_at, rto_initiated_at, rto_delivered_at';
const ZONES = 'zone_a, zone_b, zone_c, zone_d, zone_e, or an array of 1 to 100 of them';
const TEXTS = 'must be a text of 1 to 100 characters, or an array of 1 to 100 of them';
const UNIX = 'must be a Unix timestamp (seconds, or milliseconds when 10^12 or more)';
const CURSOR = 'search_after must be meta.next_search_after of a previous page: ["<created_at in ms>", "<shipment id>"]';
const CURSOR_MS = 'search_after.0 must be the created_at of a row in milliseconds, as a string of digits';

/** [name, body, messages (the field of each is the text before the first space)] */
const CASES: [string, unknown, string[]][] = [
  ['unknown parameter', { statuses: 'delivered' }, ['statuses is not a known field']],
  ['unknown parameter next to good ones', { per_page: 5, courier: 'x' }, ['courier is not a known field']],
  ['a key with [] twice', { 'zone[][]': ['zone_a'] }, ['zone[][] is not a known field']],
  ['a SPEC name written differently', { 'warehouse_id[]': [UUID0] }, ['warehouse_id[] is not a known field']],
  ['per_page 0', { per_page: 0 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page 101', { per_page: 101 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page 2.5', { per_page: 2.5 }, ['per_page must be a whole number from 1 to 100']],
  ['per_page as text', { per_page: '20' }, ['per_page must be a whole number from 1 to 100']],
  ['page 0', { page: 0 }, ['page must be a whole number from 1']],
  ['page 1.5', { page: 1.5 }, ['page must be a whole number from 1']],
  ['page -1', { page: -1 }, ['page must be a whole number from 1']],
  ['page as text', { page: '2' }, ['page must be a whole number from 1']],
  ['sort_order', { sort_order: 'newest' }, ['sort_order must be asc or desc']],
  ['unknown status', { status: 'shipped' }, [`status must be one of ${STATUSES}`]],
  ['status in capitals', { status: 'DELIVERED' }, [`status must be one of ${STATUSES}`]],
  ['status as a list', { status: ['delivered'] }, [`status must be one of ${STATUSES}`]],
  ['unknown zone', { zone: 'zone_f' }, [`zone must be one of ${ZONES}`]],
  ['a zone letter', { 'zone[]': 'C' }, [`zone[] must be one of ${ZONES}`]],
  ['an unknown zone in a list', { 'zone[]': ['zone_a', 'zone_z'] }, [`zone[] must be one of ${ZONES}`, `zone[].1 must be one of ${ZONES}`]],
  ['an empty list', { 'carrier_id[]': [] }, [`carrier_id[] ${TEXTS}`]],
  ['101 values', { sku: Array.from({ length: 101 }, (_, i) => `SKU-${i}`) }, [`sku ${TEXTS}`]],
  ['an empty value', { tags: '' }, [`tags ${TEXTS}`]],
  ['a number for a text filter', { channel: 5 }, [`channel ${TEXTS}`]],
  ['a warehouse id that is not a UUID', { warehouse_ids: 'WH-1' }, ['warehouse_ids must be a warehouse id (UUID), or an array of 1 to 100 of them']],
  ['unknown date_field', { date_field: 'shipped_at', start_time: 0 }, [`date_field must be one of ${DATE_FIELDS}`]],
  ['start_time after end_time', { start_time: 1795200000, end_time: 1795100000 }, ['start_time must not be after end_time']],
  ['start_time after end_time, in milliseconds', { start_time: 1795200000000, end_time: 1795199999999 }, ['start_time must not be after end_time']],
  ['start_time (ms) after end_time (s)', { start_time: 1795200000001, end_time: 1795200000 }, ['start_time must not be after end_time']],
  ['negative start_time', { start_time: -1 }, [`start_time ${UNIX}`]],
  ['a date string for end_time', { end_time: '2026-11-20' }, [`end_time ${UNIX}`]],
  ['a fractional timestamp', { start_time: 1795200000.5 }, [`start_time ${UNIX}`]],
  ['is_cod as text', { is_cod: 'true' }, ['is_cod must be true or false']],
  ['is_cod as a number', { is_cod: 1 }, ['is_cod must be true or false']],
  ['weight min above max', { applied_weight_min: 1001, applied_weight_max: 1000 }, ['applied_weight_min must not be above applied_weight_max']],
  ['negative weight', { applied_weight_max: -1 }, ['applied_weight_max must be >= 0']],
  ['attempts min above max', { attempts_count__gte: 3, attempts_count__lte: 2 }, ['attempts_count__gte must not be above attempts_count__lte']],
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
  ['search_after with ms as a number', { search_after: [1795156320000, UUID0] }, [CURSOR_MS]],
  ['search_after with a non-UUID id', { search_after: ['1795156320000', 'SFX0000000001'] }, ['search_after.1 must be a shipment id (UUID)']],
  ['a list for a body', [], ['body must be of type object']],
  ['null for a body', null, ['body must be of type object']],
];

describe('bad listing input: 400 with a message naming the parameter', () => {
  it.each(CASES)('%s', async (_name, body, messages) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...auth(apiKey), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: messages,
      details: messages.map((message) => ({ field: message.slice(0, message.indexOf(' ')), message })),
    });
  });

  it('refuses malformed JSON and other content types', async () => {
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...auth(apiKey), 'content-type': 'application/json' },
      payload: '{"per_page": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ errors: ['Malformed JSON body'] });
    const text = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...auth(apiKey), 'content-type': 'text/plain' },
      payload: 'per_page=5',
    });
    expect(text.statusCode).toBe(415);
  });

  it('accepts the edges of each range', async () => {
    for (const body of [
      { per_page: 1 },
      { per_page: 100 },
      { page: 1 },
      { start_time: 0, end_time: 0 },
      { start_time: 1795200000, end_time: 1795200000000 },
      { applied_weight_min: 0, applied_weight_max: 0 },
      { attempts_count__gte: 2, attempts_count__lte: 2 },
      { search: 'x'.repeat(100) },
      { search_after: ['0', UUID0] },
      { 'carrier_id[]': Array.from({ length: 100 }, (_, i) => `C${i}`) },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: auth(apiKey), payload: body });
      expect({ body, status: response.statusCode }).toEqual({ body, status: 200 });
    }
  });
});
