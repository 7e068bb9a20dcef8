import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, post, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { labelPath, pdfText } from '../../../test/kit/labels.js';
import { orchestrate, orderBody, type OrderPayload } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';
import { eventsSettled } from '../../../test/databases.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../base/db/client.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const reissuePath = (id: string) => `${V1}/shipments/${id}/label/reissue`;
const reissue = (apiKey: string, id: string, payload?: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: reissuePath(id),
    headers: { ...authed(apiKey), ...headers },
    ...(payload && { payload }),
  });
const fetchLabel = (labelUrl: string) => ctx.app.inject({ method: 'GET', url: labelPath(labelUrl) });

/** When the shipment's current label version was first fetched as a PDF (null: never). */
async function printedAt(shipmentId: string) {
  const [row] = await queryRows<{ at: Date | null }>(
    ctx.database.db,
    sql`select label_printed_at as at from shipments where id = ${shipmentId}`,
  );
  return row!.at && new Date(row!.at).toISOString();
}

/** The account's events about one shipment, as GET /events lists them. */
async function eventsOf(apiKey: string, shipmentId: string) {
  await eventsSettled(ctx.database);
  const response = await ctx.app.inject({ method: 'GET', url: `${V1}/events?limit=100`, headers: authed(apiKey) });
  expect(response.statusCode, response.body).toBe(200);
  return (
    response.json().data as { type: string; data: Record<string, unknown> & { shipment?: { id: string } } }[]
  ).filter((event) => event.data.shipment?.id === shipmentId);
}

/**
 * Its label_reissued events once `count` of them can be read: on PostgreSQL an event becomes
 * visible to the feed a moment after it commits while an older transaction elsewhere is open.
 */
async function reissuedEvents(apiKey: string, shipmentId: string, count: number) {
  let found: Awaited<ReturnType<typeof eventsOf>> = [];
  await until(async () => {
    found = (await eventsOf(apiKey, shipmentId)).filter((event) => event.type === 'shipment.label_reissued');
    return found.length >= count;
  }, `${count} label_reissued events`);
  return found;
}

describe('POST /shipments/:id/label/reissue', () => {
  let m: { apiKey: string; warehouseId: string };
  beforeAll(async () => {
    m = await merchant(ctx, 'Reissue Labels');
  });

  it('issues label 2 with the same AWB: printed on it, old links 410, new links 200, an event recorded', async () => {
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const oldLink = booked.label_url!;
    expect(await printedAt(booked.shipment_id)).toBeNull();
    expect((await fetchLabel(oldLink)).statusCode).toBe(200);
    const firstPrint = ctx.clock.now().toISOString();
    ctx.clock.advance(1000);
    expect((await fetchLabel(oldLink)).statusCode).toBe(200);
    // The first fetch of a version is when it was printed; a reprint leaves it.
    expect(await printedAt(booked.shipment_id)).toBe(firstPrint);
    ctx.clock.advance(1000);

    const response = await reissue(m.apiKey, booked.shipment_id, { reason: 'Address corrected by the buyer' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      shipment_id: booked.shipment_id,
      awb_code: booked.awb_code,
      label_version: 2,
      reissued_at: ctx.clock.now().toISOString(),
      label_url: expect.stringContaining(`/public/v1/labels/${booked.shipment_id}?expires=`),
      expires_at: new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000 + 86_400_000).toISOString(),
    });

    // Label 2 is not printed until fetched: a refused link prints nothing.
    expect(await printedAt(booked.shipment_id)).toBeNull();
    const old = await fetchLabel(oldLink);
    expect(old.statusCode).toBe(410);
    expect(await printedAt(booked.shipment_id)).toBeNull();
    const superseded = `The label of ${booked.awb_code} was re-issued after this link was made: fetch the new label`;
    expect(old.json()).toEqual({ code: 'label_superseded', message: superseded, errors: [superseded] });

    const fresh = await fetchLabel(body.label_url);
    expect(fresh.statusCode).toBe(200);
    expect(await printedAt(booked.shipment_id)).toBe(ctx.clock.now().toISOString());
    const text = await pdfText(fresh.rawPayload);
    expect(text).toContain(`AWB ${booked.awb_code}`);
    expect(text).toContain('Label 2, re-issued 2026-11-20 12:00 IST');

    // A link made after the re-issue by any reader works: the label route's and the listing's.
    const viaRoute = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/shipments/${booked.awb_code}/label`,
      headers: authed(m.apiKey),
    });
    expect((await fetchLabel(viaRoute.json().label_url)).statusCode).toBe(200);
    // The account's own address for the PDF stays the same across re-issues: browsers must ask again.
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/shipments/${booked.shipment_id}/label?format=pdf`,
      headers: authed(m.apiKey),
    });
    expect([pdf.statusCode, pdf.headers['cache-control']]).toEqual([200, 'private, no-cache']);
    expect(await pdfText(pdf.rawPayload)).toContain('Label 2, re-issued');

    const reissued = await reissuedEvents(m.apiKey, booked.shipment_id, 1);
    expect(
      reissued.map(({ data }) => ({
        label_version: data.label_version,
        previous_version: data.previous_version,
        reason: data.reason,
      })),
    ).toEqual([{ label_version: 2, previous_version: 1, reason: 'Address corrected by the buyer' }]);

    ctx.clock.advance(2000);
    const third = await reissue(m.apiKey, booked.awb_code!);
    expect(third.statusCode, third.body).toBe(200);
    expect(third.json().label_version).toBe(3);
    expect((await fetchLabel(body.label_url)).statusCode).toBe(410);
    expect(await pdfText((await fetchLabel(third.json().label_url)).rawPayload)).toContain('Label 3, re-issued');
    const last = (await reissuedEvents(m.apiKey, booked.shipment_id, 2)).pop();
    expect(last?.data).toMatchObject({ label_version: 3, previous_version: 2, reason: null });
  });

  it('with an Idempotency-Key, a retry answers the first re-issue again and issues no other', async () => {
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const key = { 'idempotency-key': `reissue-${booked.shipment_id}` };
    const first = await reissue(m.apiKey, booked.shipment_id, { reason: 'Damaged' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await reissue(m.apiKey, booked.shipment_id, { reason: 'Damaged' }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await reissuedEvents(m.apiKey, booked.shipment_id, 1)).toHaveLength(1);
  });

  it("refuses another account's shipment and an unknown one (404), a cancelled one (410), one picked up (409), a return (422)", async () => {
    const other = await merchant(ctx, 'Reissue Other');
    const theirs = await orchestrate(ctx, other.apiKey, orderBody(other.warehouseId));
    const cancelled = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [cancelled.awb_code] })).statusCode).toBe(200);
    const moving: OrderPayload = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: SHADOWFAX }));
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    const after = new Date(ctx.clock.now().getTime() + 60_000).toISOString();
    expect(
      (await sendEvents(ctx, token, [{ awb: moving.awb_code!, status: 'in_transit', event_time: after }]))[0]!.accepted,
    ).toBe(true);
    const ret = await bookReturn(ctx, m.apiKey, m.warehouseId);

    const cases: [string, number, string][] = [
      [theirs.shipment_id, 404, 'Shipment not found'],
      [theirs.awb_code!, 404, 'Shipment not found'],
      [UNKNOWN_ID, 404, 'Shipment not found'],
      [cancelled.shipment_id, 410, `Shipment ${cancelled.awb_code} was cancelled: its label is void`],
      [
        moving.shipment_id,
        409,
        `Shipment ${moving.awb_code} is in_transit: a label can be re-issued only before pickup`,
      ],
      [ret.return_id, 422, "A return's label cannot be re-issued: fetch it again with GET /shipments/{id}/label"],
    ];
    for (const [id, status, message] of cases) {
      const response = await reissue(m.apiKey, id);
      expect(response.statusCode, id).toBe(status);
      expect(response.json().message).toBe(message);
    }
    // The other account's label is untouched and still prints under its first link.
    expect((await fetchLabel(theirs.label_url!)).statusCode).toBe(200);
    expect(await eventsOf(other.apiKey, theirs.shipment_id)).not.toContainEqual(
      expect.objectContaining({ type: 'shipment.label_reissued' }),
    );
  });

  it('refuses a blank or over-long reason with a 400 naming it, and issues nothing', async () => {
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    for (const reason of ['  ', 'x'.repeat(201), { text: 'damaged' }]) {
      const response = await reissue(m.apiKey, booked.shipment_id, { reason });
      expect(response.statusCode, JSON.stringify(reason)).toBe(400);
      expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(['reason']);
    }
    expect((await fetchLabel(booked.label_url!)).statusCode).toBe(200);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: reissuePath(booked.shipment_id),
      headers: { ...authed(m.apiKey), 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().label_version).toBe(2);
  });
});
