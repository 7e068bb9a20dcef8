import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, STORES } from '../../../test/kit/http.js';
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
    expect(body).toContain(`<a href="/track/${storeId}?lang=hi" hreflang="hi" lang="hi">हिन्दी में देखें</a>`);
    expect(body).not.toContain('<script');
  });

  it("takes an AWB of the store's shipment to that shipment's page, keeping a chosen language", async () => {
    const found = await track({ awb: booked.awb_code! });
    expect(found.statusCode).toBe(303);
    expect(found.headers.location).toBe(pathOf(booked));
    expect(found.headers['cache-control']).toBe('no-store');
    expect(found.body).toBe('');
    // Spaces around a pasted AWB are forgiven; the language chosen on this page rides along.
    const hindi = await track({ lang: 'hi', awb: ` ${booked.awb_code!} ` });
    expect(hindi.headers.location).toBe(`${pathOf(booked)}?lang=hi`);
    const page = await get(hindi.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="hi">');
    expect(page.body).toContain(booked.awb_code!);
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
    // Each is found from its own store's page.
    expect((await track({ awb: siblings.awb_code! }, sibling)).headers.location).toBe(pathOf(siblings));
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
    const refusal = (message: string, field: string) => ({ message, errors: [message], details: [{ field, message }] });
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
    expect(asked.body).toContain(`<a href="/track/${storeId}?lang=en" hreflang="en" lang="en">View in English</a>`);

    const browser = await track({ awb: 'SFX9999999999' }, storeId, { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' });
    expect(browser.statusCode).toBe(404);
    expect(browser.body).toContain('<html lang="hi">');
    expect(alertOf(browser.body)).toBe(
      'इन जानकारियों से Acme Apparel का कोई शिपमेंट नहीं मिला। अपने ऑर्डर की पुष्टि से मिलाकर फिर कोशिश करें; कूरियर बुक होने के बाद ही पार्सल यहाँ दिखता है।',
    );
    // Not chosen on the page, so the shipment's page applies its own rules.
    expect(browser.body).not.toContain('name="lang"');
    const found = await track({ awb: booked.awb_code! }, storeId, { 'accept-language': 'hi' });
    expect(found.headers.location).toBe(pathOf(booked));

    const refused = await track({ lang: 'hi', order_id: 'ACME-1001', phone: '6780' });
    expect(problemsOf(refused.body)).toEqual([['phone', 'ऑर्डर में दिया फ़ोन नंबर: कृपया 10 अंकों का भारतीय फ़ोन नंबर दें']]);
    // Any other language asked for is English here.
    expect((await get(`/track/${storeId}?lang=ta`)).body).toContain('<html lang="en">');
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
    expect(statuses).toEqual([200, 404, 303, 200, 404]);
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
