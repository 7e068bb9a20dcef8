import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, post, V1 } from '../../../test/kit/http.js';
import { LABEL_URL, labelPath, pdfText } from '../../../test/kit/labels.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

// A return gets what a forward shipment gets: a customer tracking link and a label, both in the
// booking answer, the label also through /shipments/{id}/label. Rendering only: once.

const RETURN_TRACK_URL = /^https:\/\/dakiya\.test\/t\/(r[0-9a-f]{32}[A-Za-z0-9_-]{22})$/;

let ctx: TestContext;
let m: { apiKey: string; warehouseId: string };
let carrierToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  m = await merchantWithCityWarehouse(ctx);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

const get = (url: string, key?: string) => ctx.app.inject({ method: 'GET', url, ...(key && { headers: authed(key) }) });
const pathOf = (trackUrl: string) => new URL(trackUrl).pathname;

describe("a return's links", () => {
  it('answers a track_url and a label_url once booked, neither before', async () => {
    const requested = await bookReturn(ctx, m.apiKey, m.warehouseId, {}, false);
    expect(requested).toMatchObject({ awb_code: null, track_url: null, label_url: null });
    const booked = await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    expect(booked).toMatchObject({
      track_url: expect.stringMatching(RETURN_TRACK_URL),
      label_url: expect.stringMatching(LABEL_URL),
    });
    const payload = booked as unknown as {
      track_url: string;
      label_url: string;
      return_id: string;
      shipment_id: string;
    };
    expect(payload.track_url).toContain(payload.return_id.replaceAll('-', ''));
    expect(LABEL_URL.exec(payload.label_url)![1]).toBe(payload.shipment_id);
  });

  it("opens a page with the pickup, status, courier and journey, in the pickup state's language; a forged token is not found", async () => {
    const booked = (await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX })) as unknown as {
      track_url: string;
      awb_code: string;
    };
    const path = pathOf(booked.track_url);
    const english = await get(`${path}?lang=en`);
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('Hello Asha · Pickup from Mumbai');
    expect(english.body).toContain('Pickup scheduled</h2><p>The courier will collect the parcel from you.</p>');
    expect(english.body).toContain(`<dd class="awb" translate="no">${booked.awb_code}</dd>`);
    expect(english.body).not.toContain('<form');
    // Mumbai is in Maharashtra: Marathi unless asked otherwise.
    expect((await get(path)).body).toContain('<html lang="mr">');
    expect((await get(path)).body).toContain('पिकअप ठरले</h2>');

    ctx.clock.set(at(30));
    expect(
      await sendEvents(ctx, carrierToken, [
        { awb: booked.awb_code, status: 'return_picked_up', event_time: at(20), location: 'Colaba' },
      ]),
    ).toEqual([{ awb: booked.awb_code, accepted: true }]);
    const json = (await get(`${path}.json?lang=en`)).json();
    expect(json).toMatchObject({
      kind: 'return',
      language: 'en',
      track_url: booked.track_url,
      brand: { name: expect.any(String), logo_url: null },
      status: 'return_picked_up',
      status_text: 'Picked up',
      status_detail: 'The courier has collected your return.',
      promised_delivery_date: null,
      customer: { first_name: 'Asha', city: 'Mumbai' },
      courier: { name: 'Shadowfax Standard', awb: booked.awb_code },
      reattempt: { available: false, dates: [], requested: false, requested_date: null },
    });
    expect(json.timeline.map((t: { status: string; text: string }) => [t.status, t.text])).toEqual([
      ['return_picked_up', 'Picked up'],
      ['shipped', 'Courier booked'],
      ['return_requested', 'Return requested'],
    ]);

    const token = path.slice(3);
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const otherId = `r${'0'.repeat(32)}${token.slice(-22)}`;
    for (const bad of [forged, otherId]) {
      expect((await get(`/t/${bad}`)).statusCode, bad).toBe(404);
      expect((await get(`/t/${bad}.json`)).statusCode, bad).toBe(404);
    }
  });

  it('prints its label through label_url and /shipments/{id}/label (return_id, shipment_id or AWB), addressed to the warehouse; void once cancelled', async () => {
    const booked = (await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX })) as unknown as {
      label_url: string;
      awb_code: string;
      return_id: string;
      shipment_id: string;
      order_id: string;
    };
    const signed = await get(labelPath(booked.label_url));
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(signed.rawPayload);
    expect(text).toContain(booked.awb_code);
    expect(text).toContain(`${booked.order_id} (return)`);
    expect(text).toContain('Asha Menon');
    expect(text).toContain('12 Marine Drive');

    for (const id of [booked.awb_code, booked.return_id, booked.shipment_id]) {
      const link = await get(`${V1}/shipments/${id}/label`, m.apiKey);
      expect(link.statusCode, id).toBe(200);
      expect(link.json()).toMatchObject({
        shipment_id: booked.shipment_id,
        awb_code: booked.awb_code,
        label_url: expect.stringMatching(LABEL_URL),
      });
    }
    const pdf = await get(`${V1}/shipments/${booked.awb_code}/label?format=pdf`, m.apiKey);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Another account cannot print it.
    const other = await ctx.createAccount();
    expect((await get(`${V1}/shipments/${booked.awb_code}/label`, other.apiKey)).statusCode).toBe(404);

    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [booked.awb_code] })).statusCode).toBe(200);
    const voided = await get(labelPath(booked.label_url));
    expect(voided.statusCode).toBe(410);
    expect(voided.json().message).toBe(`Shipment ${booked.awb_code} was cancelled: its label is void`);
    expect((await get(`${V1}/shipments/${booked.return_id}/label`, m.apiKey)).statusCode).toBe(410);
  });
});
