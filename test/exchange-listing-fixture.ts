import { expect } from 'vitest';
import type { TestContext } from './app.js';
import { DTDC, SHADOWFAX } from './kit/couriers.js';
import { type BookedExchange, bookExchangeForTest } from './kit/exchanges.js';
import { CANCEL, EXCHANGE_ORDERS, MINUTE, post } from './kit/http.js';
import { createStore } from './kit/stores.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse, merchantWithCityWarehouse } from './kit/warehouses.js';

// The exchanges the exchange listing's tests query: six of one account, booked as a merchant books
// them (POST /exchange-order-orchestration, the account's terms set first where one differs), a
// minute apart from 06:30Z (index = creation order), then moved by couriers' scans and the
// merchant's cancellation:
//
//  # | replacement (forward)              | old item (return)                    | terms                  | status
//  0 | Shadowfax, prepaid, KURTA-L        | Shadowfax, QC, KURTA-M               | held to pickup, ₹29.99 | awaiting_return
//  1 | DTDC, COD ₹998, Jaipur, store      | DTDC to Mumbai, SHIRT-L              | QC charge ₹15, channel | pending
//  2 | Shadowfax, delivered               | Shadowfax, QC passed, delivered      |                        | completed
//  3 | Shadowfax                          | Shadowfax, QC failed (cancelled)     |                        | qc_failed
//  4 | Shadowfax, in transit              | Shadowfax                            |                        | in_progress
//  5 | Shadowfax, cancelled by merchant   | Shadowfax, still to be picked up     |                        | needs_attention
//
// After the bookings the legs move, a minute apart, in the order 3, 2, 4, 5: the latest change
// (updated_at) is then 5, 4, 2, 3, 1, 0, newest first.

export const STORE = 'acme-exchanges';

export interface ExchangeListing {
  data: { id: string; type: string; attributes: Record<string, unknown> & { updated_at: string } }[];
  meta: { total: number; page: number; current_page: number; per_page: number; total_pages: number };
}

export async function listExchanges(
  ctx: TestContext,
  apiKey: string,
  body: Record<string, unknown> = {},
): Promise<ExchangeListing> {
  const response = await post(ctx, apiKey, EXCHANGE_ORDERS, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const kurta = (sku: string, price = 499) => ({ name: 'Cotton Kurta', sku, units: 1, selling_price: price });

export async function seedExchanges(ctx: TestContext) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchantWithCityWarehouse(ctx);
  const mumbai = await createCityWarehouse(ctx, m.apiKey, 'mumbai');
  await createStore(ctx, m.apiKey, { store_name: STORE });
  const e: BookedExchange[] = [];
  const next = async (fields: Parameters<typeof bookExchangeForTest>[2]) => {
    e.push(await bookExchangeForTest(ctx, m, fields));
    ctx.clock.advance(MINUTE);
  };
  await next({
    forward: { items: [kurta('KURTA-L')], value: 499 },
    back: { qc: true, carrierId: SHADOWFAX, sku: 'KURTA-M' },
    terms: { release_on: 'return_picked_up', exchange_charge: 29.99 },
    returnReason: 'Size too small',
  });
  await next({
    forward: {
      carrierId: DTDC,
      cod: true,
      value: 998,
      to: 'jaipur',
      storeName: STORE,
      customer: 'Ravi',
      phone: '9988776655',
    },
    back: { carrierId: DTDC, sku: 'SHIRT-L', warehouseId: mumbai },
    channel: 'instagram',
    terms: { qc_charge: 15 },
  });
  await next({ back: { qc: true, carrierId: SHADOWFAX } });
  await next({ back: { qc: true, carrierId: SHADOWFAX } });
  await next({ back: { carrierId: SHADOWFAX } });
  await next({ back: { carrierId: SHADOWFAX } });

  const token = await issueCarrierToken(ctx, SHADOWFAX);
  /** The clock a minute on, then scans at that minute. */
  const move = async (events: (now: string) => Parameters<typeof sendEvents>[2]) => {
    ctx.clock.advance(MINUTE);
    const results = await sendEvents(ctx, token, events(ctx.clock.now().toISOString()));
    expect(results.every((r) => r.accepted)).toBe(true);
  };
  await move((now) => [
    {
      awb: e[3]!.back.awb_code!,
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      event_time: now,
      qc_status: 'failed',
      qc_reason: 'Used',
    },
  ]);
  await move((now) => [
    { awb: e[2]!.forward.awb_code!, status: 'in_transit', event_time: now },
    { awb: e[2]!.forward.awb_code!, status: 'out_for_delivery', event_time: now },
    { awb: e[2]!.forward.awb_code!, status: 'delivered', event_time: now },
    { awb: e[2]!.back.awb_code!, status: 'return_picked_up', event_time: now, qc_status: 'passed' },
    { awb: e[2]!.back.awb_code!, status: 'return_delivered', event_time: now },
  ]);
  await move((now) => [{ awb: e[4]!.forward.awb_code!, status: 'in_transit', event_time: now }]);
  // The merchant calls the replacement off; the old item's pickup stays booked.
  ctx.clock.advance(MINUTE);
  const cancelled = await post(ctx, m.apiKey, CANCEL, { awbs: [e[5]!.forward.awb_code] });
  expect(cancelled.json().results[0].cancelled, cancelled.body).toBe(true);
  return { ...m, mumbai, e, ids: e.map((x) => x.id) };
}
