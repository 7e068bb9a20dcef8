import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { listExchanges, seedExchanges, STORE } from '../../../test/exchange-listing-fixture.js';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { EXCHANGE_ORDERS, post, UNKNOWN_ID } from '../../../test/kit/http.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import { DATE_BOUND_ERROR } from '../../domain/shipment/date-bounds.js';

let ctx: TestContext;
let seeded: Awaited<ReturnType<typeof seedExchanges>>;
useTestApp(async (app) => {
  ctx = app;
  seeded = await seedExchanges(ctx);
});

describe('POST /exchange-orders: filters', () => {
  it('each filter with its exact total: OR within a filter, AND across filters', async () => {
    const s = seeded;
    // Index = creation order (test/exchange-listing-fixture.ts); newest first in every answer.
    const [held, cod, completed, qcFailed, moving, attention] = s.ids;
    const all = [attention, moving, qcFailed, completed, cod, held];
    const but = (...out: (string | undefined)[]) => all.filter((id) => !out.includes(id));
    const e = s.e;
    const cases: [Record<string, unknown>, (string | undefined)[]][] = [
      [{}, all],
      // The status read from the legs, one word or several.
      [{ status: 'awaiting_return' }, [held]],
      [{ status: 'pending' }, [cod]],
      [{ 'status[]': ['completed', 'qc_failed'] }, [qcFailed, completed]],
      [{ status: ['in_progress', 'needs_attention', 'cancelled'] }, [attention, moving]],
      [{ status: 'cancelled' }, []],
      [{ status: 'replacement_delivered' }, []],
      // Ids.
      [{ display_id: e[2]!.display_id }, [completed]],
      [{ 'display_id[]': [e[2]!.display_id, e[4]!.display_id, 'EXC-none'] }, [moving, completed]],
      // The return's display id is its exchange's order_id, as the booking route names it.
      [{ return_display_id: e[1]!.display_id }, [cod]],
      [{ return_display_id: 'RET-none' }, []],
      // Search: display id, unique id, either AWB, the buyer's phone or name, case-insensitive.
      [{ search: e[3]!.display_id.toLowerCase() }, [qcFailed]],
      [{ search: e[4]!.unique_id.toLowerCase() }, [moving]],
      [{ search: e[2]!.forward.awb_code!.toLowerCase() }, [completed]],
      [{ search: e[2]!.back.awb_code! }, [completed]],
      [{ search: '99887766' }, [cod]],
      [{ search: 'RAVI' }, [cod]],
      [{ search: 'asha men' }, all],
      [{ search: '9123456780' }, all],
      [{ search: 'nobody' }, []],
      [{ search: '%' }, []],
      // Either leg's warehouse, courier, SKU, zone.
      [{ 'warehouse_id[]': [s.mumbai] }, [cod]],
      [{ warehouse_ids: [s.warehouseId] }, all],
      [{ warehouse_id: UNKNOWN_ID }, []],
      [{ 'carrier_ids[]': [DTDC] }, [cod]],
      [{ carrier_id: SHADOWFAX }, but(cod)],
      [{ 'sku[]': ['KURTA-L'] }, [held]],
      [{ sku: 'KURTA-M' }, [held]],
      [{ sku: ['SHIRT-L', 'KURTA-L'] }, [cod, held]],
      [{ sku: 'KURTA-M-BLUE' }, but(held)],
      [{ 'zone[]': ['zone_d'] }, [cod]],
      [{ zone: 'zone_a' }, [cod]],
      [{ zone: ['zone_c', 'zone_e'] }, but(cod)],
      [{ zone: 'zone_b' }, []],
      // The exchange's channel, the replacement order's store (case-insensitive).
      [{ 'channel[]': ['instagram'] }, [cod]],
      [{ channel: ['website'] }, but(cod)],
      [{ 'store_name[]': [STORE.toUpperCase()] }, [cod]],
      [{ store_name: 'elsewhere' }, []],
      // No refunds exist: any refund_status matches none.
      [{ 'refund_status[]': ['pending'] }, []],
      [{ refund_status: 'refunded', status: 'pending' }, []],
      // The old item's QC.
      [{ 'qc_status[]': ['failed'] }, [qcFailed]],
      [{ qc_status: 'passed' }, [completed]],
      [{ qc_status: 'pending' }, [held]],
      [{ qc_status: ['not_applicable'] }, [attention, moving, cod]],
      // Each leg's status; Velocity's words too; the _shipment_ names filter the same.
      [{ 'return_status[]': ['return_delivered'] }, [completed]],
      [{ return_status: 'return_pickup_scheduled' }, [attention, moving, cod, held]],
      [{ return_status: 'cancelled' }, [qcFailed]],
      [{ return_shipment_status: ['return_requested', 'return_received'] }, [completed]],
      [
        { return_status: 'return_pickup_scheduled', return_shipment_status: 'pickup_scheduled' },
        [attention, moving, cod, held],
      ],
      [{ return_status: 'return_delivered', return_shipment_status: 'return_requested' }, []],
      [{ 'forward_status[]': ['delivered'] }, [completed]],
      [{ forward_status: ['in_transit', 'cancelled'] }, [attention, moving]],
      [{ forward_shipment_status: 'pending' }, [qcFailed, cod, held]],
      [{ forward_shipment_status: 'pickup_scheduled' }, [qcFailed, cod, held]],
      [{ forward_status: 'delivered', forward_shipment_status: 'return_delivered' }, [completed]],
      // Dates: created_at on the exchange; updated_at the latest change to it or a leg.
      [{ created_at__gte: '2026-11-20T06:32:00Z' }, [attention, moving, qcFailed, completed]],
      [{ created_at__lte: '2026-11-20 12:01' }, [cod, held]],
      [{ created_at__gte: Date.parse('2026-11-20T06:31:00Z') / 1000, created_at__lte: '2026-11-20T06:31:00Z' }, [cod]],
      [{ created_at__gte: '2026-11-21' }, []],
      [{ created_at__lte: '2026-11-20' }, all],
      [{ updated_at__gte: '2026-11-20T06:38:00Z' }, [attention, moving, completed]],
      [{ updated_at__lte: String(Date.parse('2026-11-20T06:37:00Z')) }, [qcFailed, cod, held]],
      // AND across filters.
      [{ carrier_id: SHADOWFAX, qc_status: 'not_applicable', forward_status: 'in_transit' }, [moving]],
      [{ status: 'pending', zone: 'zone_c' }, []],
    ];
    for (const [body, expected] of cases) {
      const listing = await listExchanges(ctx, s.apiKey, body);
      expect({ body, ids: listing.data.map((x) => x.id), total: listing.meta.total }).toEqual({
        body,
        ids: expected,
        total: expected.length,
      });
    }
  });

  it("ignores, and names, a field it does not know, as Velocity's other routes do", async () => {
    const response = await post(ctx, seeded.apiKey, EXCHANGE_ORDERS, {
      ndr_reason: 'refused',
      'tags[]': ['gift'],
      status: 'completed',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('ndr_reason, tags[]');
    expect(response.json().meta.total).toBe(1);
  });

  const STATUSES =
    'pending, awaiting_return, in_progress, replacement_delivered, return_received, completed, qc_failed, needs_attention, cancelled';
  const OR_ARRAY = 'or an array of 1 to 100 of them';
  const QC = `must be one of passed, failed, pending, not_applicable, ${OR_ARRAY}`;
  const RETURN_STATUSES =
    'return_requested, return_pickup_scheduled, return_picked_up, return_in_transit, return_delivered, return_cancelled, ' +
    `return_lost, pickup_scheduled, in_transit, return_received, cancelled, ${OR_ARRAY}`;
  const ZONES = `must be one of zone_a, zone_b, zone_c, zone_d, zone_e, ${OR_ARRAY}`;
  const WAREHOUSE = `must be a warehouse id (UUID), ${OR_ARRAY}`;
  const TEXT = `must be a text of 1 to 100 characters, ${OR_ARRAY}`;
  const CASES: [string, unknown, string[], string?][] = [
    ['per_page 101', { per_page: 101 }, ['per_page must be a whole number from 1 to 100']],
    ['per_page 0 as a string', { per_page: '0' }, ['per_page must be a whole number from 1 to 100']],
    [
      'page[number] as a word',
      { 'page[number]': 'two' },
      ['page[number] must be a whole number from 1, or {"number": N, "per_page": M} with such numbers'],
    ],
    [
      'two page forms that differ',
      { page: 2, 'page[number]': 3 },
      ['page[number] must not differ from page'],
      'paging_forms_differ',
    ],
    ['sort_by an unknown field', { sort_by: 'status' }, ['sort_by must be one of created_at, updated_at']],
    ['sort_order sideways', { sort_order: 'up' }, ['sort_order must be asc or desc']],
    ['an unknown status', { status: 'shipped' }, [`status must be one of ${STATUSES}, ${OR_ARRAY}`]],
    ['an empty search', { search: '' }, ['search must be a text of 1 to 100 characters']],
    [
      'a warehouse that is no UUID',
      { 'warehouse_id[]': ['delhi'] },
      [`warehouse_id[] ${WAREHOUSE}`, `warehouse_id[].0 ${WAREHOUSE}`],
    ],
    ['an unknown zone', { zone: 'zone_f' }, [`zone ${ZONES}`]],
    ['an unknown qc_status', { 'qc_status[]': ['ok'] }, [`qc_status[] ${QC}`, `qc_status[].0 ${QC}`]],
    [
      'a forward status as return_status',
      { return_status: 'delivered' },
      [`return_status must be one of ${RETURN_STATUSES}`],
    ],
    ['an empty refund_status', { refund_status: '' }, [`refund_status ${TEXT}`]],
    ['an empty refund_status[] list', { 'refund_status[]': [] }, [`refund_status[] ${TEXT}`]],
    ['created_at__gte a word', { created_at__gte: 'yesterday' }, [`created_at__gte ${DATE_BOUND_ERROR}`]],
    ['updated_at__lte 30 February', { updated_at__lte: '2026-02-30' }, [`updated_at__lte ${DATE_BOUND_ERROR}`]],
    [
      'a date pair the wrong way round',
      { updated_at__gte: '2026-11-21', updated_at__lte: '2026-11-20' },
      ['updated_at__gte must not be after updated_at__lte'],
    ],
    [
      'several bad fields at once, each named',
      { per_page: 500, sort_by: 'id', zone: 'zone_z' },
      [
        'per_page must be a whole number from 1 to 100',
        'sort_by must be one of created_at, updated_at',
        `zone ${ZONES}`,
      ],
    ],
  ];
  it.each(CASES)('400: %s', async (_name, body, messages, code = 'invalid_request') => {
    const m = await merchantWithCityWarehouse(ctx);
    const response = await post(ctx, m.apiKey, EXCHANGE_ORDERS, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code,
      message: messages[0],
      errors: messages,
      details: messages.map((message) => ({ field: message.slice(0, message.indexOf(' ')), message })),
    });
  });
});
