import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ASSIGN, FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { invoicingStore } from '../../../test/kit/invoices.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// A store's invoice numbers, issued at booking (docs/paperwork.md, "The buyer's tax invoice"):
// consecutive and unique within a financial year under concurrent bookings, none lost to a
// booking that fails, a new series each 1 April (India time), and nothing for a store without
// invoice details. On both engines: the counter row's locking is the database's.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());
beforeEach(() => {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
});

async function merchant(prefix = 'ACME') {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const storeName = `inv-${prefix.toLowerCase().replace(/\W/g, '')}-${Math.random().toString(36).slice(2, 8)}`;
  const store = await invoicingStore(ctx, apiKey, storeName, { invoice_prefix: prefix });
  return { apiKey, warehouseId, storeName, store };
}

const numbers = async (storeId: string) =>
  queryRows<{ shipment_id: string; financial_year: number; sequence: number; prefix: string }>(
    ctx.database.db,
    sql`select shipment_id::text, financial_year, sequence, prefix from shipment_invoices
        where store_id = ${storeId}::uuid order by financial_year, sequence`,
  );

const bookingOf = (m: Awaited<ReturnType<typeof merchant>>, orderId?: string) =>
  orderBodyFromFields(m.warehouseId, { storeName: m.storeName, carrierId: SHADOWFAX, ...(orderId && { orderId }) });

describe("a store's invoice numbers, issued at booking", () => {
  it('20 bookings at once are numbered 1 to 20, each once', async () => {
    const m = await merchant();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const issued = await numbers(m.store.id);
    expect(issued.map((row) => row.sequence)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(issued.map((row) => row.shipment_id))).toEqual(
      new Set(answers.map((a) => a.json().payload.shipment_id)),
    );
    expect(issued.every((row) => row.financial_year === 2026 && row.prefix === 'ACME')).toBe(true);
  });

  it('a booking that fails takes no number: the next booking gets the next one', async () => {
    const m = await merchant();
    const first = bookingOf(m);
    expect((await post(ctx, m.apiKey, ORCHESTRATE, first)).statusCode).toBe(200);
    const again = await post(ctx, m.apiKey, ORCHESTRATE, { ...first });
    expect(again.statusCode).toBe(422);
    expect((await post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))).statusCode).toBe(200);
    expect((await numbers(m.store.id)).map((row) => row.sequence)).toEqual([1, 2]);
  });

  it('an order written first is numbered when its courier is booked, not before', async () => {
    const m = await merchant();
    const { carrier_id: _, ...draft } = bookingOf(m);
    const written = (await post(ctx, m.apiKey, FORWARD_ORDER, draft)).json().payload;
    expect(await numbers(m.store.id)).toEqual([]);
    expect((await post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))).statusCode).toBe(200);
    const assigned = await post(ctx, m.apiKey, ASSIGN, { shipment_id: written.shipment_id, carrier_id: SHADOWFAX });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const issued = await numbers(m.store.id);
    expect(issued.map((row) => [row.sequence, row.shipment_id])).toEqual([
      [1, expect.any(String)],
      [2, written.shipment_id],
    ]);
  });

  it('begins a new series at 1 April, India time', async () => {
    const m = await merchant();
    ctx.clock.set('2027-03-31T18:29:00.000Z'); // 31 March 2027, 23:59 IST: 2026-27
    expect((await post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))).statusCode).toBe(200);
    ctx.clock.set('2027-03-31T18:31:00.000Z'); // 1 April 2027, 00:01 IST: 2027-28
    expect((await post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))).statusCode).toBe(200);
    expect((await post(ctx, m.apiKey, ORCHESTRATE, bookingOf(m))).statusCode).toBe(200);
    expect((await numbers(m.store.id)).map((row) => [row.financial_year, row.sequence])).toEqual([
      [2026, 1],
      [2027, 1],
      [2027, 2],
    ]);
  });

  it('numbers nothing for a store without invoice details, nor for an order without a store', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await createStore(ctx, apiKey, { store_name: 'plain-store' });
    for (const storeName of ['plain-store', undefined]) {
      const body = orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, ...(storeName && { storeName }) });
      expect((await post(ctx, apiKey, ORCHESTRATE, body)).statusCode).toBe(200);
    }
    const rows = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from shipment_invoices i join shipments s on s.id = i.shipment_id
          join accounts a on a.id = s.account_id where a.id = (select account_id from warehouses where id = ${warehouseId}::uuid)`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
