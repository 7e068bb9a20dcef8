import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, ORDER_TRACKING, post, STORES } from '../../../test/kit/http.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { png } from '../../../test/kit/uploads.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { PAGE_HEADERS } from './page-http.js';

// The store's tracking page, /track/<store_id>: a buyer's AWB, or order id and phone, leads to
// that shipment's page only when the shipment is this store's; anything else gets one answer.

const LIMIT = 5;
let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
let storeId: string;
let logoUrl: string;
/** Another store of the same account, and another account's store. */
let sibling: string;
let stranger: { apiKey: string; warehouseId: string };
let booked: Booked;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { trackingPage: { ratePerMinute: LIMIT } } });
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  const store = await createStore(ctx, apiKey, {
    store_name: 'acme-apparel',
    brand_name: 'Acme Apparel',
    logo: png().toString('base64'),
    support_phone: '1800-123-4567',
  });
  storeId = store.id;
  logoUrl = store.logo_url!;
  sibling = (await createStore(ctx, apiKey, { store_name: 'acme-home', brand_name: 'Acme Home' })).id;
  const other = await ctx.createAccount('Other Retail');
  stranger = { apiKey: other.apiKey, warehouseId: await createCityWarehouse(ctx, other.apiKey) };
  await createStore(ctx, other.apiKey, { store_name: 'acme-apparel', brand_name: 'Acme Apparel' });
  booked = await book(ctx, apiKey, warehouseId, {
    storeName: 'acme-apparel',
    orderId: 'ACME-1001',
    phone: '9123456780',
  });
});
afterAll(async () => {
  await ctx.close();
});

// Each request from its own address, so only the rate limit's test spends one address's budget.
let addresses = 0;
const nextAddress = () => `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}`;
const get = (url: string, headers: Record<string, string> = {}, remoteAddress = nextAddress()) =>
  ctx.app.inject({ method: 'GET', url, headers, remoteAddress });
const track = (query: Record<string, string>, store = storeId, headers: Record<string, string> = {}) =>
  get(`/track/${store}?${new URLSearchParams(query)}`, headers);
const pathOf = (shipment: Booked) => new URL(shipment.track_url!).pathname;
/** The page's alert: the one message a refusal shows. */
const alertOf = (body: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(body)?.[1];
const problemsOf = (body: string) =>
  [...body.matchAll(/<li class="error"><a href="#([a-z_]+)">([^<]*)<\/a><\/li>/g)].map((m) => [m[1], m[2]]);
const NOT_FOUND =
  'We could not find a Acme Apparel shipment with these details. Check them against your order confirmation and try again; a parcel shows here once the courier is booked.';

describe('tracking_page_url on the store answers', () => {
  it('names the store page on POST, GET and PUT /client-stores, and the page answers', async () => {
    const url = `${PUBLIC_BASE_URL}/track/${storeId}`;
    const one = await ctx.app.inject({ method: 'GET', url: `${STORES}/${storeId}`, headers: authed(apiKey) });
    expect(one.json().data.tracking_page_url).toBe(url);
    const listed = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) });
    const pages = listed.json().data.map((s: { id: string; tracking_page_url: string }) => [s.id, s.tracking_page_url]);
    expect(Object.fromEntries(pages)).toEqual({ [storeId]: url, [sibling]: `${PUBLIC_BASE_URL}/track/${sibling}` });
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${storeId}`,
      headers: authed(apiKey),
      payload: { support_email: 'help@acmeapparel.in' },
    });
    expect(updated.json().data.tracking_page_url).toBe(url);
    expect((await get(new URL(url).pathname)).statusCode).toBe(200);
  });
});

describe('GET /track/:store_id', () => {
  it("shows the store's brand, logo, support contact and both forms, under the tracking page's headers", async () => {
    const response = await get(`/track/${storeId}`);
    expect(response.statusCode).toBe(200);
    for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(response.headers[name]).toBe(value);
    const body = response.body;
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('<title>Acme Apparel: Track your order</title>');
    expect(body).toContain(
      `<img src="${new URL(logoUrl).pathname}${new URL(logoUrl).search}" alt="Acme Apparel logo"><h1>Acme Apparel</h1>`,
    );
    expect(body).toContain(
      `<form method="get" action="/track/${storeId}" aria-labelledby="by-awb" novalidate><label for="awb">AWB (tracking number)</label>`,
    );
    expect(body).toContain('<label for="order_id">Order number</label>');
    expect(body).toContain('<label for="phone">Phone number on the order</label>');
    expect(body).toContain('<a href="tel:18001234567">1800-123-4567</a>');
    // Every other language one tap away at the top: English first (a store has no shipping state).
    expect(body).toContain(
      `<nav aria-label="Language"><a href="/track/${storeId}?lang=hi" hreflang="hi" lang="hi">हिन्दी <span lang="en">(Hindi)</span></a>`,
    );
    expect(body).not.toContain('<script');
  });

  it("shows an AWB of the store's shipment read-only, and takes it with the order's whole phone to its page", async () => {
    const found = await track({ awb: booked.awb_code! }, storeId, { 'accept-language': 'en-IN' });
    expect(found.statusCode).toBe(200);
    expect(found.headers.location).toBeUndefined();
    expect(found.body).toContain('<h2 id="status" class="status ">Order confirmed</h2>');
    expect(found.body).toContain(`<dd class="awb" translate="no">${booked.awb_code}</dd>`);
    expect(found.body).not.toContain(new URL(booked.track_url!).pathname.slice(3));
    // With the order's phone, shipping or billing, any usual way: the shipment's own page.
    for (const phone of ['9123456780', '+91 91234 56780']) {
      const opened = await track({ awb: ` ${booked.awb_code!} `, phone });
      expect(opened.statusCode, phone).toBe(303);
      expect(opened.headers.location).toBe(pathOf(booked));
      expect(opened.headers['cache-control']).toBe('no-store');
      expect(opened.body).toBe('');
    }
    // The language chosen on this page rides along.
    const hindi = await track({ lang: 'hi', awb: booked.awb_code!, phone: '9123456780' });
    expect(hindi.headers.location).toBe(`${pathOf(booked)}?lang=hi`);
    const page = await get(hindi.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="hi">');
  });

  it('takes an order id with the phone on the order, written any usual way, to its page', async () => {
    for (const phone of ['9123456780', '+91 91234 56780', '091234-56780']) {
      const found = await track({ order_id: 'ACME-1001', phone });
      expect(found.statusCode, phone).toBe(303);
      expect(found.headers.location).toBe(pathOf(booked));
    }
  });

  it('refuses a wrong phone, an unknown order id and an order not yet booked with the one not-found answer', async () => {
    const pending = await book(
      ctx,
      apiKey,
      warehouseId,
      { storeName: 'acme-apparel', orderId: 'ACME-PENDING', phone: '9123456780' },
      false,
    );
    expect(pending.awb_code).toBeNull();
    const answers = await Promise.all([
      track({ order_id: 'ACME-1001', phone: '9876543210' }),
      track({ order_id: 'ACME-9999', phone: '9123456780' }),
      track({ order_id: 'ACME-PENDING', phone: '9123456780' }),
      track({ order_id: 'acme-1001', phone: '9123456780' }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(alertOf(answer.body)).toBe(NOT_FOUND);
    }
    // What was typed stays in the form, to be corrected.
    expect(answers[0]!.body).toContain(
      'id="order_id" name="order_id" maxlength="100" autocomplete="off" required aria-describedby="order_id-hint" value="ACME-1001"',
    );
  });

  it("answers another account's AWB, and another store's of the same account, exactly as an unknown AWB", async () => {
    const theirs = await book(ctx, stranger.apiKey, stranger.warehouseId, {
      storeName: 'acme-apparel',
      orderId: 'ACME-2002',
      phone: '9123456780',
    });
    const siblings = await book(ctx, apiKey, warehouseId, {
      storeName: 'acme-home',
      orderId: 'HOME-3003',
      phone: '9123456780',
    });
    const unknown = await track({ awb: 'SFX9999999999' });
    expect(unknown.statusCode).toBe(404);
    expect(alertOf(unknown.body)).toBe(NOT_FOUND);
    const refusals = [
      [await track({ awb: theirs.awb_code! }), 'SFX9999999999', theirs.awb_code!],
      [await track({ awb: siblings.awb_code! }), 'SFX9999999999', siblings.awb_code!],
    ] as const;
    for (const [answer, unknownAwb, awb] of refusals) {
      expect(answer.statusCode).toBe(404);
      // The same page but for the AWB typed back into the field.
      expect(answer.body.replace(awb, unknownAwb)).toBe(unknown.body);
    }
    const byOrder = [
      await track({ order_id: 'ACME-2002', phone: '9123456780' }),
      await track({ order_id: 'HOME-3003', phone: '9123456780' }),
    ];
    for (const answer of byOrder) {
      expect(answer.statusCode).toBe(404);
      expect(alertOf(answer.body)).toBe(NOT_FOUND);
    }
    // Each is found from its own store's page, read-only, and opened there with its phone.
    expect((await track({ awb: siblings.awb_code! }, sibling)).statusCode).toBe(200);
    expect((await track({ awb: siblings.awb_code!, phone: '9123456780' }, sibling)).headers.location).toBe(
      pathOf(siblings),
    );
    // Another store's AWB with its right phone is still not this store's.
    const withPhone = await track({ awb: siblings.awb_code!, phone: '9123456780' });
    expect(withPhone.statusCode).toBe(404);
    expect(withPhone.body.replace(siblings.awb_code!, 'SFX9999999999')).toBe(
      (await track({ awb: 'SFX9999999999', phone: '9123456780' })).body,
    );
  });

  it('names each bad field beside it: empty, too long, last 4 digits only, characters no AWB or order id has; never a 500', async () => {
    const cases: [Record<string, string>, [string, string][]][] = [
      [{ awb: '' }, [['awb', 'AWB (tracking number): please fill this in']]],
      [{ awb: '   ' }, [['awb', 'AWB (tracking number): please fill this in']]],
      [{ awb: 'A'.repeat(41) }, [['awb', 'AWB (tracking number): only letters, digits and hyphens, at most 40']]],
      [{ awb: "SFX' OR 1=1 --" }, [['awb', 'AWB (tracking number): only letters, digits and hyphens, at most 40']]],
      [
        { awb: '<script>alert(1)</script>' },
        [['awb', 'AWB (tracking number): only letters, digits and hyphens, at most 40']],
      ],
      [
        { order_id: '', phone: '' },
        [
          ['order_id', 'Order number: please fill this in'],
          ['phone', 'Phone number on the order: please fill this in'],
        ],
      ],
      [{ order_id: 'ACME-1001' }, [['phone', 'Phone number on the order: please fill this in']]],
      [{ phone: '9123456780' }, [['order_id', 'Order number: please fill this in']]],
      [
        { order_id: 'ACME-1001', phone: '6780' },
        [['phone', 'Phone number on the order: please give a 10-digit Indian phone number']],
      ],
      [
        { order_id: 'ACME-1001', phone: '91234 5678O' },
        [['phone', 'Phone number on the order: please give a 10-digit Indian phone number']],
      ],
      [
        { order_id: 'X'.repeat(101), phone: '9123456780' },
        [['order_id', 'Order number: at most 100 characters on one line']],
      ],
      [
        { order_id: 'ACME\n1001', phone: '12' },
        [
          ['order_id', 'Order number: at most 100 characters on one line'],
          ['phone', 'Phone number on the order: please give a 10-digit Indian phone number'],
        ],
      ],
    ];
    for (const [query, problems] of cases) {
      const response = await track(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.headers['content-security-policy']).toBe(PAGE_HEADERS['content-security-policy']);
      expect(problemsOf(response.body), JSON.stringify(query)).toEqual(problems);
      for (const [field] of problems)
        expect(response.body).toContain(`aria-invalid="true" aria-describedby="${field}-error ${field}-hint"`);
    }
    // What was typed is shown back as text, never markup.
    expect((await track({ awb: '<script>alert(1)</script>' })).body).toContain(
      'value="&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    // Emoji and other scripts are well-formed order ids: looked up, not found.
    const odd = await track({ order_id: 'ऑर्डर-📦-१', phone: '9123456780' });
    expect(odd.statusCode).toBe(404);
    expect(alertOf(odd.body)).toBe(NOT_FOUND);
  });

  it('refuses what no form sends as the server does everywhere: a 4xx naming the parameter, never a 500', async () => {
    const refusal = (message: string, field: string) => ({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field, message }],
    });
    const long = await get(`/track/${storeId}?awb=${'A'.repeat(2001)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual(refusal('awb must be at most 2000 characters long', 'awb'));
    const twice = await get(`/track/${storeId}?awb=A1&awb=B2`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual(refusal('awb must be of type string', 'awb'));
    // PostgreSQL cannot hold a NUL in text: the server refuses one in any parameter before a route runs.
    for (const [url, field] of [
      [`/track/${storeId}?awb=SFX%00123`, 'awb'],
      [`/track/${storeId}?order_id=A%001&phone=9123456780`, 'order_id'],
      ['/track/%00', 'store_id'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual(
        refusal(`${field} must not contain NUL characters or unpaired UTF-16 surrogates`, field),
      );
    }
    expect((await get(`/track/${'x'.repeat(300)}`)).statusCode).toBe(414);
  });

  it('answers 404 with a page naming no brand for an unknown, malformed or disconnected store, and again once restored', async () => {
    const unknown = await get('/track/00000000-0000-4000-8000-000000000000');
    const malformed = await Promise.all(
      ['not-a-uuid', `${storeId}x`, '%3Cb%3E', 'x'.repeat(99)].map((id) => get(`/track/${id}`)),
    );
    for (const response of [unknown, ...malformed]) {
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-security-policy']).toBe(PAGE_HEADERS['content-security-policy']);
      expect(response.body).toBe(unknown.body);
    }
    expect(unknown.body).toContain('<h1>Tracking link not found</h1>');
    expect(unknown.body).not.toContain('Acme');

    const store = await createStore(ctx, apiKey, { store_name: 'acme-closing', brand_name: 'Acme Closing' });
    await book(ctx, apiKey, warehouseId, { storeName: 'acme-closing', orderId: 'CLOSE-1', phone: '9123456780' });
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `${STORES}/${store.id}`, headers: authed(apiKey) })).statusCode,
    ).toBe(200);
    const closed = [
      await get(`/track/${store.id}`),
      await track({ order_id: 'CLOSE-1', phone: '9123456780' }, store.id),
    ];
    for (const response of closed) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(unknown.body);
    }
    await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      headers: authed(apiKey),
      payload: { status: 'connected' },
    });
    expect((await track({ order_id: 'CLOSE-1', phone: '9123456780' }, store.id)).statusCode).toBe(303);
  });

  it('speaks Hindi when asked by ?lang=hi or by the browser, errors and all', async () => {
    const asked = await get(`/track/${storeId}?lang=hi`);
    expect(asked.body).toContain('<html lang="hi">');
    expect(asked.body).toContain('<title>Acme Apparel: अपना ऑर्डर ट्रैक करें</title>');
    expect(asked.body).toContain('<label for="awb">AWB (ट्रैकिंग नंबर)</label>');
    // The chosen language is a hidden field of each form, so the answer stays in it.
    expect(asked.body.match(/<input type="hidden" name="lang" value="hi">/g)).toHaveLength(2);
    expect(asked.body).toContain(`<a href="/track/${storeId}?lang=en" hreflang="en" lang="en">English</a>`);

    const browser = await track({ awb: 'SFX9999999999' }, storeId, { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' });
    expect(browser.statusCode).toBe(404);
    expect(browser.body).toContain('<html lang="hi">');
    expect(alertOf(browser.body)).toBe(
      'इन जानकारियों से Acme Apparel का कोई शिपमेंट नहीं मिला। अपने ऑर्डर की पुष्टि से मिलाकर फिर कोशिश करें; कूरियर बुक होने के बाद ही पार्सल यहाँ दिखता है।',
    );
    // Not chosen on the page, so the shipment's page applies its own rules.
    expect(browser.body).not.toContain('name="lang"');
    const found = await track({ awb: booked.awb_code!, phone: '9123456780' }, storeId, { 'accept-language': 'hi' });
    expect(found.headers.location).toBe(pathOf(booked));

    const refused = await track({ lang: 'hi', order_id: 'ACME-1001', phone: '6780' });
    expect(problemsOf(refused.body)).toEqual([['phone', 'ऑर्डर में दिया फ़ोन नंबर: कृपया 10 अंकों का भारतीय फ़ोन नंबर दें']]);
    // Every language of the shipment's page is the store page's too; one we lack says nothing.
    const tamil = (await get(`/track/${storeId}?lang=ta`)).body;
    expect(tamil).toContain('<html lang="ta">');
    expect(tamil).toContain('<label for="awb">AWB (டிராக்கிங் எண்)</label>');
    expect((await get(`/track/${storeId}?lang=fr`)).body).toContain('<html lang="en">');
  });

  it("shares the tracking page's limit per client address: page, lookups and /t/ pages count together, then 429", async () => {
    const address = '203.0.113.50';
    const statuses = [
      (await get(`/track/${storeId}`, {}, address)).statusCode,
      (await get(`/track/${storeId}?awb=SFX9999999999`, {}, address)).statusCode,
      (await get(`/track/${storeId}?awb=${booked.awb_code}`, {}, address)).statusCode,
      (await get(pathOf(booked), {}, address)).statusCode,
      (await get('/track/not-a-store', {}, address)).statusCode,
    ];
    expect(statuses).toEqual([200, 404, 200, 200, 404]);
    const refused = await get(`/track/${storeId}?awb=${booked.awb_code}`, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.headers['ratelimit-policy']).toBe(`"address";q=${LIMIT};w=60`);
    expect(refused.json().message).toMatch(
      /^Rate limit exceeded: 5 requests per minute per client address; retry in (59|60) s$/,
    );
    expect((await get(`/track/${storeId}`, {}, '203.0.113.51')).statusCode).toBe(200);
  });
});

describe('a guessed AWB on the store page (issue 46, security 3)', () => {
  it("shows each of a store's sequential AWBs read-only: no token, name, phone, address, nor a form that acts", async () => {
    const carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
    const store = await createStore(ctx, apiKey, { store_name: 'acme-kids', brand_name: 'Acme Kids' });
    // Booked one after another, on one courier series: consecutive AWBs.
    const parcels: Booked[] = [];
    for (let i = 0; i < 5; i++)
      parcels.push(
        await book(ctx, apiKey, warehouseId, {
          storeName: 'acme-kids',
          orderId: `KIDS-${i}`,
          customer: `Buyer${i}`,
          lastName: 'Kulkarni',
          phone: `98200000${10 + i}`,
          email: `buyer${i}@example.com`,
        }),
      );
    // The first failed its delivery: a reattempt (with the attacker's phone and landmark) is what the audit recorded.
    ctx.clock.set(at(240));
    try {
      await sendEvents(ctx, carrierToken, [
        { awb: parcels[0]!.awb_code!, status: 'in_transit', event_time: at(60), location: 'Okhla Hub' },
        {
          awb: parcels[0]!.awb_code!,
          status: 'ndr_raised',
          event_time: at(120),
          location: 'Andheri DC',
          ndr_reason: 'customer_unavailable',
        },
      ]);
    } finally {
      ctx.clock.set(at(0));
    }
    // The attacker knows one AWB and walks the series both ways.
    const [, prefix, digits] = /^(\D+)(\d+)$/.exec(parcels[2]!.awb_code!)!;
    const series = Array.from(
      { length: 9 },
      (_, k) => `${prefix}${String(Number(digits) + k - 4).padStart(digits!.length, '0')}`,
    );
    expect(series).toEqual(expect.arrayContaining(parcels.map((p) => p.awb_code)));
    const answers = await Promise.all(
      series.map((awb) => track({ awb }, store.id, { 'accept-language': 'en-IN' }).then((r) => ({ awb, r }))),
    );
    const shown = answers.filter(({ r }) => r.statusCode === 200).map(({ awb }) => awb);
    expect(shown.sort()).toEqual(parcels.map((p) => p.awb_code).sort());

    const secrets = [
      ...parcels.flatMap((p) => [pathOf(p).slice('/t/'.length), p.shipment_id, p.order_id]),
      'Buyer',
      'Kulkarni',
      '98200000',
      '+9198',
      'Marine Drive',
      '400001',
      'Mumbai',
      'example.com',
    ];
    for (const { awb, r } of answers) {
      expect(r.headers.location, awb).toBeUndefined();
      const everything = `${r.body}${JSON.stringify(r.headers)}`;
      for (const secret of secrets) expect(everything, `${awb}: ${secret}`).not.toContain(secret);
      expect(r.body).not.toContain('/t/');
      expect(r.body).not.toContain('method="post"');
      expect(r.body).not.toContain('name="csrf"');
    }
    const failed = answers.find(({ awb }) => awb === parcels[0]!.awb_code)!.r.body;
    expect(failed).toContain('<h2 id="status" class="status warn">Delivery attempt failed</h2>');
    // The failure in words, without the offer of a reattempt the page cannot make.
    expect(failed).toContain('<p>The courier could not deliver your parcel.</p>');
    expect(failed).toContain('<strong>Delivery attempt failed</strong>');
    expect(failed).toContain(' · Andheri DC</span>');
    expect(failed).toContain('<dt>Expected delivery</dt><dd>Wednesday, 25 November</dd>');
    // Its one form asks for the order's phone, and goes back to this page.
    expect([...failed.matchAll(/<form [^>]*>/g)].map((m) => m[0])).toEqual([
      `<form method="get" action="/track/${store.id}" aria-labelledby="manage" novalidate>`,
    ]);
    expect([...failed.matchAll(/<input [^>]*name="([a-z_]+)"/g)].map((m) => m[1])).toEqual(['awb', 'phone']);
    expect(failed).toContain(`<input type="hidden" name="awb" value="${parcels[0]!.awb_code}">`);

    // Acting without the link: a reattempt posted anywhere an AWB reaches is refused, nothing recorded.
    // (The forms' fields in full, a made-up anti-forgery value among them: what an attacker would send.)
    const awb = parcels[0]!.awb_code!;
    const form = {
      csrf: 'forged',
      reattempt_date: '2026-11-23',
      landmark: 'Behind the attacker',
      phone: '9000000001',
    };
    const posts = await Promise.all(
      (
        [
          [`/track/${store.id}?awb=${awb}`, form],
          [`/track/${store.id}/reattempt?awb=${awb}`, form],
          [`/t/${awb}/reattempt`, form],
          [`/t/${awb}/refuse`, { csrf: 'forged', confirm: 'yes' }],
          [`/t/${awb}/address`, { csrf: 'forged', address: '1 Attacker Road' }],
        ] as const
      ).map(([url, fields]) =>
        ctx.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
          remoteAddress: nextAddress(),
        }),
      ),
    );
    expect(posts.map((r) => r.statusCode)).toEqual([405, 404, 404, 404, 404]);
    const tracked = await post(ctx, apiKey, ORDER_TRACKING, { awbs: [awb] });
    expect(tracked.json().result[awb].tracking_data.ndr_actions).toEqual([]);
    expect(tracked.json().result[awb].tracking_data.dakiya_status).toBe('ndr_raised');
  });

  it("opens the buyer's own page for the AWB with the order's whole phone only; a wrong or partial phone is named", async () => {
    const parcel = await book(ctx, apiKey, warehouseId, {
      storeName: 'acme-apparel',
      orderId: 'ACME-PHONE',
      phone: '9876501234',
      consignee: { name: 'Ravi' },
    });
    const awb = parcel.awb_code!;
    const english = { 'accept-language': 'en-IN' };
    const opened = await track({ awb, phone: '98765 01234' }, storeId, english);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(pathOf(parcel));
    const problemOf = (body: string) => /<p class="error" id="phone-error">([^<]*)<\/p>/.exec(body)?.[1];
    const cases: [string, number, string][] = [
      ['9876501235', 400, 'Phone number on the order: this is not the number on the order'],
      ['01234', 400, 'Phone number on the order: please give a 10-digit Indian phone number'],
      ['', 400, 'Phone number on the order: please fill this in'],
    ];
    for (const [phone, status, problem] of cases) {
      const refused = await track({ awb, phone }, storeId, english);
      expect(refused.statusCode, phone).toBe(status);
      expect(problemOf(refused.body), phone).toBe(problem);
      // The AWB's page again, its status shown, the link still not given.
      expect(refused.body).toContain('<h2 id="status" class="status ">Order confirmed</h2>');
      expect(refused.body).not.toContain(pathOf(parcel));
      expect(refused.body).toContain('aria-invalid="true" aria-describedby="phone-error phone-hint"');
    }
  });
});
