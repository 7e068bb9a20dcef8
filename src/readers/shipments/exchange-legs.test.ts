import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { bookExchangeForTest } from '../../../test/kit/exchanges.js';
import { authed, CANCEL, MINUTE, post, RETURNS, SHIPMENTS } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

// An exchange's legs in the listings of their own kind: the replacement in POST /shipments, the
// old item's return in POST /returns, each marked is_exchange with the exchange and its other leg.

let ctx: TestContext;
useTestApp((app) => {
  ctx = app;
});

type Attributes = Record<string, unknown>;
async function listed(apiKey: string, url: string, body: Record<string, unknown> = {}) {
  const response = await post(ctx, apiKey, url, body);
  expect(response.statusCode, response.body).toBe(200);
  return new Map<string, Attributes>(
    response.json().data.map((e: { id: string; attributes: Attributes }) => [e.id, e.attributes]),
  );
}

async function seed() {
  const m = await merchantWithCityWarehouse(ctx);
  const plainShipment = await book(ctx, m.apiKey, m.warehouseId);
  const plainReturn = await bookReturn(ctx, m.apiKey, m.warehouseId);
  ctx.clock.advance(MINUTE);
  const booked = await bookExchangeForTest(ctx, m, { back: { carrierId: SHADOWFAX } });
  // The old item's pickup called off by the merchant: the links stay, its AWB with them.
  const calledOff = await bookExchangeForTest(ctx, m);
  const cancelled = await post(ctx, m.apiKey, CANCEL, { awbs: [calledOff.back.awb_code] });
  expect(cancelled.json().results[0].cancelled, cancelled.body).toBe(true);
  return { ...m, plainShipment, plainReturn, booked, calledOff };
}

describe("an exchange's legs in the shipment and return listings", () => {
  it('the replacement is is_exchange 1 with the exchange and its return; other shipments 0 and null', async () => {
    const s = await seed();
    const shipments = await listed(s.apiKey, SHIPMENTS);
    expect(shipments.size).toBe(3);
    expect(shipments.get(s.booked.forward.shipment_id)).toMatchObject({
      is_exchange: 1,
      exchange: {
        id: s.booked.id,
        display_id: s.booked.display_id,
        unique_id: s.booked.unique_id,
        return_id: s.booked.back.return_id,
        return_awb: s.booked.back.awb_code,
      },
    });
    expect(shipments.get(s.calledOff.forward.shipment_id)).toMatchObject({
      is_exchange: 1,
      exchange: {
        id: s.calledOff.id,
        display_id: s.calledOff.display_id,
        unique_id: s.calledOff.unique_id,
        return_id: s.calledOff.back.return_id,
        return_awb: s.calledOff.back.awb_code,
      },
    });
    expect(shipments.get(s.plainShipment.shipment_id)).toMatchObject({ is_exchange: 0, exchange: null });
    // A search's page (counted in the same scan) and a filtered page read the link the same way.
    const searched = await listed(s.apiKey, SHIPMENTS, { search: s.booked.forward.awb_code });
    expect([...searched.values()].map((a) => a.exchange)).toEqual([
      shipments.get(s.booked.forward.shipment_id)!.exchange,
    ]);
    const filtered = await listed(s.apiKey, SHIPMENTS, { 'display_id[]': [s.booked.display_id] });
    expect([...filtered.values()].map((a) => a.is_exchange)).toEqual([1]);
  });

  it('the return is is_exchange 1 with the exchange and its replacement; other returns 0 and null', async () => {
    const s = await seed();
    const returns = await listed(s.apiKey, RETURNS);
    expect(returns.size).toBe(3);
    expect(returns.get(s.booked.back.return_id)).toMatchObject({
      is_exchange: 1,
      exchange: {
        id: s.booked.id,
        display_id: s.booked.display_id,
        unique_id: s.booked.unique_id,
        forward_shipment_id: s.booked.forward.shipment_id,
        forward_awb: s.booked.forward.awb_code,
      },
    });
    expect(returns.get(s.calledOff.back.return_id)).toMatchObject({
      status: 'return_cancelled',
      is_exchange: 1,
      exchange: {
        id: s.calledOff.id,
        display_id: s.calledOff.display_id,
        unique_id: s.calledOff.unique_id,
        forward_shipment_id: s.calledOff.forward.shipment_id,
        forward_awb: s.calledOff.forward.awb_code,
      },
    });
    expect(returns.get(s.plainReturn.return_id)).toMatchObject({ is_exchange: 0, exchange: null });
    // Paged by search_after, the link comes along.
    const first = await post(ctx, s.apiKey, RETURNS, { per_page: 1 });
    const next = await listed(s.apiKey, RETURNS, { per_page: 1, search_after: first.json().meta.next_search_after });
    expect([...next.values()].map((a) => a.is_exchange)).toEqual([1]);
  });

  it("an event of either leg carries the leg as its listing shows it, the exchange's link included", async () => {
    const s = await seed();
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    ctx.clock.advance(MINUTE);
    const now = ctx.clock.now().toISOString();
    const results = await sendEvents(ctx, token, [
      { awb: s.booked.forward.awb_code!, status: 'in_transit', event_time: now },
      { awb: s.booked.back.awb_code!, status: 'return_picked_up', event_time: now },
    ]);
    expect(results.every((r) => r.accepted)).toBe(true);
    await eventsSettled(ctx.database);
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/custom/api/v1/events?type[]=shipment.status_changed&type[]=return.status_changed',
      headers: authed(s.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    const events = response.json().data as {
      type: string;
      data: Record<string, { id: string; attributes: Attributes }>;
    }[];
    // The booked exchange's legs' events (the called-off pickup has its own).
    const eventOf = (type: string, kind: string, id: string) =>
      events.find((e) => e.type === type && e.data[kind]!.id === id)!.data[kind]!.attributes;
    const shipment = eventOf('shipment.status_changed', 'shipment', s.booked.forward.shipment_id);
    const ret = eventOf('return.status_changed', 'return', s.booked.back.return_id);
    expect([shipment.is_exchange, shipment.exchange]).toEqual([
      1,
      (await listed(s.apiKey, SHIPMENTS)).get(s.booked.forward.shipment_id)!.exchange,
    ]);
    expect([ret.is_exchange, ret.exchange]).toEqual([
      1,
      (await listed(s.apiKey, RETURNS)).get(s.booked.back.return_id)!.exchange,
    ]);
  });
});
