import { describe, expect, it } from 'vitest';
import { createTestApp, PUSH_RATES, type TestContext, useTestApp } from '../../../test/app.js';
import { listExchanges, seedExchanges, STORE } from '../../../test/exchange-listing-fixture.js';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { bookExchangeForTest } from '../../../test/kit/exchanges.js';
import { authed, EXCHANGE_ORDERS, post, UUID } from '../../../test/kit/http.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import type { RatesContext } from '../../domain/rates/context.js';

let ctx: TestContext;
useTestApp((app) => {
  ctx = app;
});

/** The catalogue without one service, as a later release that withdrew it. */
function without(rates: RatesContext, carrierId: string): RatesContext {
  const services = rates.catalogue.services.filter((service) => service.id !== carrierId);
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}

describe('POST /exchange-orders', () => {
  it('lists exchanges newest first, each with its status from its legs, its charges to the paisa and both legs', async () => {
    const s = await seedExchanges(ctx);
    const listing = await listExchanges(ctx, s.apiKey);
    expect(listing.meta).toEqual({ total: 6, page: 1, current_page: 1, per_page: 20, total_pages: 1 });
    expect(listing.data.map((e) => e.id)).toEqual([...s.ids].reverse());
    const byId = new Map(listing.data.map((e) => [e.id, e.attributes]));
    expect(s.ids.map((id) => byId.get(id)!.status)).toEqual([
      'awaiting_return',
      'pending',
      'completed',
      'qc_failed',
      'in_progress',
      'needs_attention',
    ]);
    // Each was pending when booked, but the one held to its return's pickup.
    expect(s.e.map((x) => x.status)).toEqual(['awaiting_return', ...Array(5).fill('pending')]);
    // Shadowfax: ₹42 forward (₹42 RTO, shown, not counted), ₹60 pickup, ₹12 QC. DTDC: ₹54 forward,
    // ₹35 COD fee, ₹54 pickup; no QC charge, the account's ₹15 notwithstanding: the return is not quality-checked.
    expect(s.ids.map((id) => byId.get(id)!.fare_breakup)).toEqual([
      {
        total: '143.99',
        forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
        reverse: { return_pickup_charges: '60.00', qc_charges: '12.00', exchange_charges: '29.99' },
      },
      {
        total: '143.00',
        forward: { forward_charges: '54.00', forward_cod_charges: '35.00', forward_rto_charges: '54.00' },
        reverse: { return_pickup_charges: '54.00', qc_charges: '0.00', exchange_charges: '0.00' },
      },
      ...[2, 3].map(() => ({
        total: '114.00',
        forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
        reverse: { return_pickup_charges: '60.00', qc_charges: '12.00', exchange_charges: '0.00' },
      })),
      {
        total: '102.00',
        forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
        reverse: { return_pickup_charges: '60.00', qc_charges: '0.00', exchange_charges: '0.00' },
      },
      // The replacement called off: both legs' booked charges still count.
      {
        total: '102.00',
        forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
        reverse: { return_pickup_charges: '60.00', qc_charges: '0.00', exchange_charges: '0.00' },
      },
    ]);
    // The same figures as each exchange's booking answer gave them.
    for (const [i, x] of s.e.entries()) expect(byId.get(x.id)!.fare_breakup, `exchange ${i}`).toEqual(x.charges);

    const cod = s.e[1]!;
    expect(listing.data.find((e) => e.id === cod.id)).toEqual({
      id: cod.id,
      type: 'exchange_order',
      attributes: {
        display_id: cod.display_id,
        unique_id: cod.unique_id,
        status: 'pending',
        channel: 'instagram',
        return_reason: 'Return',
        created_at: '2026-11-20T06:31:00.000Z',
        updated_at: '2026-11-20T06:31:00.000Z',
        qc_failed: false,
        qc_failed_at: null,
        replacement_held: false,
        release_on: 'at_once',
        fare_breakup: byId.get(cod.id)!.fare_breakup,
        order: {
          data: {
            id: cod.forward.order_id,
            type: 'order',
            attributes: {
              unique_id: cod.forward.order_id,
              display_id: cod.display_id,
              // exchangeBody's order_date, 14:30 India time.
              order_date: '2026-11-20T09:00:00.000Z',
              channel: 'manual_order',
              store_name: STORE,
              payment_method: 'COD',
              is_cod: true,
              cod_amount: 998,
              total_price: 998,
              customer: { name: 'Ravi', phone: '9988776655', city: 'Jaipur', state: 'Rajasthan', zip: '302001' },
              items: [
                { id: expect.stringMatching(UUID), quantity: 2, price: 499, name: 'Cotton Kurta', sku: 'KURTA-M-BLUE' },
              ],
            },
          },
        },
        forward_shipment: {
          data: {
            id: cod.forward.shipment_id,
            type: 'shipment',
            attributes: {
              unique_id: cod.forward.shipment_id,
              tracking_number: cod.forward.awb_code,
              status: 'pending',
              sub_status: null,
              carrier: { id: DTDC, name: 'DTDC Standard' },
              warehouse_id: s.warehouseId,
              zone: 'zone_d',
              applied_weight: { value: 500, metric_unit: 'g' },
              picked_up_at: null,
              delivered_at: null,
            },
          },
        },
        return: {
          data: {
            id: cod.back.return_id,
            type: 'return',
            attributes: {
              unique_id: cod.back.return_id,
              // The return is booked under the exchange's order_id.
              display_id: cod.display_id,
              status: 'return_pickup_scheduled',
              qc_enabled: false,
              qc_status: null,
              qc_reason: null,
              pickup_address: {
                name: 'Asha Menon',
                phone: '9123456780',
                city: 'Mumbai',
                state: 'Maharashtra',
                zip: '400001',
              },
              items: [
                { id: expect.stringMatching(UUID), quantity: 1, price: 499, name: 'Cotton Kurta', sku: 'SHIRT-L' },
              ],
            },
          },
        },
        return_shipment: {
          data: {
            id: cod.back.shipment_id,
            type: 'shipment',
            attributes: {
              unique_id: cod.back.shipment_id,
              tracking_number: cod.back.awb_code,
              status: 'return_pickup_scheduled',
              sub_status: null,
              carrier: { id: DTDC, name: 'DTDC Standard' },
              warehouse_id: s.mumbai,
              zone: 'zone_a',
              applied_weight: { value: 500, metric_unit: 'g' },
              picked_up_at: null,
              delivered_at: null,
            },
          },
        },
      },
    });

    // Our richer fields: the hold and its term; the QC failure flagged; the legs' own times.
    expect(byId.get(s.ids[0]!)).toMatchObject({
      replacement_held: true,
      release_on: 'return_picked_up',
      return_reason: 'Size too small',
      qc_failed: false,
    });
    expect(byId.get(s.ids[3]!)).toMatchObject({
      qc_failed: true,
      // The courier's QC-failed scan, a minute after the last booking: the tracking intake flags the exchange.
      qc_failed_at: '2026-11-20T06:37:00.000Z',
      return: { data: { attributes: { status: 'return_cancelled', qc_status: 'failed', qc_reason: 'Used' } } },
    });
    expect(byId.get(s.ids[2]!)).toMatchObject({
      forward_shipment: { data: { attributes: { status: 'delivered', delivered_at: '2026-11-20T06:38:00.000Z' } } },
      return_shipment: {
        data: {
          attributes: {
            status: 'return_delivered',
            picked_up_at: '2026-11-20T06:38:00.000Z',
            delivered_at: '2026-11-20T06:38:00.000Z',
            carrier: { id: SHADOWFAX, name: 'Shadowfax Standard' },
          },
        },
      },
    });
    expect(byId.get(s.ids[5]!)).toMatchObject({
      forward_shipment: { data: { attributes: { status: 'cancelled', tracking_number: s.e[5]!.forward.awb_code } } },
      return_shipment: {
        data: {
          attributes: {
            tracking_number: s.e[5]!.back.awb_code,
            carrier: { id: SHADOWFAX, name: 'Shadowfax Standard' },
            status: 'return_pickup_scheduled',
          },
        },
      },
    });
  });

  it('names a courier the catalogue no longer lists by its id, its booked charges still counted', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const x = await bookExchangeForTest(ctx, m, { back: { carrierId: DTDC }, terms: { exchange_charge: 0.05 } });
    // A later release of the catalogue without the return's service, on the same database.
    const later = await createTestApp({ database: ctx.database, clock: ctx.clock, rates: without(PUSH_RATES, DTDC) });
    try {
      const [element] = (await listExchanges(later, m.apiKey)).data;
      expect(element!.attributes).toMatchObject({
        status: 'pending',
        fare_breakup: x.charges,
        forward_shipment: { data: { attributes: { carrier: { id: SHADOWFAX, name: 'Shadowfax Standard' } } } },
        return_shipment: {
          data: { attributes: { tracking_number: x.back.awb_code, carrier: { id: DTDC, name: DTDC } } },
        },
      });
      expect(x.charges).toEqual({
        total: '110.05',
        forward: { forward_charges: '42.00', forward_cod_charges: '0.00', forward_rto_charges: '42.00' },
        reverse: { return_pickup_charges: '68.00', qc_charges: '0.00', exchange_charges: '0.05' },
      });
    } finally {
      await later.app.close();
    }
  });

  it("pages by number in each of Velocity's forms, numbers as strings too, with exact meta", async () => {
    const s = await seedExchanges(ctx);
    const newestFirst = [...s.ids].reverse();
    const cases: [Record<string, unknown>, string[], { page: number; per_page: number; total_pages: number }][] = [
      [{ page: 2, per_page: 2 }, newestFirst.slice(2, 4), { page: 2, per_page: 2, total_pages: 3 }],
      [{ page: { number: 3, per_page: 2 } }, newestFirst.slice(4), { page: 3, per_page: 2, total_pages: 3 }],
      [{ 'page[number]': 2, 'page[per_page]': 4 }, newestFirst.slice(4), { page: 2, per_page: 4, total_pages: 2 }],
      [{ page: '2', per_page: '5' }, newestFirst.slice(5), { page: 2, per_page: 5, total_pages: 2 }],
      [{ 'page[number]': '1', 'page[per_page]': '100' }, newestFirst, { page: 1, per_page: 100, total_pages: 1 }],
      [{ page: 4, per_page: 2 }, [], { page: 4, per_page: 2, total_pages: 3 }],
    ];
    for (const [body, ids, meta] of cases) {
      const listing = await listExchanges(ctx, s.apiKey, body);
      expect({ body, ids: listing.data.map((e) => e.id), meta: listing.meta }).toEqual({
        body,
        ids,
        meta: { total: 6, current_page: meta.page, ...meta },
      });
    }
  });

  it('sorts by created_at or by the latest change to the exchange or either leg, either way', async () => {
    const s = await seedExchanges(ctx);
    const [e0, e1, e2, e3, e4, e5] = s.ids as [string, string, string, string, string, string];
    const cases: [Record<string, unknown>, string[]][] = [
      [{ sort_order: 'asc' }, [e0, e1, e2, e3, e4, e5]],
      [{ sort_by: 'created_at', sort_order: 'desc' }, [e5, e4, e3, e2, e1, e0]],
      [{ sort_by: 'updated_at' }, [e5, e4, e2, e3, e1, e0]],
      [{ sort_by: 'updated_at', sort_order: 'asc' }, [e0, e1, e3, e2, e4, e5]],
      [{ sort_by: 'updated_at', sort_order: 'asc', per_page: 2, page: 2 }, [e3, e2]],
    ];
    for (const [body, ids] of cases) {
      const listing = await listExchanges(ctx, s.apiKey, body);
      expect({ body, ids: listing.data.map((e) => e.id) }).toEqual({ body, ids });
    }
    const updated = (await listExchanges(ctx, s.apiKey, { sort_by: 'updated_at' })).data.map(
      (e) => e.attributes.updated_at,
    );
    expect(updated).toEqual([
      '2026-11-20T06:40:00.000Z',
      '2026-11-20T06:39:00.000Z',
      '2026-11-20T06:38:00.000Z',
      '2026-11-20T06:37:00.000Z',
      '2026-11-20T06:31:00.000Z',
      '2026-11-20T06:30:00.000Z',
    ]);
  });

  it("lists only the account's own exchanges: no filter or search reaches another's", async () => {
    const s = await seedExchanges(ctx);
    const other = await merchantWithCityWarehouse(ctx);
    const own = await bookExchangeForTest(ctx, other, { displayId: `${s.e[0]!.display_id}-other` });
    expect((await listExchanges(ctx, other.apiKey)).data.map((e) => e.id)).toEqual([own.id]);
    for (const body of [
      { search: s.e[0]!.forward.awb_code },
      { search: s.e[0]!.unique_id },
      { display_id: s.e[0]!.display_id },
      { 'warehouse_id[]': [s.warehouseId] },
      { status: 'awaiting_return' },
    ]) {
      const listing = await listExchanges(ctx, other.apiKey, body);
      expect({ body, total: listing.meta.total, data: listing.data }).toEqual({ body, total: 0, data: [] });
    }
    expect((await listExchanges(ctx, s.apiKey, { search: own.display_id })).meta.total).toBe(0);
    expect((await listExchanges(ctx, s.apiKey)).meta.total).toBe(6);
  });

  it('an empty POST is the first page, and a missing credential a 401', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const empty = await ctx.app.inject({ method: 'POST', url: EXCHANGE_ORDERS, headers: authed(m.apiKey) });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      data: [],
      meta: { total: 0, page: 1, current_page: 1, per_page: 20, total_pages: 0 },
    });
    expect((await post(ctx, 'not-a-key', EXCHANGE_ORDERS, {})).statusCode).toBe(401);
  });
});
