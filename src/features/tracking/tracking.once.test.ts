import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { MINUTE, UUID } from '../../../test/kit/http.js';
import { labelUrlNow } from '../../../test/kit/labels.js';
import { book, merchantWithShipments } from '../../../test/kit/orders.js';
import { list, listed } from '../../../test/kit/shipments.js';
import { at, issueCarrierToken, postEvents, sendEvents } from '../../../test/kit/tracking.js';
import { queryRows } from '../../base/db/client.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';

/** Booked at 06:30Z on 2026-11-20, the quote promised delivery on 25 November: 00:00 that day in India. */
const PROMISED = '2026-11-24T18:30:00.000Z';
/** The promise stays among the milestones whatever the courier reports, after every stage reached before it. */
const PROMISED_MILESTONES = ['expected_delivery_date', 'original_expected_delivery_date'];

let ctx: TestContext;
let shadowfaxToken: string;
let delhiveryToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  shadowfaxToken = await issueCarrierToken(ctx, SHADOWFAX);
  delhiveryToken = await issueCarrierToken(ctx, DELHIVERY_SURFACE);
});
afterAll(async () => {
  await ctx.close();
});

async function eventRows(shipmentId: string) {
  return queryRows<{ status: string; sub_status: string | null; event_id: string | null }>(
    ctx.database.db,
    sql`select status, sub_status, event_id from tracking_events where shipment_id = ${shipmentId} order by event_time, received_at`,
  );
}

describe('event intake (POST /carrier/v1/tracking-events)', () => {
  it('answers one result per event, in the order sent; AWBs that are unknown or booked on another courier are refused alone', async () => {
    const { apiKey, awbs, warehouseId } = await merchantWithShipments(ctx, 2);
    const other = await book(ctx, apiKey, warehouseId, { carrierId: DELHIVERY_SURFACE });
    ctx.clock.set('2026-11-20T06:40:00.000Z');
    const results = await sendEvents(ctx, shadowfaxToken, [
      { awb: awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: at(5) },
      { awb: 'SFX9999999999', status: 'in_transit', event_time: at(5) },
      { awb: other.awb_code!, status: 'in_transit', event_time: at(5) },
      { awb: awbs[1]!, status: 'in_transit', sub_status: 'picked_up', event_time: at(6) },
      { awb: awbs[1]!, status: 'teleported', event_time: at(7) },
      { awb: awbs[0]!, status: 'out_for_delivery', event_time: at(8) },
    ]);
    expect(results).toEqual([
      { awb: awbs[0], accepted: true },
      { awb: 'SFX9999999999', accepted: false, error: 'AWB not found for this courier' },
      { awb: other.awb_code, accepted: false, error: 'AWB not found for this courier' },
      { awb: awbs[1], accepted: true },
      {
        awb: awbs[1],
        accepted: false,
        error:
          'status must be one of pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others; ' +
          'on a return AWB one of return_pickup_scheduled, return_picked_up, return_in_transit, return_delivered, return_cancelled, return_lost',
      },
      { awb: awbs[0], accepted: true },
    ]);
    const { data } = await list(ctx, apiKey);
    const byAwb = new Map(data.map((s) => [s.attributes.tracking_number, s.attributes]));
    expect(byAwb.get(awbs[0]!)).toMatchObject({ status: 'out_for_delivery', sub_status: null });
    expect(byAwb.get(awbs[1]!)).toMatchObject({ status: 'in_transit', sub_status: 'picked_up' });
    // Delhivery's shipment is untouched: Shadowfax's token cannot reach it.
    expect(byAwb.get(other.awb_code!)).toMatchObject({ status: 'pending', sub_status: null, tracking_details: [] });

    // The courier the shipment is booked on can.
    expect(
      await sendEvents(ctx, delhiveryToken, [{ awb: other.awb_code!, status: 'in_transit', event_time: at(9) }]),
    ).toEqual([{ awb: other.awb_code, accepted: true }]);
  });

  it('never touches another account’s shipment through an AWB it does not own, and finds it for its own courier', async () => {
    const a = await merchantWithShipments(ctx);
    const b = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-20T06:40:00.000Z');
    expect(
      await sendEvents(ctx, shadowfaxToken, [{ awb: b.awbs[0]!, status: 'in_transit', event_time: at(3) }]),
    ).toEqual([{ awb: b.awbs[0], accepted: true }]);
    // A courier serves every account that books it; the account boundary is on the reading side.
    expect((await list(ctx, b.apiKey)).data[0]!.attributes.status).toBe('in_transit');
    expect((await list(ctx, a.apiKey)).data[0]!.attributes.status).toBe('pending');
  });

  it('records each accepted event as a tracking_details entry and the first arrival in each stage as a milestone, as the listing shows them', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-21T12:00:00.000Z');
    const awb = awbs[0]!;
    const results = await sendEvents(ctx, shadowfaxToken, [
      {
        awb,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T13:30:00+05:30',
        location: 'Okhla Hub',
        description: 'Picked up',
        event_id: 'scan-1',
      },
      {
        awb,
        status: 'in_transit',
        sub_status: 'reached_destination_hub',
        event_time: '2026-11-21T02:00:00Z',
        location: 'Bhiwandi Hub',
        event_id: 'scan-2',
      },
      { awb, status: 'out_for_delivery', event_time: '2026-11-21T04:00:00.250Z', location: 'Andheri DC' },
      {
        awb,
        status: 'ndr_raised',
        sub_status: 'customer_unavailable',
        ndr_reason: 'customer_unavailable',
        event_time: '2026-11-21T08:00:00Z',
        location: 'Andheri DC',
        description: 'Door locked',
      },
    ]);
    expect(results.every((r) => r.accepted && r.duplicate === undefined)).toBe(true);
    const shipment = await listed(ctx, apiKey, booked[0]!.shipment_id);
    expect(shipment.attributes).toMatchObject({
      status: 'ndr_raised',
      sub_status: 'customer_unavailable',
      attempt_count: 1,
    });
    expect(shipment.attributes.shipment_milestones).toEqual([
      { milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' },
      { milestone: 'courier_assigned', milestone_at: '2026-11-20T06:30:00.000Z' },
      { milestone: 'picked_up', milestone_at: '2026-11-20T08:00:00.000Z' },
      { milestone: 'out_for_delivery', milestone_at: '2026-11-21T04:00:00.250Z' },
      { milestone: 'ndr_raised', milestone_at: '2026-11-21T08:00:00.000Z' },
      { milestone: 'expected_delivery_date', milestone_at: PROMISED },
      { milestone: 'original_expected_delivery_date', milestone_at: PROMISED },
    ]);
    const details = shipment.attributes.tracking_details;
    for (const d of details) expect(d.id).toMatch(UUID);
    expect(new Set(details.map((d) => d.id)).size).toBe(4);
    expect(details.map(({ id: _, ...rest }) => rest)).toEqual([
      {
        status: 'in_transit',
        last_location: 'Okhla Hub',
        event_date_time: '2026-11-20T08:00:00.000Z',
        description: 'Picked up',
      },
      {
        status: 'in_transit',
        last_location: 'Bhiwandi Hub',
        event_date_time: '2026-11-21T02:00:00.000Z',
        description: null,
      },
      {
        status: 'out_for_delivery',
        last_location: 'Andheri DC',
        event_date_time: '2026-11-21T04:00:00.250Z',
        description: null,
      },
      {
        status: 'ndr_raised',
        last_location: 'Andheri DC',
        event_date_time: '2026-11-21T08:00:00.000Z',
        description: 'Door locked',
      },
    ]);
    // The filters the listing offers follow the events.
    expect((await list(ctx, apiKey, { 'ndr_reason[]': ['customer_unavailable'] })).meta.total).toBe(1);
    expect(
      (
        await list(ctx, apiKey, {
          date_field: 'picked_up_at',
          start_time: Date.parse('2026-11-20T08:00:00Z') / 1000,
          end_time: Date.parse('2026-11-20T08:00:00Z') / 1000,
        })
      ).meta.total,
    ).toBe(1);
  });

  it('counts delivery attempts: each ndr_raised and the final delivered', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-25T12:00:00.000Z');
    const awb = awbs[0]!;
    await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T10:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb, status: 'ndr_raised', sub_status: 'refused', event_time: '2026-11-22T09:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-23T04:00:00Z' },
      {
        awb,
        status: 'ndr_raised',
        sub_status: 'cod_not_ready',
        ndr_reason: 'cod_not_ready',
        event_time: '2026-11-23T09:00:00Z',
      },
      { awb, status: 'out_for_delivery', event_time: '2026-11-24T04:00:00Z' },
      { awb, status: 'delivered', sub_status: 'delivered', event_time: '2026-11-24T06:00:00Z' },
    ]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'delivered', sub_status: 'delivered', attempt_count: 3 });
    expect(s.shipment_milestones.map((m) => m.milestone)).toEqual([
      'order_created',
      'courier_assigned',
      'picked_up',
      'out_for_delivery',
      'ndr_raised',
      'delivered',
      ...PROMISED_MILESTONES,
    ]);
    expect((await list(ctx, apiKey, { attempts_count__gte: 3, attempts_count__lte: 3 })).meta.total).toBe(1);
    expect((await list(ctx, apiKey, { 'ndr_reason[]': ['cod_not_ready'] })).meta.total).toBe(1);
    expect(
      (
        await list(ctx, apiKey, {
          date_field: 'delivered_at',
          start_time: Date.parse('2026-11-24T06:00:00Z'),
          end_time: Date.parse('2026-11-24T06:00:00Z'),
        })
      ).meta.total,
    ).toBe(1);
  });

  it('treats a replay by event_id, or by the same awb, status and event_time, as accepted duplicates that change nothing', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    const awb = awbs[0]!;
    ctx.clock.set('2026-11-20T09:00:00.000Z');
    const first: CarrierEvent[] = [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at(60), location: 'Okhla', event_id: 'evt-1' },
      { awb, status: 'out_for_delivery', event_time: at(120), location: 'Andheri' },
    ];
    expect(await sendEvents(ctx, shadowfaxToken, first)).toEqual([
      { awb, accepted: true },
      { awb, accepted: true },
    ]);
    const before = await listed(ctx, apiKey, booked[0]!.shipment_id);
    const [updatedBefore] = await queryRows<{ updated_at: string }>(
      ctx.database.db,
      sql`select updated_at::text from shipments where id = ${booked[0]!.shipment_id}`,
    );

    ctx.clock.advance(5 * MINUTE);
    const replay = await sendEvents(ctx, shadowfaxToken, [
      // Same event_id, different content: still the scan already recorded.
      {
        awb,
        status: 'in_transit',
        sub_status: 'reached_origin_hub',
        event_time: at(61),
        location: 'Elsewhere',
        event_id: 'evt-1',
      },
      // Same awb, status and event_time, no event_id.
      { awb, status: 'out_for_delivery', event_time: at(120), location: 'Somewhere else', description: 'again' },
      // The same time written with another offset is the same instant.
      { awb, status: 'out_for_delivery', event_time: '2026-11-20T14:00:00+05:30' },
    ]);
    const duplicateOf = (status: string, time: string) => ({
      awb,
      accepted: true,
      duplicate: true,
      changed: false,
      reason: `duplicate of the ${status} scan at ${time} (received 2026-11-20T09:00:00.000Z): nothing changed`,
    });
    expect(replay).toEqual([
      duplicateOf('in_transit', at(60)),
      duplicateOf('out_for_delivery', at(120)),
      duplicateOf('out_for_delivery', at(120)),
    ]);
    // Only the label link differs: it is signed afresh on every read.
    expect(await listed(ctx, apiKey, booked[0]!.shipment_id)).toEqual({
      ...before,
      attributes: { ...before.attributes, label_url: await labelUrlNow(ctx, booked[0]!.shipment_id) },
    });
    expect(await eventRows(booked[0]!.shipment_id)).toEqual([
      { status: 'in_transit', sub_status: 'picked_up', event_id: 'evt-1' },
      { status: 'out_for_delivery', sub_status: null, event_id: null },
    ]);
    const [updatedAfter] = await queryRows<{ updated_at: string }>(
      ctx.database.db,
      sql`select updated_at::text from shipments where id = ${booked[0]!.shipment_id}`,
    );
    expect(updatedAfter).toEqual(updatedBefore);
  });

  it('marks a repeat inside one batch as a duplicate too', async () => {
    const { awbs } = await merchantWithShipments(ctx);
    const awb = awbs[0]!;
    const event = { awb, status: 'in_transit', event_time: at(2), event_id: 'same' };
    const receivedAt = ctx.clock.now().toISOString();
    expect(await sendEvents(ctx, shadowfaxToken, [event, event])).toEqual([
      { awb, accepted: true },
      {
        awb,
        accepted: true,
        duplicate: true,
        changed: false,
        reason: `duplicate of the in_transit scan at ${at(2)} (received ${receivedAt}): nothing changed`,
      },
    ]);
  });

  it('says which scans of a batch changed nothing: a repeat of the status already applied is kept in the history, status unchanged', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    const awb = awbs[0]!;
    ctx.clock.set('2026-11-20T09:00:00.000Z');
    const results = await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at(10), location: 'Okhla' },
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at(20), location: 'Okhla gate' },
      { awb, status: 'in_transit', sub_status: 'reached_origin_hub', event_time: at(30), location: 'Delhi hub' },
    ]);
    const unchanged = 'the shipment was already in_transit (picked_up): recorded in its history, status unchanged';
    expect(results).toEqual([
      { awb, accepted: true },
      { awb, accepted: true, changed: false, reason: unchanged },
      { awb, accepted: true },
    ]);
    // The same again, in a later batch: nothing moves.
    const again = await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', sub_status: 'reached_origin_hub', event_time: at(40), location: 'Delhi hub' },
    ]);
    expect(again).toEqual([
      {
        awb,
        accepted: true,
        changed: false,
        reason: 'the shipment was already in_transit (reached_origin_hub): recorded in its history, status unchanged',
      },
    ]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect([s.status, s.sub_status, s.tracking_details.length]).toEqual(['in_transit', 'reached_origin_hub', 4]);
  });

  it('keeps an event the status machine does not allow in tracking_details, without changing the status', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    const awb = awbs[0]!;
    ctx.clock.set('2026-11-22T12:00:00.000Z');
    await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T10:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
      { awb, status: 'delivered', sub_status: 'delivered', event_time: '2026-11-21T06:00:00Z' },
    ]);
    const late = await sendEvents(ctx, shadowfaxToken, [
      {
        awb,
        status: 'in_transit',
        sub_status: 'reached_destination_hub',
        event_time: '2026-11-21T09:00:00Z',
        location: 'Stray scan',
      },
      { awb, status: 'rto_initiated', rto_reason: 'customer_refused', event_time: '2026-11-21T10:00:00Z' },
    ]);
    const kept = (status: string) =>
      `the status machine does not apply ${status} at its event_time (the shipment is delivered (delivered)): recorded in its history, status unchanged`;
    expect(late).toEqual([
      { awb, accepted: true, changed: false, reason: kept('in_transit') },
      { awb, accepted: true, changed: false, reason: kept('rto_initiated') },
    ]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'delivered', sub_status: 'delivered', attempt_count: 1 });
    expect(s.tracking_details.map((d) => d.status)).toEqual([
      'in_transit',
      'out_for_delivery',
      'delivered',
      'in_transit',
      'rto_initiated',
    ]);
    expect(s.shipment_milestones.map((m) => m.milestone)).toEqual([
      'order_created',
      'courier_assigned',
      'picked_up',
      'out_for_delivery',
      'delivered',
      ...PROMISED_MILESTONES,
    ]);
    // The refused RTO did not leak into the listing's reason filter.
    expect((await list(ctx, apiKey, { 'rto_reason[]': ['customer_refused'] })).meta.total).toBe(0);
  });

  it('applies a batch that arrives out of order in event_time order: the same result as in order', async () => {
    const inOrder = await merchantWithShipments(ctx);
    const reversed = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-24T12:00:00.000Z');
    const path = (awb: string): CarrierEvent[] => [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z', location: 'Okhla' },
      {
        awb,
        status: 'in_transit',
        sub_status: 'reached_destination_hub',
        event_time: '2026-11-21T10:00:00Z',
        location: 'Bhiwandi',
      },
      { awb, status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z', location: 'Andheri' },
      {
        awb,
        status: 'ndr_raised',
        sub_status: 'address_incomplete',
        event_time: '2026-11-22T08:00:00Z',
        location: 'Andheri',
      },
      {
        awb,
        status: 'rto_initiated',
        rto_reason: 'address_not_found',
        event_time: '2026-11-23T08:00:00Z',
        location: 'Andheri',
      },
    ];
    await sendEvents(ctx, shadowfaxToken, path(inOrder.awbs[0]!));
    // Reversed, and split over two calls with the newest scans first.
    const backwards = path(reversed.awbs[0]!).reverse();
    await sendEvents(ctx, shadowfaxToken, backwards.slice(0, 2));
    await sendEvents(ctx, shadowfaxToken, backwards.slice(2));
    const strip = (s: Awaited<ReturnType<typeof listed>>) => {
      const { status, sub_status, attempt_count, shipment_milestones, tracking_details } = s.attributes;
      return {
        status,
        sub_status,
        attempt_count,
        shipment_milestones,
        tracking_details: tracking_details.map(({ id: _, ...d }) => d),
      };
    };
    const a = strip(await listed(ctx, inOrder.apiKey, inOrder.booked[0]!.shipment_id));
    const b = strip(await listed(ctx, reversed.apiKey, reversed.booked[0]!.shipment_id));
    expect(b).toEqual(a);
    expect(a).toMatchObject({ status: 'rto_initiated', sub_status: null, attempt_count: 1 });
    expect(a.tracking_details.map((d) => d.event_date_time)).toEqual([
      '2026-11-20T10:00:00.000Z',
      '2026-11-21T10:00:00.000Z',
      '2026-11-22T04:00:00.000Z',
      '2026-11-22T08:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
    ]);
    expect((await list(ctx, reversed.apiKey, { 'rto_reason[]': ['address_not_found'] })).meta.total).toBe(1);
    expect((await list(ctx, reversed.apiKey, { 'ndr_reason[]': ['address_incomplete'] })).meta.total).toBe(1);
  });

  it('a scan arriving late lands in its place in time, adding its milestone without moving a delivered shipment', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    const awb = awbs[0]!;
    ctx.clock.set('2026-11-22T12:00:00.000Z');
    await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T10:00:00Z' },
      { awb, status: 'delivered', event_time: '2026-11-21T06:00:00Z' },
    ]);
    await sendEvents(ctx, shadowfaxToken, [{ awb, status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' }]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s.status).toBe('delivered');
    expect(s.shipment_milestones).toEqual([
      { milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' },
      { milestone: 'courier_assigned', milestone_at: '2026-11-20T06:30:00.000Z' },
      { milestone: 'picked_up', milestone_at: '2026-11-20T10:00:00.000Z' },
      { milestone: 'out_for_delivery', milestone_at: '2026-11-21T04:00:00.000Z' },
      { milestone: 'delivered', milestone_at: '2026-11-21T06:00:00.000Z' },
      { milestone: 'expected_delivery_date', milestone_at: PROMISED },
      { milestone: 'original_expected_delivery_date', milestone_at: PROMISED },
    ]);
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit', 'out_for_delivery', 'delivered']);
  });

  it('accepts 500 events in one call', async () => {
    const { awbs } = await merchantWithShipments(ctx);
    const events = Array.from({ length: 500 }, (_, i) => ({
      awb: awbs[0]!,
      status: 'in_transit',
      sub_status: 'in_transit',
      // From the booking (06:30Z) on, a second apart: none before it, none over 10 minutes ahead.
      event_time: new Date(Date.parse('2026-11-20T06:30:00Z') + i * 1000).toISOString(),
    }));
    const results = await sendEvents(ctx, shadowfaxToken, events);
    expect(results).toHaveLength(500);
    expect(results.every((r) => r.accepted && !r.duplicate)).toBe(true);
  });
});

describe('event ingestion writes nothing for refused events', () => {
  it('leaves tracking_events untouched when every event is refused', async () => {
    const { awbs, booked } = await merchantWithShipments(ctx);
    const response = await postEvents(ctx, shadowfaxToken, [
      { awb: awbs[0], status: 'in_transit', event_time: 'yesterday' },
      { awb: awbs[0], status: 'delivered', sub_status: 'picked_up', event_time: at(1) },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().results.map((r: { accepted: boolean }) => r.accepted)).toEqual([false, false]);
    expect(await eventRows(booked[0]!.shipment_id)).toEqual([]);
  });
});
