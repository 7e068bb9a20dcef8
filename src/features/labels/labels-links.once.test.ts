import { beforeEach, describe, expect, it } from 'vitest';
import { PUSH_RATES, useTestApp, type TestContext, testSettings } from '../../../test/app.js';
import { buildApp } from '../../app.js';
import { authed, CANCEL, FORWARD_ORDER, HOUR, ORCHESTRATE, post, UNKNOWN_ID } from '../../../test/kit/http.js';
import { labelPath, labelUrlNow, pdfText, signedLabelUrl } from '../../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody, type OrderPayload } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';

const FORGED = {
  code: 'label_link_invalid',
  message: 'This label link is not valid',
  errors: ['This label link is not valid'],
};
const EXPIRED = {
  code: 'label_link_expired',
  message: 'This label link has expired: fetch a new one',
  errors: ['This label link has expired: fetch a new one'],
};
const NOT_FOUND = { code: 'label_not_found', message: 'Label not found', errors: ['Label not found'] };

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** Fetches a label through its link, with no credential, as a printer would. */
const fetchLabel = (pathAndQuery: string) => ctx.app.inject({ method: 'GET', url: pathAndQuery });

/** Signs a link with the server's own secret, to reach cases no booking hands out. */
const signedPath = async (shipmentId: string, expires: number) =>
  labelPath(await signedLabelUrl(ctx, shipmentId, expires));

describe('label links', () => {
  // Fresh bookings for every test: the expiry test moves the clock past older links.
  let booking: OrderPayload;
  let other: OrderPayload;
  beforeEach(async () => {
    const m = await merchant(ctx, 'Link Checks');
    booking = await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId));
    other = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
  });

  const parts = (labelUrl: string) => {
    const url = new URL(labelUrl);
    return {
      id: url.pathname.split('/').pop()!,
      expires: url.searchParams.get('expires')!,
      signature: url.searchParams.get('signature')!,
    };
  };

  /** Checks the refusal: status, envelope, JSON, and nothing of the label in it. */
  function expectRefusal(response: Awaited<ReturnType<typeof fetchLabel>>, status: number, body: object) {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual(body);
    expect(response.body).not.toContain(booking.awb_code!);
    expect(response.body).not.toContain('Asha');
  }

  it('refuses a tampered signature, expiry or shipment id (403)', async () => {
    const { id, expires, signature } = parts(booking.label_url!);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    const theirs = parts(other.label_url!);
    for (const path of [
      `/public/v1/labels/${id}?expires=${expires}&signature=${flipped}`,
      `/public/v1/labels/${id}?expires=${expires}&signature=${signature.slice(0, -1)}`,
      `/public/v1/labels/${id}?expires=${expires}&signature=`,
      `/public/v1/labels/${id}?expires=${Number(expires) + 86_400}&signature=${signature}`,
      `/public/v1/labels/${theirs.id}?expires=${expires}&signature=${signature}`,
      `/public/v1/labels/${id}?expires=${theirs.expires}&signature=${theirs.signature}`,
      `/public/v1/labels/${UNKNOWN_ID}?expires=${expires}&signature=${signature}`,
    ]) {
      expectRefusal(await fetchLabel(path), 403, FORGED);
    }
  });

  it('refuses a link without its expiry or signature (400)', async () => {
    const { id, expires, signature } = parts(booking.label_url!);
    for (const path of [
      `/public/v1/labels/${id}`,
      `/public/v1/labels/${id}?expires=${expires}`,
      `/public/v1/labels/${id}?signature=${signature}`,
    ]) {
      const response = await fetchLabel(path);
      expect(response.statusCode).toBe(400);
      expect(response.body).not.toContain(booking.awb_code!);
    }
    // An id that cannot be one is the HTTP kit's 404 (every malformed path id is), with the generic code.
    expect((await fetchLabel(`/public/v1/labels/not-a-uuid?expires=${expires}&signature=${signature}`)).json()).toEqual(
      {
        ...NOT_FOUND,
        code: 'not_found',
      },
    );
  });

  it('answers 410 once the link has expired (24 hours), and 403 for an expired link that was forged', async () => {
    const m = await merchant(ctx, 'Expiry Check');
    const fresh = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const path = labelPath(fresh.label_url!);
    ctx.clock.advance(24 * HOUR - 1000);
    expect((await fetchLabel(path)).statusCode).toBe(200);
    ctx.clock.advance(1000);
    const expired = await fetchLabel(path);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual(EXPIRED);
    expect(expired.body).not.toContain(fresh.awb_code!);

    const { id, expires } = parts(fresh.label_url!);
    expectRefusal(
      await fetchLabel(`/public/v1/labels/${id}?expires=${expires}&signature=${'A'.repeat(43)}`),
      403,
      FORGED,
    );
  });

  it('takes its lifetime from LABEL_URL_TTL_SECONDS (urlTtlSeconds), and links of one server work on another sharing the database', async () => {
    const m = await merchant(ctx, 'Short Links');
    // The test app's catalogue: two processes of one deployment draw from the same AWB series.
    const shortLived = await buildApp({
      db: ctx.database.db,
      clock: ctx.clock,
      settings: testSettings({ labels: { urlTtlSeconds: 600 }, server: { adminToken: undefined } }),
      rates: PUSH_RATES,
    });
    try {
      const response = await shortLived.inject({
        method: 'POST',
        url: ORCHESTRATE,
        headers: authed(m.apiKey),
        payload: orderBody(m.warehouseId),
      });
      expect(response.statusCode, response.body).toBe(200);
      const booked = response.json().payload as OrderPayload;
      expect(Number(parts(booked.label_url!).expires)).toBe(ctx.clock.now().getTime() / 1000 + 600);
      // The signing secret lives in the database, so the test app (another "process") honours the link.
      expect((await fetchLabel(labelPath(booked.label_url!))).statusCode).toBe(200);
      ctx.clock.advance(600_000);
      expect((await shortLived.inject({ method: 'GET', url: labelPath(booked.label_url!) })).json()).toEqual(EXPIRED);
      expect((await fetchLabel(labelPath(booked.label_url!))).statusCode).toBe(410);
    } finally {
      await shortLived.close();
    }
  });

  it('answers 404 for a genuine link to a shipment without a label (no courier yet) or to no shipment', async () => {
    const m = await merchant(ctx, 'No Label Yet');
    const pending = (await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId))).json().payload as OrderPayload;
    expect(pending.label_url).toBeNull();
    const expires = Math.floor(ctx.clock.now().getTime() / 1000) + HOUR / 1000;
    for (const id of [pending.shipment_id, UNKNOWN_ID]) {
      const response = await fetchLabel(await signedPath(id, expires));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it("answers 410 once the shipment is cancelled: its label is void, and says so; the account's other labels still print", async () => {
    const m = await merchant(ctx, 'Cancels');
    const cancelled = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const kept = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await fetchLabel(labelPath(cancelled.label_url!))).statusCode).toBe(200);
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [cancelled.awb_code] })).json().results[0].cancelled).toBe(true);

    const response = await fetchLabel(labelPath(cancelled.label_url!));
    const message = `Shipment ${cancelled.awb_code} was cancelled: its label is void`;
    expect(response.statusCode).toBe(410);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ code: 'label_void', message, errors: [message] });
    expect(response.body).not.toContain('Asha');
    expect((await fetchLabel(labelPath(kept.label_url!))).statusCode).toBe(200);
  });

  it('needs no credential, and a credential changes nothing', async () => {
    const stranger = await ctx.createAccount('Stranger');
    const path = labelPath(booking.label_url!);
    const withStrangerKey = await ctx.app.inject({ method: 'GET', url: path, headers: authed(stranger.apiKey) });
    expect(withStrangerKey.statusCode).toBe(200);
    expect(withStrangerKey.headers['content-type']).toBe('application/pdf');
  });

  it('gives every booking its own link, signed for its own shipment', async () => {
    expect(parts(booking.label_url!).id).toBe(booking.shipment_id);
    expect(parts(other.label_url!).id).toBe(other.shipment_id);
    expect(parts(booking.label_url!).signature).not.toBe(parts(other.label_url!).signature);
    const [first, second] = await Promise.all([
      fetchLabel(labelPath(booking.label_url!)),
      fetchLabel(labelPath(other.label_url!)),
    ]);
    expect(await pdfText(first.rawPayload)).toContain(`AWB ${booking.awb_code}`);
    expect(await pdfText(second.rawPayload)).toContain(`AWB ${other.awb_code}`);
  });
});

describe('GET /custom/api/v1/shipments/:id/label (a fresh label link)', () => {
  const LABEL = (id: string, query = '') => `/custom/api/v1/shipments/${encodeURIComponent(id)}/label${query}`;
  const get = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
  const SHIPMENT_NOT_FOUND = {
    code: 'shipment_not_found',
    message: 'Shipment not found',
    errors: ['Shipment not found'],
  };

  it('answers a new signed label_url by shipment id or AWB, fresh on each call, that fetches the label after the first expired', async () => {
    const m = await merchant(ctx, 'Fresh Links');
    const booking = await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId));
    ctx.clock.advance(25 * HOUR);
    expect((await fetchLabel(labelPath(booking.label_url!))).statusCode).toBe(410);

    for (const id of [booking.shipment_id, booking.awb_code!]) {
      const response = await get(m.apiKey, LABEL(id));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        shipment_id: booking.shipment_id,
        awb_code: booking.awb_code,
        label_url: await labelUrlNow(ctx, booking.shipment_id),
        expires_at: new Date(ctx.clock.now().getTime() + 24 * HOUR).toISOString(),
      });
      const fresh = await fetchLabel(labelPath(response.json().label_url));
      expect(fresh.statusCode).toBe(200);
      expect(await pdfText(fresh.rawPayload)).toContain(`AWB ${booking.awb_code}`);
    }
    const first = (await get(m.apiKey, LABEL(booking.shipment_id, '?format=json'))).json().label_url;
    ctx.clock.advance(1000);
    const second = (await get(m.apiKey, LABEL(booking.shipment_id))).json().label_url;
    expect(second).not.toBe(first);
    expect(second).toBe(await labelUrlNow(ctx, booking.shipment_id));
  });

  it('answers the PDF itself with format=pdf', async () => {
    const m = await merchant(ctx, 'Direct PDF');
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const response = await get(m.apiKey, LABEL(booking.awb_code!, '?format=pdf'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="label-${booking.awb_code}.pdf"`);
    expect((await pdfText(response.rawPayload)).split('\n')).toContain(`AWB ${booking.awb_code}`);
  });

  it("answers 404 for another account's shipment (by id or AWB), an unknown one, and one with no AWB yet; 410 once cancelled", async () => {
    const owner = await merchant(ctx, 'Owner Co');
    const stranger = await merchant(ctx, 'Stranger Co');
    const booking = await orchestrate(ctx, owner.apiKey, orderBody(owner.warehouseId));
    for (const id of [booking.shipment_id, booking.awb_code!, UNKNOWN_ID, 'SFX0000009999']) {
      for (const query of ['', '?format=pdf']) {
        const response = await get(stranger.apiKey, LABEL(id, query));
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(SHIPMENT_NOT_FOUND);
        expect(response.body).not.toContain('Asha');
      }
    }
    const pending = (await post(ctx, owner.apiKey, FORWARD_ORDER, orderBody(owner.warehouseId))).json()
      .payload as OrderPayload;
    const noAwb = await get(owner.apiKey, LABEL(pending.shipment_id));
    const message = `Shipment ${pending.shipment_id} has no label yet: no courier has given it an AWB`;
    expect(noAwb.statusCode).toBe(404);
    expect(noAwb.json()).toEqual({ code: 'label_not_ready', message, errors: [message] });

    expect((await post(ctx, owner.apiKey, CANCEL, { awbs: [booking.awb_code] })).json().results[0].cancelled).toBe(
      true,
    );
    const voided = `Shipment ${booking.awb_code} was cancelled: its label is void`;
    for (const query of ['', '?format=pdf']) {
      const response = await get(owner.apiKey, LABEL(booking.shipment_id, query));
      expect(response.statusCode).toBe(410);
      expect(response.json()).toEqual({ code: 'label_void', message: voided, errors: [voided] });
    }
  });

  it('needs a credential (401) and refuses an unknown format (400 naming it)', async () => {
    const m = await merchant(ctx, 'Strict Co');
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await ctx.app.inject({ method: 'GET', url: LABEL(booking.shipment_id) })).statusCode).toBe(401);
    const bad = await get(m.apiKey, LABEL(booking.shipment_id, '?format=png'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(['format']);
  });

  it('shows a fresh label_url in the listing, null before an AWB', async () => {
    const m = await merchant(ctx, 'Listing Links');
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const pending = (await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId))).json().payload as OrderPayload;
    ctx.clock.advance(HOUR);
    const listing = await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/shipments',
      headers: authed(m.apiKey),
      payload: {},
    });
    const urls = Object.fromEntries(
      listing
        .json()
        .data.map((s: { id: string; attributes: { label_url: string | null } }) => [s.id, s.attributes.label_url]),
    );
    expect(urls).toEqual({
      [booking.shipment_id]: await labelUrlNow(ctx, booking.shipment_id),
      [pending.shipment_id]: null,
    });
  });
});
