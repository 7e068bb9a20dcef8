import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  admin,
  authed,
  CANCEL,
  CARRIER_TOKENS,
  META_STATUSES,
  MINUTE,
  ORDER_TRACKING,
  post,
  SHIPMENTS,
  STORES,
  TRACKING_EVENTS,
  UUID,
} from '../../../test/kit/http.js';
import { labelUrlNow } from '../../../test/kit/labels.js';
import { book, seedShipments } from '../../../test/kit/orders.js';
import { list, listed } from '../../../test/kit/shipments.js';
import { at, issueCarrierToken, postEvents, sendEvents } from '../../../test/kit/tracking.js';
import { queryRows } from '../../base/db/client.js';
import { hashCredential } from '../../tenancy/accounts/credentials.js';
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

/** An error answer: every error body repeats its first error as `message`. */
const errorBody = (message: string) => ({ message, errors: [message] });

/** A merchant with `n` shipments booked on Shadowfax, created one minute apart from the clock's present. */
async function merchant(n = 1) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const seeded = await seedShipments(ctx, n);
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  return { ...seeded, awbs: seeded.booked.map((b) => b.awb_code!) };
}

async function eventRows(shipmentId: string) {
  return queryRows<{ status: string; sub_status: string | null; event_id: string | null }>(
    ctx.database.db,
    sql`select status, sub_status, event_id from tracking_events where shipment_id = ${shipmentId} order by event_time, received_at`,
  );
}

describe('carrier tokens (POST /admin/v1/carrier-tokens)', () => {
  it('issues a token for a courier service: 201 {token, carrier_id}, stored only as a hash', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers: admin, payload: { carrier_id: DELHIVERY_SURFACE } });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['carrier_id', 'token']);
    expect(body.carrier_id).toBe(DELHIVERY_SURFACE);
    expect(body.token).toMatch(/^dkc_[A-Za-z0-9_-]{43}$/);
    const rows = await queryRows<{ carrier_id: string; token_hash: string }>(
      ctx.database.db,
      sql`select carrier_id, token_hash from carrier_tokens where token_hash = ${hashCredential(body.token)}`,
    );
    expect(rows).toEqual([{ carrier_id: DELHIVERY_SURFACE, token_hash: hashCredential(body.token) }]);
    const clear = await queryRows(ctx.database.db, sql`select 1 from carrier_tokens where token_hash = ${body.token}`);
    expect(clear).toEqual([]);
  });

  it('refuses an unknown courier service with 422', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers: admin, payload: { carrier_id: 'CARNOPE000001' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: "carrier_id 'CARNOPE000001' is not a known courier service",
      errors: ["carrier_id 'CARNOPE000001' is not a known courier service"],
      details: [{ field: 'carrier_id', message: "carrier_id 'CARNOPE000001' is not a known courier service" }],
    });
  });

  it('needs the operator token (401 without it, or with an account key)', async () => {
    const account = await ctx.createAccount();
    for (const headers of [{}, authed(account.apiKey), { authorization: `Bearer ${account.apiKey}` }, { authorization: 'Bearer wrong-admin-token' }]) {
      const response = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers, payload: { carrier_id: SHADOWFAX } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('Operator routes need "Authorization: Bearer <ADMIN_TOKEN>"'));
    }
  });

  it('refuses a body without carrier_id, or with other fields, with 400', async () => {
    const missing = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers: admin, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual(['carrier_id is required']);
    const extra = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers: admin, payload: { carrier_id: SHADOWFAX, account_id: 'x' } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors).toEqual(['account_id is not a known field']);
  });
});

describe('who may call what', () => {
  it('refuses an account API key (bare or Bearer) on /carrier/v1 with 401', async () => {
    const { apiKey, awbs } = await merchant();
    for (const authorization of [apiKey, `Bearer ${apiKey}`, `Bearer ${ADMIN_TOKEN}`]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: TRACKING_EVENTS,
        headers: { authorization },
        payload: { events: [{ awb: awbs[0], status: 'in_transit', event_time: at(1) }] },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('Invalid or revoked carrier token'));
    }
    const none = await ctx.app.inject({ method: 'POST', url: TRACKING_EVENTS, payload: { events: [] } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(errorBody('Missing Authorization header: send "Authorization: Bearer <API key or access token>"'));
    expect((await list(ctx, apiKey)).data[0]!.attributes.status).toBe('pending');
  });

  it('refuses a carrier token on every account route with 401', async () => {
    const requests = [
      { method: 'GET' as const, url: STORES },
      { method: 'POST' as const, url: SHIPMENTS, payload: {} },
      { method: 'POST' as const, url: ORDER_TRACKING, payload: { awbs: ['SFX0000000001'] } },
      { method: 'GET' as const, url: META_STATUSES },
      { method: 'POST' as const, url: CANCEL, payload: { awbs: ['SFX0000000001'] } },
    ];
    for (const request of requests) {
      for (const authorization of [shadowfaxToken, `Bearer ${shadowfaxToken}`]) {
        const response = await ctx.app.inject({ ...request, headers: { authorization } });
        expect({ url: request.url, status: response.statusCode }).toEqual({ url: request.url, status: 401 });
        expect(response.json()).toEqual(errorBody('Invalid, revoked or expired credential'));
      }
    }
  });

  it('refuses a carrier token on the operator routes with 401', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: CARRIER_TOKENS,
      headers: { authorization: `Bearer ${shadowfaxToken}` },
      payload: { carrier_id: SHADOWFAX },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('event intake (POST /carrier/v1/tracking-events)', () => {
  it('answers one result per event, in the order sent; AWBs that are unknown or booked on another courier are refused alone', async () => {
    const { apiKey, awbs, warehouseId } = await merchant(2);
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
    expect(await sendEvents(ctx, delhiveryToken, [{ awb: other.awb_code!, status: 'in_transit', event_time: at(9) }])).toEqual([
      { awb: other.awb_code, accepted: true },
    ]);
  });

  it('never touches another account’s shipment through an AWB it does not own, and finds it for its own courier', async () => {
    const a = await merchant();
    const b = await merchant();
    ctx.clock.set('2026-11-20T06:40:00.000Z');
    expect(await sendEvents(ctx, shadowfaxToken, [{ awb: b.awbs[0]!, status: 'in_transit', event_time: at(3) }])).toEqual([
      { awb: b.awbs[0], accepted: true },
    ]);
    // A courier serves every account that books it; the account boundary is on the reading side.
    expect((await list(ctx, b.apiKey)).data[0]!.attributes.status).toBe('in_transit');
    expect((await list(ctx, a.apiKey)).data[0]!.attributes.status).toBe('pending');
  });

  it('records each accepted event as a tracking_details entry and the first arrival in each stage as a milestone, as the listing shows them', async () => {
    const { apiKey, awbs, booked } = await merchant();
    ctx.clock.set('2026-11-21T12:00:00.000Z');
    const awb = awbs[0]!;
    const results = await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T13:30:00+05:30', location: 'Okhla Hub', description: 'Picked up', event_id: 'scan-1' },
      { awb, status: 'in_transit', sub_status: 'reached_destination_hub', event_time: '2026-11-21T02:00:00Z', location: 'Bhiwandi Hub', event_id: 'scan-2' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-21T04:00:00.250Z', location: 'Andheri DC' },
      { awb, status: 'ndr_raised', sub_status: 'customer_unavailable', ndr_reason: 'customer_unavailable', event_time: '2026-11-21T08:00:00Z', location: 'Andheri DC', description: 'Door locked' },
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
      { status: 'in_transit', last_location: 'Okhla Hub', event_date_time: '2026-11-20T08:00:00.000Z', description: 'Picked up' },
      { status: 'in_transit', last_location: 'Bhiwandi Hub', event_date_time: '2026-11-21T02:00:00.000Z', description: null },
      { status: 'out_for_delivery', last_location: 'Andheri DC', event_date_time: '2026-11-21T04:00:00.250Z', description: null },
      { status: 'ndr_raised', last_location: 'Andheri DC', event_date_time: '2026-11-21T08:00:00.000Z', description: 'Door locked' },
    ]);
    // The filters the listing offers follow the events.
    expect((await list(ctx, apiKey, { 'ndr_reason[]': ['customer_unavailable'] })).meta.total).toBe(1);
    expect((await list(ctx, apiKey, { date_field: 'picked_up_at', start_time: Date.parse('2026-11-20T08:00:00Z') / 1000, end_time: Date.parse('2026-11-20T08:00:00Z') / 1000 })).meta.total).toBe(1);
  });

  it('counts delivery attempts: each ndr_raised and the final delivered', async () => {
    const { apiKey, awbs, booked } = await merchant();
    ctx.clock.set('2026-11-25T12:00:00.000Z');
    const awb = awbs[0]!;
    await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T10:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
      { awb, status: 'ndr_raised', sub_status: 'refused', event_time: '2026-11-22T09:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-23T04:00:00Z' },
      { awb, status: 'ndr_raised', sub_status: 'cod_not_ready', ndr_reason: 'cod_not_ready', event_time: '2026-11-23T09:00:00Z' },
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
    expect((await list(ctx, apiKey, { date_field: 'delivered_at', start_time: Date.parse('2026-11-24T06:00:00Z'), end_time: Date.parse('2026-11-24T06:00:00Z') })).meta.total).toBe(1);
  });

  it('treats a replay by event_id, or by the same awb, status and event_time, as accepted duplicates that change nothing', async () => {
    const { apiKey, awbs, booked } = await merchant();
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
    const [updatedBefore] = await queryRows<{ updated_at: string }>(ctx.database.db, sql`select updated_at::text from shipments where id = ${booked[0]!.shipment_id}`);

    ctx.clock.advance(5 * MINUTE);
    const replay = await sendEvents(ctx, shadowfaxToken, [
      // Same event_id, different content: still the scan already recorded.
      { awb, status: 'in_transit', sub_status: 'reached_origin_hub', event_time: at(61), location: 'Elsewhere', event_id: 'evt-1' },
      // Same awb, status and event_time, no event_id.
      { awb, status: 'out_for_delivery', event_time: at(120), location: 'Somewhere else', description: 'again' },
      // The same time written with another offset is the same instant.
      { awb, status: 'out_for_delivery', event_time: '2026-11-20T14:00:00+05:30' },
    ]);
    expect(replay).toEqual([
      { awb, accepted: true, duplicate: true },
      { awb, accepted: true, duplicate: true },
      { awb, accepted: true, duplicate: true },
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
    const [updatedAfter] = await queryRows<{ updated_at: string }>(ctx.database.db, sql`select updated_at::text from shipments where id = ${booked[0]!.shipment_id}`);
    expect(updatedAfter).toEqual(updatedBefore);
  });

  it('marks a repeat inside one batch as a duplicate too', async () => {
    const { awbs } = await merchant();
    const awb = awbs[0]!;
    const event = { awb, status: 'in_transit', event_time: at(2), event_id: 'same' };
    expect(await sendEvents(ctx, shadowfaxToken, [event, event])).toEqual([
      { awb, accepted: true },
      { awb, accepted: true, duplicate: true },
    ]);
  });

  it('keeps an event the status machine does not allow in tracking_details, without changing the status', async () => {
    const { apiKey, awbs, booked } = await merchant();
    const awb = awbs[0]!;
    ctx.clock.set('2026-11-22T12:00:00.000Z');
    await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T10:00:00Z' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
      { awb, status: 'delivered', sub_status: 'delivered', event_time: '2026-11-21T06:00:00Z' },
    ]);
    const late = await sendEvents(ctx, shadowfaxToken, [
      { awb, status: 'in_transit', sub_status: 'reached_destination_hub', event_time: '2026-11-21T09:00:00Z', location: 'Stray scan' },
      { awb, status: 'rto_initiated', rto_reason: 'customer_refused', event_time: '2026-11-21T10:00:00Z' },
    ]);
    expect(late).toEqual([
      { awb, accepted: true },
      { awb, accepted: true },
    ]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'delivered', sub_status: 'delivered', attempt_count: 1 });
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit', 'out_for_delivery', 'delivered', 'in_transit', 'rto_initiated']);
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
    const inOrder = await merchant();
    const reversed = await merchant();
    ctx.clock.set('2026-11-24T12:00:00.000Z');
    const path = (awb: string): CarrierEvent[] => [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z', location: 'Okhla' },
      { awb, status: 'in_transit', sub_status: 'reached_destination_hub', event_time: '2026-11-21T10:00:00Z', location: 'Bhiwandi' },
      { awb, status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z', location: 'Andheri' },
      { awb, status: 'ndr_raised', sub_status: 'address_incomplete', event_time: '2026-11-22T08:00:00Z', location: 'Andheri' },
      { awb, status: 'rto_initiated', rto_reason: 'address_not_found', event_time: '2026-11-23T08:00:00Z', location: 'Andheri' },
    ];
    await sendEvents(ctx, shadowfaxToken, path(inOrder.awbs[0]!));
    // Reversed, and split over two calls with the newest scans first.
    const backwards = path(reversed.awbs[0]!).reverse();
    await sendEvents(ctx, shadowfaxToken, backwards.slice(0, 2));
    await sendEvents(ctx, shadowfaxToken, backwards.slice(2));
    const strip = (s: Awaited<ReturnType<typeof listed>>) => {
      const { status, sub_status, attempt_count, shipment_milestones, tracking_details } = s.attributes;
      return { status, sub_status, attempt_count, shipment_milestones, tracking_details: tracking_details.map(({ id: _, ...d }) => d) };
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
    const { apiKey, awbs, booked } = await merchant();
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
    const { awbs } = await merchant();
    const events = Array.from({ length: 500 }, (_, i) => ({
      awb: awbs[0]!,
      status: 'in_transit',
      sub_status: 'in_transit',
      event_time: new Date(Date.parse('2026-11-20T00:00:00Z') + i * 1000).toISOString(),
    }));
    const results = await sendEvents(ctx, shadowfaxToken, events);
    expect(results).toHaveLength(500);
    expect(results.every((r) => r.accepted && !r.duplicate)).toBe(true);
  });
});

describe('the status catalogue (GET /custom/api/v1/meta/statuses)', () => {
  it('publishes the statuses, their sub_statuses, the NDR and RTO reasons and the transitions', async () => {
    const { apiKey } = await ctx.createAccount();
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES, headers: authed(apiKey) });
    expect(response.statusCode).toBe(200);
    // The return statuses have a key of their own (return-tracking.test.ts); the forward keys are as they were.
    const { return_statuses, ...forward } = response.json();
    expect(Object.keys(response.json())).toEqual(['statuses', 'ndr_reasons', 'rto_reasons', 'transitions', 'return_statuses']);
    expect(forward).toEqual({
      statuses: [
        { status: 'pending', sub_statuses: ['pickup_scheduled', 'pickup_failed'] },
        {
          status: 'in_transit',
          sub_statuses: ['picked_up', 'in_transit', 'reached_origin_hub', 'departed_origin_hub', 'reached_destination_hub', 'misrouted'],
        },
        { status: 'out_for_delivery', sub_statuses: ['out_for_delivery'] },
        { status: 'delivered', sub_statuses: ['delivered'] },
        {
          status: 'ndr_raised',
          sub_statuses: ['customer_unavailable', 'address_incomplete', 'refused', 'cod_not_ready', 'premises_closed', 'future_delivery_requested', 'contact_unreachable'],
        },
        { status: 'rto_initiated', sub_statuses: ['rto_initiated'] },
        { status: 'rto_in_transit', sub_statuses: ['rto_in_transit', 'rto_reached_origin_hub', 'rto_out_for_delivery'] },
        { status: 'rto_delivered', sub_statuses: ['rto_delivered'] },
        { status: 'cancelled', sub_statuses: ['cancelled_by_merchant', 'cancelled_by_courier'] },
        { status: 'others', sub_statuses: ['lost', 'damaged', 'destroyed', 'on_hold'] },
      ],
      ndr_reasons: ['customer_unavailable', 'address_incomplete', 'refused', 'cod_not_ready', 'premises_closed', 'future_delivery_requested', 'contact_unreachable'],
      rto_reasons: ['customer_refused', 'customer_unreachable', 'address_not_found', 'max_attempts_exceeded', 'cod_not_ready', 'merchant_requested', 'damaged_in_transit'],
      transitions: {
        pending: ['in_transit', 'cancelled', 'others'],
        in_transit: ['out_for_delivery', 'ndr_raised', 'rto_initiated', 'delivered', 'others'],
        out_for_delivery: ['delivered', 'ndr_raised', 'in_transit', 'others'],
        delivered: [],
        ndr_raised: ['out_for_delivery', 'in_transit', 'rto_initiated', 'delivered', 'others'],
        rto_initiated: ['rto_in_transit', 'rto_delivered', 'others'],
        rto_in_transit: ['rto_delivered', 'others'],
        rto_delivered: [],
        cancelled: [],
        others: ['in_transit', 'out_for_delivery', 'ndr_raised', 'rto_initiated', 'rto_in_transit', 'delivered', 'rto_delivered'],
      },
    });
  });

  it('needs an account credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES });
    expect(response.statusCode).toBe(401);
  });
});

describe('merchant cancellation is a tracking event', () => {
  it('cancels a shipment not yet picked up: recorded in tracking_details, with a cancelled milestone', async () => {
    const { apiKey, awbs, booked } = await merchant();
    ctx.clock.set('2026-11-20T07:00:00.000Z');
    const response = await post(ctx, apiKey, CANCEL, { awbs });
    expect(response.json()).toEqual({ message: '1 of 1 shipment cancelled', results: [{ awb: awbs[0], cancelled: true, message: 'Shipment cancelled' }] });
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'cancelled', sub_status: 'cancelled_by_merchant' });
    expect(s.tracking_details.map(({ id: _, ...d }) => d)).toEqual([
      { status: 'cancelled', last_location: null, event_date_time: '2026-11-20T07:00:00.000Z', description: 'Cancelled by the merchant' },
    ]);
    expect(s.shipment_milestones).toContainEqual({ milestone: 'cancelled', milestone_at: '2026-11-20T07:00:00.000Z' });
    // A courier's pickup scan after the cancellation is kept but does not revive the shipment.
    ctx.clock.set('2026-11-20T09:00:00.000Z');
    expect(await sendEvents(ctx, shadowfaxToken, [{ awb: awbs[0]!, status: 'in_transit', event_time: '2026-11-20T08:00:00Z' }])).toEqual([
      { awb: awbs[0], accepted: true },
    ]);
    expect((await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes.status).toBe('cancelled');
  });

  it('refuses to cancel after the pickup scan', async () => {
    const { apiKey, awbs, booked } = await merchant();
    ctx.clock.set('2026-11-20T08:00:00.000Z');
    await sendEvents(ctx, shadowfaxToken, [{ awb: awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T07:30:00Z' }]);
    const response = await post(ctx, apiKey, CANCEL, { awbs });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: awbs[0], cancelled: false, message: 'Shipment is in_transit and can no longer be cancelled' }],
    });
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s.status).toBe('in_transit');
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit']);
  });

  it('a pickup scan dated before an accepted cancellation, arriving after it, wins: the parcel had already left', async () => {
    const { apiKey, awbs, booked } = await merchant();
    ctx.clock.set('2026-11-20T08:00:00.000Z');
    expect((await post(ctx, apiKey, CANCEL, { awbs })).json().results[0].cancelled).toBe(true);
    await sendEvents(ctx, shadowfaxToken, [{ awb: awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T07:45:00Z' }]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'in_transit', sub_status: 'picked_up' });
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit', 'cancelled']);
    expect((await list(ctx, apiKey, { date_field: 'cancelled_at', start_time: 0, end_time: 99_999_999_999 })).meta.total).toBe(0);
  });
});

describe('event ingestion writes nothing for refused events', () => {
  it('leaves tracking_events untouched when every event is refused', async () => {
    const { awbs, booked } = await merchant();
    const response = await postEvents(ctx, shadowfaxToken, [
      { awb: awbs[0], status: 'in_transit', event_time: 'yesterday' },
      { awb: awbs[0], status: 'delivered', sub_status: 'picked_up', event_time: at(1) },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().results.map((r: { accepted: boolean }) => r.accepted)).toEqual([false, false]);
    expect(await eventRows(booked[0]!.shipment_id)).toEqual([]);
  });
});
