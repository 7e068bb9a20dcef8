import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, ORCHESTRATE, ORDER_TRACKING, post, SHIPMENTS, STORES, V1 } from '../../../test/kit/http.js';
import { exampleOf } from '../../../test/kit/examples.js';
import { book, type Booked, orderBodyFromFields, TRACK_URL } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { png } from '../../../test/kit/uploads.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { EXAMPLE } from '../../http/examples.js';
import { CreateStoreBody } from '../../tenancy/stores/stores.schemas.js';

/** POST /client-stores' documented body: acme-online, Acme Apparel, help@acmeapparel.in, 1800-123-4567, every e-mail on. */
const STORE_EXAMPLE = exampleOf(CreateStoreBody.content['application/json'].schema);

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
let carrierToken: string;
let logoUrl: string;
beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
  const store = await post(ctx, apiKey, STORES, { ...STORE_EXAMPLE, logo: png().toString('base64') });
  logoUrl = store.json().data.logo_url;
});
afterAll(async () => {
  await ctx.close();
});

/** Scans reported 4 hours after the booking (the intake refuses scans from the future), the clock then put back. */
async function scansLater(events: Parameters<typeof sendEvents>[2]) {
  ctx.clock.set(at(240));
  try {
    await sendEvents(ctx, carrierToken, events);
  } finally {
    ctx.clock.set(at(0));
  }
}

const pathOf = (booked: Booked) => new URL(booked.track_url!).pathname;
/** The form's double-submit cookie among those the page sets (a language asked for is remembered too). */
const formCookieOf = (response: { headers: Record<string, unknown> }) =>
  ([response.headers['set-cookie'] ?? []].flat() as string[])
    .find((c) => c.startsWith('dakiya_form='))
    ?.split(';')[0] ?? '';
// English unless a test asks otherwise: the kit's customers are in Maharashtra, whose page is in Marathi.
const page = (booked: Booked, query = '?lang=en', headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `${pathOf(booked)}${query}`, headers });
const json = async (booked: Booked, query = '?lang=en') => {
  const response = await ctx.app.inject({ method: 'GET', url: `${pathOf(booked)}.json${query}` });
  expect(response.statusCode).toBe(200);
  return response.json();
};

async function delivered() {
  const booked = await book(ctx, apiKey, warehouseId, {
    storeName: EXAMPLE.storeName,
    customer: 'Asha',
    lastName: 'Rao',
    phone: '9123456780',
  });
  await scansLater([
    { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(60), location: 'Okhla Hub' },
    { awb: booked.awb_code!, status: 'out_for_delivery', event_time: at(120), location: 'Andheri DC' },
    {
      awb: booked.awb_code!,
      status: 'delivered',
      event_time: at(180),
      location: 'Andheri DC',
      description: 'Delivered to Asha',
    },
  ]);
  return booked;
}

async function failedDelivery() {
  const booked = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName });
  await sendEvents(ctx, carrierToken, [
    { awb: booked.awb_code!, status: 'in_transit', event_time: at(1), location: 'Okhla Hub' },
    {
      awb: booked.awb_code!,
      status: 'ndr_raised',
      ndr_reason: 'customer_unavailable',
      event_time: at(2),
      location: 'Andheri DC',
    },
  ]);
  return booked;
}

describe('track_url', () => {
  it('is the same link in the booking answer, order-tracking and the listing, random per shipment, never the AWB or an id', async () => {
    const a = await book(ctx, apiKey, warehouseId);
    const b = await book(ctx, apiKey, warehouseId);
    expect(a.track_url).toMatch(TRACK_URL);
    expect(a.track_url).not.toBe(b.track_url);
    const token = pathOf(a).slice(3);
    for (const id of [a.awb_code!, a.shipment_id, a.order_id, a.channel_order_id]) expect(token).not.toContain(id);
    const tracked = (await post(ctx, apiKey, ORDER_TRACKING, { awbs: [a.awb_code] })).json().result[a.awb_code!]
      .tracking_data;
    expect(tracked.track_url).toBe(a.track_url);
    const listed = (await post(ctx, apiKey, SHIPMENTS, { search: a.awb_code })).json().data[0].attributes;
    expect(listed.track_url).toBe(a.track_url);
    expect((await json(a)).track_url).toBe(a.track_url);
  });

  it('is null until a courier is booked', async () => {
    const pending = await book(ctx, apiKey, warehouseId, {}, false);
    expect(pending.track_url).toBeNull();
  });
});

describe('GET /t/:token.json', () => {
  it('answers what the page shows: brand, status in words, promised date, courier, support, first name and city, journey newest first', async () => {
    const booked = await delivered();
    expect(await json(booked)).toEqual({
      kind: 'shipment',
      language: 'en',
      track_url: booked.track_url,
      brand: { name: 'Acme Apparel', logo_url: logoUrl },
      status: 'delivered',
      status_text: 'Delivered',
      status_detail: 'Your parcel has been delivered. Enjoy!',
      promised_delivery_date: '2026-11-25',
      delivered_at: at(180),
      customer: { first_name: 'Asha', city: 'Mumbai' },
      courier: { name: 'Shadowfax Standard', awb: booked.awb_code },
      test_mode: false,
      support: { email: 'help@acmeapparel.in', phone: '1800-123-4567' },
      timeline: [
        {
          at: at(180),
          at_india: '20 Nov 2026, 3:00 pm',
          status: 'delivered',
          text: 'Delivered',
          location: 'Andheri DC',
        },
        {
          at: at(120),
          at_india: '20 Nov 2026, 2:00 pm',
          status: 'out_for_delivery',
          text: 'Out for delivery',
          location: 'Andheri DC',
        },
        {
          at: at(60),
          at_india: '20 Nov 2026, 1:00 pm',
          status: 'in_transit',
          text: 'On its way',
          location: 'Okhla Hub',
        },
        { at: at(0), at_india: '20 Nov 2026, 12:00 pm', status: 'shipped', text: 'Courier booked', location: null },
        { at: at(0), at_india: '20 Nov 2026, 12:00 pm', status: 'order_placed', text: 'Order placed', location: null },
      ],
      reattempt: { available: false, dates: [], requested: false, requested_date: null },
    });
  });

  it('speaks Hindi with ?lang=hi', async () => {
    const booked = await delivered();
    const body = await json(booked, '?lang=hi');
    expect(body).toMatchObject({ language: 'hi', status_text: 'डिलीवर हो गया' });
    // The time of day in Hindi's own words, not a Latin "pm".
    expect(body.timeline[0]).toMatchObject({ text: 'डिलीवर हो गया', at_india: '20 नव॰ 2026, दोपहर 3:00' });
  });

  it('names the account when the shipment has no store, and shows no logo or contact', async () => {
    const booked = await book(ctx, apiKey, warehouseId);
    expect(await json(booked)).toMatchObject({
      brand: { name: 'Acme Retail', logo_url: null },
      support: { email: null, phone: null },
      status: 'pending',
      status_text: 'Order confirmed',
      // Booked is not picked up: the journey and the headline say the same thing.
      status_detail: 'Your order is being packed. The courier will pick it up soon.',
      timeline: [
        expect.objectContaining({ status: 'shipped', text: 'Courier booked' }),
        expect.objectContaining({ status: 'order_placed', text: 'Order placed' }),
      ],
    });
  });

  it('answers 404 in the error envelope, as JSON, for a link that names no shipment: unknown, malformed, a line break', async () => {
    // The documented example's token is well formed and names no shipment here; the others are
    // malformed, and a line break (escaped or raw CR LF) makes the path one no route expects.
    for (const token of [EXAMPLE.trackToken, 'nope', 'a%0Ab', 'q2Xn8V0bTgK4mYc1Pz7wAa%0D%0A', '%20', 'a.json', 'r00']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/t/${token}.json`,
        headers: { 'accept-language': 'hi' },
      });
      expect(response.statusCode, token).toBe(404);
      expect(response.headers['content-type'], token).toBe('application/json; charset=utf-8');
      expect(response.json(), token).toEqual({
        code: 'tracking_link_not_found',
        message: 'Tracking link not found',
        errors: ['Tracking link not found'],
      });
    }
  });
});

describe('GET /t/:token (HTML)', () => {
  it('renders the brand, logo, status, promised date, courier, AWB, journey and support, and nothing private', async () => {
    const booked = await book(ctx, apiKey, warehouseId, {
      storeName: EXAMPLE.storeName,
      customer: 'Asha',
      lastName: 'Rao',
      phone: '9123456780',
    });
    await scansLater([{ awb: booked.awb_code!, status: 'in_transit', event_time: at(60), location: 'Okhla Hub' }]);
    const response = await page(booked);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const html = response.body;
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toContain('<h1>Acme Apparel</h1>');
    expect(html).toContain(
      `<img src="${new URL(logoUrl).pathname}${new URL(logoUrl).search}" alt="Acme Apparel logo">`,
    );
    expect(html).toContain('On its way</h2>');
    expect(html).toContain('Hello Asha · Delivering to Mumbai');
    expect(html).toContain('<dt>Expected delivery</dt><dd>Wednesday, 25 November</dd>');
    expect(html).toContain(
      `<dd>Shadowfax Standard</dd><dt>Tracking number (AWB)</dt><dd class="awb" translate="no">${booked.awb_code}</dd>`,
    );
    expect(html).toContain('<a href="mailto:help@acmeapparel.in">help@acmeapparel.in</a>');
    expect(html).toContain('<a href="tel:18001234567">1800-123-4567</a>');
    expect(html.indexOf('On its way</strong>')).toBeLessThan(html.indexOf('Order placed</strong>'));
    for (const secret of ['9123456780', 'Marine Drive', 'Rao', '400001', 'asha@example.com', booked.shipment_id])
      expect(html).not.toContain(secret);
    expect(html).not.toContain('<script');
    // No form, so no form cookie: only the language asked for (?lang=en), remembered.
    expect(response.headers['set-cookie']).toEqual([
      'dakiya_lang=en; Path=/t; Max-Age=31536000; HttpOnly; SameSite=Lax',
      'dakiya_lang=en; Path=/track; Max-Age=31536000; HttpOnly; SameSite=Lax',
    ]);
    expect((await page(booked, '')).headers['set-cookie']).toBeUndefined();
  });

  it("is in the buyer's chosen language, else the browser's among ours, else the shipping state's", async () => {
    const booked = await delivered();
    for (const [query, header, cookie, lang] of [
      ['', '', '', 'mr'],
      ['', 'en-US,en;q=0.9', '', 'en'],
      ['', 'en-IN', '', 'en'],
      ['', 'fr-FR, en;q=0.1', '', 'en'],
      ['', 'fr-FR, de;q=0.5', '', 'mr'],
      ['', '*', '', 'mr'],
      ['?lang=xx', '', '', 'mr'],
      ['?lang=hi', '', '', 'hi'],
      ['', 'hi-IN,hi;q=0.9,en;q=0.8', '', 'hi'],
      ['', 'en-GB;q=0.5, hi;q=0.7', '', 'hi'],
      ['', 'ta-IN', '', 'ta'],
      ['?lang=en', 'hi', '', 'en'],
      ['?lang=ta', 'hi', 'gu', 'ta'],
      ['?lang=ml', '', '', 'ml'],
      ['', 'hi', 'gu', 'gu'],
      ['', '', 'xx', 'mr'],
      ['?lang=xx', 'ta', 'gu', 'gu'],
    ] as const) {
      const headers = {
        ...(header && { 'accept-language': header }),
        ...(cookie && { cookie: `dakiya_lang=${cookie}` }),
      };
      const response = await page(booked, query, headers);
      expect(response.body, `${query} ${header} ${cookie}`).toContain(`<html lang="${lang}">`);
    }
    const hindi = (await page(booked, '?lang=hi')).body;
    expect(hindi).toContain('डिलीवर हो गया</h2>');
    expect(hindi).toContain('नमस्ते Asha');
    expect(hindi).toContain(`<a href="${pathOf(booked)}?lang=en" hreflang="en" lang="en">English</a>`);
    expect(hindi).toContain(
      `<a href="${pathOf(booked)}?lang=ta" hreflang="ta" lang="ta">தமிழ் <span lang="en">(Tamil)</span></a>`,
    );
    expect(hindi).not.toContain('?lang=hi"');
    // The shipping state's language is the first link, then English.
    expect(/<nav aria-label="भाषा"><a href="([^"]+)" hreflang="(\w+)"/.exec(hindi)?.slice(1)).toEqual([
      `${pathOf(booked)}?lang=mr`,
      'mr',
    ]);
    // A customer in Kerala reads Malayalam first; a Hindi browser still gets Hindi.
    const kochi = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName, to: 'kochi' });
    expect((await page(kochi, '')).body).toContain('<html lang="ml">');
    expect((await json(kochi, '')).status_text).toBe('ഓർഡർ സ്ഥിരീകരിച്ചു');
    expect((await page(kochi, '', { 'accept-language': 'hi' })).body).toContain('<html lang="hi">');
  });

  it("speaks the order's language over the store's and the browser's: set at booking, changed by PUT /order", async () => {
    const store = await post(ctx, apiKey, STORES, { store_name: 'acme-lang', brand_name: 'Acme Lang', language: 'hi' });
    expect(store.statusCode, store.body).toBe(201);
    const body = orderBodyFromFields(warehouseId, { storeName: 'acme-lang', carrierId: SHADOWFAX });
    const ordered = await post(ctx, apiKey, ORCHESTRATE, { ...body, language: 'gu' });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const booked: Booked = ordered.json().payload;
    const plain = await book(ctx, apiKey, warehouseId, { storeName: 'acme-lang' });
    const languageOf = async (shipment: Booked, headers: Record<string, string> = {}) =>
      /<html lang="(\w+)">/.exec((await page(shipment, '', headers)).body)?.[1];
    const browser = { 'accept-language': 'ta-IN,en;q=0.5' };
    expect(await languageOf(booked, browser)).toBe('gu');
    expect(await languageOf(plain, browser)).toBe('hi');
    expect(await languageOf(booked, { ...browser, cookie: 'dakiya_lang=kn' })).toBe('kn');
    expect((await json(booked, '')).language).toBe('gu');
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: `${V1}/order`,
      headers: authed(apiKey),
      payload: { order_id: body.order_id, language: 'bn' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await languageOf(booked, browser)).toBe('bn');
    // The store's language set aside, the browser's speaks.
    await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.json().data.id}`,
      headers: authed(apiKey),
      payload: { language: null },
    });
    expect(await languageOf(plain, browser)).toBe('ta');
  });

  it("serves its script's Noto font from this server, cached for a year; an English page loads none", async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName });
    const tamil = await page(booked, '?lang=ta');
    expect(tamil.headers['content-security-policy']).toContain("font-src 'self'");
    const urls = [...tamil.body.matchAll(/src:url\((\/public\/v1\/fonts\/[^)]+)\)/g)].map((m) => m[1]!);
    expect(urls).toEqual([
      expect.stringMatching(/^\/public\/v1\/fonts\/noto-sans-tamil-400\.[0-9a-f]{16}\.ttf$/),
      expect.stringMatching(/-700\.[0-9a-f]{16}\.ttf$/),
    ]);
    expect(tamil.body).toContain('font-display:swap;unicode-range:U+0B80-0BFF');
    expect((await page(booked)).body).not.toContain('@font-face');
    const plain = await ctx.app.inject({ method: 'GET', url: urls[0]! });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers).toMatchObject({
      'content-type': 'font/ttf',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0]));
    const gzipped = await ctx.app.inject({
      method: 'GET',
      url: urls[0]!,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload)).toEqual(plain.rawPayload);
    for (const name of ['noto-sans-tamil-400.ttf', '..%2Fpackage.json', `${urls[0]!.slice(18, -4)}.woff2`]) {
      const missing = await ctx.app.inject({ method: 'GET', url: `/public/v1/fonts/${name}` });
      expect(missing.statusCode, name).toBe(404);
      expect(missing.json()).toEqual({
        code: 'page_font_not_found',
        message: 'Font not found',
        errors: ['Font not found'],
      });
    }
  });

  it('says a cancelled shipment is cancelled, with no promised date', async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName });
    expect((await post(ctx, apiKey, CANCEL, { awbs: [booked.awb_code] })).json().results[0].cancelled).toBe(true);
    const html = (await page(booked)).body;
    expect(html).toContain('Cancelled</h2>');
    expect(html).toContain('This shipment was cancelled and will not be delivered.');
    expect(html).not.toContain('Expected delivery');
    expect((await json(booked)).promised_delivery_date).toBeNull();
  });

  it('promises no delivery date for a parcel lost, damaged or on its way back, on the page and in its JSON', async () => {
    const scanned = async (last: Parameters<typeof sendEvents>[2][number]) => {
      const booked = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName });
      await scansLater([
        { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(60) },
        { ...last, awb: booked.awb_code! },
      ]);
      // The booking's promise stays on the record the API answers: only what people read drops it.
      const listed = (await post(ctx, apiKey, SHIPMENTS, { search: booked.awb_code })).json().data[0].attributes;
      expect(listed.expected_delivery_date).toBe('2026-11-25');
      return booked;
    };
    const cases = [
      [await scanned({ awb: '', status: 'others', sub_status: 'lost', event_time: at(120) }), 'others'],
      [await scanned({ awb: '', status: 'others', sub_status: 'damaged', event_time: at(120) }), 'others'],
      [await scanned({ awb: '', status: 'rto_initiated', event_time: at(120) }), 'rto_initiated'],
    ] as const;
    for (const [booked, status] of cases) {
      const view = await json(booked);
      expect([view.status, view.promised_delivery_date], status).toEqual([status, null]);
      const html = (await page(booked)).body;
      expect(html, status).not.toContain('Expected delivery');
      expect(html, status).not.toContain('25 November');
    }
    // Still on its way, the same booking's promise is shown.
    const moving = await book(ctx, apiKey, warehouseId, { storeName: EXAMPLE.storeName });
    await scansLater([{ awb: moving.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(60) }]);
    expect((await json(moving)).promised_delivery_date).toBe('2026-11-25');
  });

  it('answers an unknown or malformed link with a 404 page that names no brand', async () => {
    for (const token of [EXAMPLE.trackToken, 'x', 'SFX0000000001']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/t/${token}`,
        headers: { 'accept-language': 'hi' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<html lang="hi">');
      expect(response.body).toContain('<h1>ट्रैकिंग लिंक नहीं मिला</h1>');
      expect(response.body).not.toContain('Acme');
    }
  });

  it('escapes what merchants and couriers wrote', async () => {
    const { apiKey: other } = await ctx.createAccount('<b>Evil</b> & Co');
    const wh = await createCityWarehouse(ctx, other);
    const booked = await book(ctx, other, wh, { customer: '<script>alert(1)</script>' });
    await sendEvents(ctx, carrierToken, [
      { awb: booked.awb_code!, status: 'in_transit', event_time: at(5), location: '"><img src=x onerror=alert(1)>' },
    ]);
    const html = (await page(booked)).body;
    expect(html).toContain('<h1>&lt;b&gt;Evil&lt;/b&gt; &amp; Co</h1>');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
  });
});

/** The page's form: its hidden field, its cookie, and a post of it. */
async function openForm(booked: Booked) {
  const response = await page(booked);
  const csrf = /name="csrf" value="([^"]+)"/.exec(response.body)?.[1];
  return { response, csrf, cookie: formCookieOf(response) };
}
const submit = (booked: Booked, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `${pathOf(booked)}/reattempt?lang=en`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
const actionsOf = async (booked: Booked) =>
  (await post(ctx, apiKey, ORDER_TRACKING, { awbs: [booked.awb_code] })).json().result[booked.awb_code!].tracking_data
    .ndr_actions;

describe('the customer asks for another attempt after a failed delivery', () => {
  it('offers the next 3 working days, records the merchant NDR action as asked by the customer, once per attempt', async () => {
    const booked = await failedDelivery();
    const { response, csrf, cookie } = await openForm(booked);
    expect(response.body).toContain('Ask for another delivery attempt</h2>');
    expect(response.body).toContain(
      '<p>The courier could not deliver your parcel. You can ask for another attempt below.</p>',
    );
    expect((await json(booked)).reattempt).toEqual({
      available: true,
      dates: ['2026-11-21', '2026-11-23', '2026-11-25'],
      requested: false,
      requested_date: null,
    });
    expect(response.headers['set-cookie']).toEqual([
      'dakiya_lang=en; Path=/t; Max-Age=31536000; HttpOnly; SameSite=Lax',
      'dakiya_lang=en; Path=/track; Max-Age=31536000; HttpOnly; SameSite=Lax',
      expect.stringMatching(
        /^dakiya_form=[A-Za-z0-9_-]{22}; Path=\/t\/[A-Za-z0-9_-]{22}; Max-Age=7200; HttpOnly; SameSite=Strict$/,
      ),
    ]);
    const sent = await submit(
      booked,
      { csrf: csrf!, reattempt_date: '2026-11-23', landmark: 'Opposite Sundance Cafe', phone: '98765 43210' },
      { cookie },
    );
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${pathOf(booked)}?lang=en`);
    expect(await actionsOf(booked)).toEqual([
      expect.objectContaining({
        action: 'reattempt',
        requested_by: 'customer',
        details: {
          reattempt_date: '2026-11-23',
          updated_address: { landmark: 'Opposite Sundance Cafe' },
          updated_phone_number: '+919876543210',
        },
      }),
    ]);
    const after = await page(booked);
    expect(after.body).toContain('Another attempt is requested for Monday, 23 November.');
    expect(after.body).not.toContain('<form');
    // Once asked, the headline no longer offers what is done.
    expect(after.body).toContain('<p>The courier could not deliver your parcel.</p>');
    expect(after.body).not.toContain('You can ask for another attempt');
    expect((await json(booked)).status_detail).toBe('The courier could not deliver your parcel.');
    // The same form sent again (a double click, a reload) is refused: one reattempt per failed delivery.
    const again = await submit(booked, { csrf: csrf!, reattempt_date: '2026-11-25' }, { cookie });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('A reattempt is already requested for this failed delivery');
    expect(await actionsOf(booked)).toHaveLength(1);
  });

  it.each([
    ['no cookie', (f: { csrf: string; cookie: string }) => ({ fields: { csrf: f.csrf }, headers: {} })],
    [
      'another nonce in the cookie',
      (f: { csrf: string; cookie: string }) => ({
        fields: { csrf: f.csrf },
        headers: { cookie: 'dakiya_form=AAAAAAAAAAAAAAAAAAAAAA' },
      }),
    ],
    [
      'a tampered field',
      (f: { csrf: string; cookie: string }) => ({
        fields: { csrf: `${f.csrf.slice(0, -2)}xx` },
        headers: { cookie: f.cookie },
      }),
    ],
    [
      'another site as Origin',
      (f: { csrf: string; cookie: string }) => ({
        fields: { csrf: f.csrf },
        headers: { cookie: f.cookie, origin: 'https://evil.example' },
      }),
    ],
    [
      'Origin null',
      (f: { csrf: string; cookie: string }) => ({
        fields: { csrf: f.csrf },
        headers: { cookie: f.cookie, origin: 'null' },
      }),
    ],
    [
      'a cross-site fetch',
      (f: { csrf: string; cookie: string }) => ({
        fields: { csrf: f.csrf },
        headers: { cookie: f.cookie, 'sec-fetch-site': 'cross-site' },
      }),
    ],
  ])('refuses a forged post (%s) with 403, recording nothing', async (_label, forge) => {
    const booked = await failedDelivery();
    const { csrf, cookie } = await openForm(booked);
    const { fields, headers } = forge({ csrf: csrf!, cookie });
    const response = await submit(booked, { ...fields, reattempt_date: '2026-11-23' }, headers);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('This form has expired. Please send it again.');
    expect(await actionsOf(booked)).toEqual([]);
  });

  it("refuses another shipment's form, and a form past its 2 hours", async () => {
    const mine = await failedDelivery();
    const other = await failedDelivery();
    const form = await openForm(other);
    expect(
      (await submit(mine, { csrf: form.csrf!, reattempt_date: '2026-11-23' }, { cookie: form.cookie })).statusCode,
    ).toBe(403);
    const stale = await openForm(mine);
    ctx.clock.advance(2 * 60 * 60 * 1000 + 1000);
    try {
      expect(
        (await submit(mine, { csrf: stale.csrf!, reattempt_date: '2026-11-23' }, { cookie: stale.cookie })).statusCode,
      ).toBe(403);
    } finally {
      ctx.clock.set('2026-11-20T06:30:00.000Z');
    }
    expect(await actionsOf(mine)).toEqual([]);
  });

  it.each([
    [{ phone: '12345' }, 400, 'The phone number must be a 10-digit Indian mobile number'],
    [{ reattempt_date: '' }, 400, 'Choose a delivery day'],
    [
      { reattempt_date: '2026-11-22' },
      422,
      'reattempt_date must be one of the next 3 working days: 2026-11-21, 2026-11-23, 2026-11-25',
    ],
  ])('shows the form again with the problem for %j, recording nothing', async (fields, status, message) => {
    const booked = await failedDelivery();
    const { csrf, cookie } = await openForm(booked);
    const response = await submit(booked, { csrf: csrf!, reattempt_date: '2026-11-23', ...fields }, { cookie });
    expect(response.statusCode).toBe(status);
    expect(response.body).toContain(`<p class="error" role="alert">${message}</p>`);
    expect(response.body).toContain('<form method="post"');
    expect(await actionsOf(booked)).toEqual([]);
  });

  it('offers no form on a shipment that has not failed a delivery, and refuses a post there', async () => {
    const booked = await delivered();
    const { response, csrf } = await openForm(booked);
    expect(csrf).toBeUndefined();
    expect(response.body).not.toContain('<form');
    const refused = await submit(booked, { csrf: 'x', reattempt_date: '2026-11-23' });
    expect(refused.statusCode).toBe(403);
    expect(await actionsOf(booked)).toEqual([]);
  });

  it('answers a post to an unknown link with the 404 page', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/t/${EXAMPLE.trackToken}/reattempt`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'csrf=x&reattempt_date=2026-11-23',
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Tracking link not found');
  });
});
