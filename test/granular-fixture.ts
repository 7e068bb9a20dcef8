import { expect } from 'vitest';
import type { CarrierEvent } from '../src/couriers/carrier-event.js';
import type { TestContext } from './app.js';
import { SHADOWFAX } from './kit/couriers.js';
import { CANCEL, MINUTE, post } from './kit/http.js';
import { book, type Booked } from './kit/orders.js';
import { list } from './kit/shipments.js';
import { at, issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { REATTEMPT } from './ndr.js';

/**
 * Seventeen Shadowfax shipments of one account, booked a minute apart from 06:00Z (index = booking
 * order; merchant order id GR-i; #5 ships to Pune, the rest to Mumbai), each left by its events in
 * one of Velocity's granular statuses:
 *
 *  #  | events                                                  | granular_status
 *  0  | (no courier booked)                                     | pending
 *  1  | (none)                                                  | ready_for_pickup
 *  2  | pending/pickup_scheduled                                | pickup_scheduled
 *  3  | pending/pickup_failed                                   | not_picked
 *  4  | picked up                                               | in_transit
 *  5  | picked up, out for delivery                             | out_for_delivery
 *  6  | … delivered                                             | delivered
 *  7  | … one failed delivery (customer_unavailable) at(90)      | ndr_raised
 *  8  | … three failed deliveries, the first at(95)             | need_attention
 *  9  | … one failed delivery (refused) at(100), reattempt asked | reattempt_delivery
 *  10 | cancelled by the merchant                               | cancelled
 *  11 | picked up, others/lost                                  | lost
 *  12 | picked up, rto_initiated (customer_refused)             | rto_initiated
 *  13 | … rto_in_transit                                        | rto_in_transit
 *  14 | … rto_initiated, others/on_hold                         | rto_need_attention
 *  15 | … rto_in_transit, rto_delivered                         | rto_delivered
 *  16 | picked up, others/damaged                               | need_attention
 */
export const GRANULAR_ROWS = {
  pending: [0],
  ready_for_pickup: [1],
  pickup_scheduled: [2],
  not_picked: [3],
  in_transit: [4],
  out_for_delivery: [5],
  delivered: [6],
  ndr_raised: [7],
  need_attention: [8, 16],
  reattempt_delivery: [9],
  cancelled: [10],
  lost: [11],
  rto_initiated: [12],
  rto_in_transit: [13],
  rto_need_attention: [14],
  rto_delivered: [15],
} as const;
export const ROWS = 17;

const picked = (minute = 10): Omit<CarrierEvent, 'awb'>[] => [
  { status: 'in_transit', sub_status: 'picked_up', event_time: at(minute) },
];
const out = (minute: number): Omit<CarrierEvent, 'awb'> => ({ status: 'out_for_delivery', event_time: at(minute) });
const failed = (minute: number, reason = 'customer_unavailable'): Omit<CarrierEvent, 'awb'> => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
  event_time: at(minute),
});
const rto = (minute = 40): Omit<CarrierEvent, 'awb'> => ({
  status: 'rto_initiated',
  rto_reason: 'customer_refused',
  event_time: at(minute),
});

const EVENTS: Record<number, Omit<CarrierEvent, 'awb'>[]> = {
  2: [{ status: 'pending', sub_status: 'pickup_scheduled', event_time: at(5) }],
  3: [{ status: 'pending', sub_status: 'pickup_failed', event_time: at(5) }],
  4: picked(14),
  5: [...picked(), out(60)],
  6: [...picked(), out(60), { status: 'delivered', sub_status: 'delivered', event_time: at(80) }],
  7: [...picked(), out(60), failed(90)],
  8: [...picked(), out(60), failed(95), out(120), failed(150), out(180), failed(210)],
  9: [...picked(), out(60), failed(100, 'refused')],
  11: [...picked(), { status: 'others', sub_status: 'lost', event_time: at(100) }],
  12: [...picked(), rto()],
  13: [...picked(), rto(), { status: 'rto_in_transit', event_time: at(60) }],
  14: [...picked(), rto(), { status: 'others', sub_status: 'on_hold', event_time: at(130) }],
  15: [
    ...picked(),
    rto(),
    { status: 'rto_in_transit', event_time: at(60) },
    { status: 'rto_delivered', event_time: at(200) },
  ],
  16: [...picked(), { status: 'others', sub_status: 'damaged', event_time: at(100) }],
};

export interface GranularFixture {
  apiKey: string;
  booked: Booked[];
  /** Shipment ids of the given rows, in the listing's default order (newest first). */
  ids: (...rows: number[]) => string[];
  /** The ids a filter lists; its meta.total must be exactly that many. */
  filtered: (body: Record<string, unknown>) => Promise<string[]>;
}

export async function granularFixture(ctx: TestContext): Promise<GranularFixture> {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi');
  // Booked before the scans' times (at(5) on): a scan dated before its booking is refused.
  ctx.clock.set('2026-11-20T06:00:00.000Z');
  const booked: Booked[] = [];
  for (let i = 0; i < ROWS; i++) {
    booked.push(
      await book(
        ctx,
        apiKey,
        warehouseId,
        { orderId: `GR-${i}`, cod: i % 2 === 0, ...(i === 5 && { to: 'pune' }) },
        i !== 0,
      ),
    );
    ctx.clock.advance(MINUTE);
  }
  const cancel = await post(ctx, apiKey, CANCEL, { awbs: [booked[10]!.awb_code] });
  expect(cancel.json().results[0].cancelled).toBe(true);
  ctx.clock.set('2026-11-20T12:00:00.000Z');
  const events = Object.entries(EVENTS).flatMap(([row, list]) =>
    list.map((e) => ({ ...e, awb: booked[Number(row)]!.awb_code! })),
  );
  const results = await sendEvents(ctx, await issueCarrierToken(ctx, SHADOWFAX), events as CarrierEvent[]);
  expect(results.every((r) => r.accepted)).toBe(true);
  const reattempt = await post(ctx, apiKey, REATTEMPT, { awb: booked[9]!.awb_code });
  expect(reattempt.statusCode).toBe(200);

  const ids = (...rows: number[]) => [...rows].sort((a, b) => b - a).map((i) => booked[i]!.shipment_id);
  const filtered = async (body: Record<string, unknown>) => {
    const { data, meta } = await list(ctx, apiKey, { per_page: 100, ...body });
    expect(meta.total).toBe(data.length);
    return data.map((s) => s.id);
  };
  return { apiKey, booked, ids, filtered };
}
