import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { openReturnForm, photoPart, sendReturnForm } from '../../../test/kit/return-page.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { formData, type Part } from '../../../test/kit/uploads.js';
import { merchant } from '../../../test/kit/warehouses.js';

// The buyer's return form on the tracking page, through HTTP: who may see it, what a post must
// carry (the page's token, from this site), what it refuses beside each field, and what it keeps.
// The form in a browser at 390 px: return-form.browser.once.test.ts; the rules: return-requests.once.test.ts.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const POLICY = {
  window_days: 7,
  reasons: ['size_issue', 'damaged', 'changed_mind'],
  non_returnable_skus: ['SOCKS-3PK'],
  non_returnable_categories: [],
};
const ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499 },
  { name: 'Socks, three pairs', sku: 'SOCKS-3PK', units: 1, selling_price: 199 },
];

async function deliveredOrder(policy: object | null = POLICY) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `form-${m.id.slice(0, 8)}`, brand_name: 'Kurta Co' });
  if (policy) {
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/return-policy`,
      headers: authed(m.apiKey),
      payload: policy,
    });
    expect(set.statusCode).toBe(200);
  }
  const forward = await deliveredForward(ctx, m, { storeName: store.store_name, items: ITEMS, lastName: 'Menon' });
  const path = new URL(forward.track_url!).pathname;
  return { m, forward, path };
}

const open = (path: string, query?: string) => openReturnForm(ctx, path, query);

const FIELDS = {
  item_0: '1',
  reason: 'size_issue',
  resolution: 'exchange',
  exchange_for: 'Size L',
  comment: 'Too tight',
  pickup_address: 'Flat 4, Sea View',
  pickup_pincode: '400005',
  pickup_city: 'Mumbai',
  pickup_state: 'Maharashtra',
  pickup_phone: '91234 56780',
};

const send = (path: string, fields: Record<string, string>, files: Part[] = []) =>
  sendReturnForm(ctx, path, fields, files);

const listRequests = async (apiKey: string) =>
  (await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(apiKey) })).json().data;

const jpegPhoto = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 60 } } })
    .withMetadata({ exif: { IFD0: { Copyright: 'buyer' } } })
    .jpeg()
    .toBuffer();

describe('the return form of a delivered shipment', () => {
  it('is linked from the tracking page, offers what may be returned, and keeps a request with its photo', async () => {
    const { m, forward, path } = await deliveredOrder();
    const tracking = await ctx.app.inject({ method: 'GET', url: `${path}?lang=en` });
    expect(tracking.body).toContain(
      `<a class="return-form" href="${path}/return?lang=en">Return or exchange items</a>`,
    );

    const { page } = await open(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Tell Kurta Co what you would like to send back and why. You can ask until');
    // Two kurtas may be returned; the socks are not returnable, and say so instead of a choice.
    expect(page.body).toContain(
      '<select id="item-0" name="item_0"><option value="0" selected>None</option><option value="1">1</option><option value="2">2</option></select>',
    );
    expect(page.body).toContain('Socks, three pairs cannot be returned.');
    expect(page.body).not.toContain('name="item_1"');
    // The store's reasons, in its order, in the buyer's words; the pickup prefilled with the delivery address.
    expect([...page.body.matchAll(/<option value="([a-z_]+)">/g)].map((m) => m[1])).toEqual(POLICY.reasons);
    expect(page.body).toContain('id="pickup-pincode" name="pickup_pincode"');
    expect(page.body).toContain('value="400001"');

    const photo = await jpegPhoto(2400, 1800);
    const sent = await send(path, FIELDS, [photoPart(photo, 'kurta.jpg')]);
    expect(sent.statusCode, sent.body).toBe(303);
    expect(sent.headers.location).toBe(`${path}/return?lang=en&sent=1`);
    const [made] = await listRequests(m.apiKey);
    expect(made).toMatchObject({
      shipment_id: forward.shipment_id,
      status: 'pending',
      items: [{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 1 }],
      reason: 'size_issue',
      comment: 'Too tight',
      resolution: 'exchange',
      exchange_for: 'Size L',
      language: 'en',
      pickup_address: {
        name: expect.any(String),
        last_name: 'Menon',
        address: 'Flat 4, Sea View',
        address_2: null,
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
        pincode: '400005',
        email: expect.any(String),
        phone: '9123456780',
      },
      // Stored within 1600 px a side, the aspect kept.
      photos: [
        {
          url: `/custom/api/v1/return-requests/${made.id}/photos/0`,
          content_type: 'image/jpeg',
          width: 1600,
          height: 1200,
          size: expect.any(Number),
        },
      ],
    });
    const stored = await ctx.app.inject({ method: 'GET', url: made.photos[0].url, headers: authed(m.apiKey) });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/jpeg');
    expect(stored.rawPayload.length).toBe(made.photos[0].size);
    // Re-encoded: the camera's metadata is gone.
    expect((await sharp(stored.rawPayload).metadata()).exif).toBeUndefined();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    // Not another account's to read.
    const other = await merchant(ctx);
    expect(
      (await ctx.app.inject({ method: 'GET', url: made.photos[0].url, headers: authed(other.apiKey) })).statusCode,
    ).toBe(404);

    // The page thanks the buyer and shows the request, pending.
    const after = await ctx.app.inject({ method: 'GET', url: `${path}/return?lang=en&sent=1` });
    expect(after.body).toContain('<p class="ok" role="status">Your request is sent.');
    expect(after.body).toContain('Being reviewed by the store');
    expect(after.body).toContain('Cotton Kurta × 1 · Exchange for Size L');
    // The other kurta may still be asked for; the one under review may not.
    const again = await open(path);
    expect(again.page.body).toContain('A return of Cotton Kurta is already being reviewed.');

    // Past the window the tracking page still links the form, where the buyer follows their request.
    ctx.clock.set('2026-11-28T19:00:00.000Z');
    expect((await ctx.app.inject({ method: 'GET', url: `${path}?lang=en` })).body).toContain(
      `<a class="return-form" href="${path}/return?lang=en">Return or exchange items</a>`,
    );
    expect((await open(path)).page.body).toContain('Being reviewed by the store');
  });

  it('names each refused field beside it, in the buyer language, and keeps nothing', async () => {
    const { m, path } = await deliveredOrder();
    const refused = await send(
      path,
      { ...FIELDS, item_0: '0', reason: '', pickup_pincode: '4000', pickup_phone: '12345', pickup_city: '' },
      [photoPart(Buffer.from('not a picture at all'), 'a.txt', 'text/plain')],
    );
    expect(refused.statusCode).toBe(400);
    const problems = [...refused.body.matchAll(/<li class="error"><a href="#([a-z0-9_-]+)">([^<]+)<\/a><\/li>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(problems).toEqual([
      ['pickup-pincode', 'Pincode: a pincode is 6 digits'],
      ['pickup-city', 'City: please fill this in'],
      ['pickup-phone', 'Mobile number: please give a 10-digit Indian mobile number'],
      ['photos', 'Photo 1: please choose a JPEG, PNG, WebP or GIF picture'],
    ]);
    // What was typed is kept.
    expect(refused.body).toContain('value="Flat 4, Sea View"');
    // Once the form's own checks pass, the store's rules answer: nothing chosen, no reason, a pincode no courier serves.
    const rules = await send(path, { ...FIELDS, item_0: '0', reason: '', pickup_pincode: '900099' });
    expect(rules.statusCode).toBe(400);
    expect(
      [...rules.body.matchAll(/<li class="error"><a href="#([a-z0-9_.-]+)">([^<]+)<\/a><\/li>/g)].map((m) => [
        m[1],
        m[2],
      ]),
    ).toEqual([
      ['item-0', 'Choose at least one item to return.'],
      ['reason', 'Choose a reason from the list.'],
      [
        'pickup-pincode',
        'No courier can collect from this pincode. Please give another pickup address or contact the seller.',
      ],
    ]);
    const six = await send(
      path,
      FIELDS,
      await Promise.all(Array.from({ length: 6 }, async (_, i) => photoPart(await jpegPhoto(20, 20), `${i}.jpg`))),
    );
    expect(six.statusCode).toBe(400);
    expect(six.body).toContain('<a href="#photos">Add at most 5 photos.</a>');
    expect(await listRequests(m.apiKey)).toEqual([]);
  });

  it('reads a post as a browser sends it: an empty file input, a photo over 6 MiB, too many files, a forged item', async () => {
    const { m, path } = await deliveredOrder();
    // An empty file input and its empty part: no photo, and the request is kept.
    const kept = await send(path, FIELDS, [photoPart(Buffer.alloc(0), '', 'application/octet-stream')]);
    expect(kept.statusCode, kept.body).toBe(303);
    expect((await listRequests(m.apiKey))[0].photos).toEqual([]);
    const rest = { ...FIELDS, item_0: '1' };
    // Cut off while it streams in, not held.
    const big = Buffer.concat([await jpegPhoto(16, 16), Buffer.alloc(6 * 1024 * 1024)]);
    const tooBig = await send(path, rest, [photoPart(big)]);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.body).toContain('<a href="#photos">Photo 1: please choose a picture of at most 6 MB</a>');
    // Past the reader's own limit of files: the page, not a JSON error.
    const small = await jpegPhoto(8, 8);
    const flood = await send(
      path,
      rest,
      Array.from({ length: 25 }, () => photoPart(small)),
    );
    expect(flood.statusCode).toBe(400);
    expect(flood.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(flood.body).toContain('<a href="#photos">Add at most 5 photos.</a>');
    // The socks are offered as not returnable; a post asking for them anyway is refused beside them.
    const forged = await send(path, { ...rest, item_1: '1' });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('<a href="#item-1">Socks, three pairs cannot be returned.</a>');
    expect(await listRequests(m.apiKey)).toHaveLength(1);
  });

  it('answers a post that is not a form 403, and one after the window closed 409, keeping nothing', async () => {
    const { m, path } = await deliveredOrder();
    // The last half hour of the window (India time): the page is opened, and sent after midnight.
    ctx.clock.set('2026-11-27T18:00:00.000Z');
    const { csrf, cookie } = await open(path);
    const json = await ctx.app.inject({
      method: 'POST',
      url: `${path}/return?lang=en`,
      headers: { cookie: cookie!, 'content-type': 'application/json' },
      payload: { item_0: '1' },
    });
    expect(json.statusCode).toBe(403);
    ctx.clock.set('2026-11-27T18:45:00.000Z');
    const form = formData([
      { name: 'csrf', value: csrf! },
      ...Object.entries(FIELDS).map(([name, value]) => ({ name, value })),
    ]);
    const late = await ctx.app.inject({
      method: 'POST',
      url: `${path}/return?lang=en`,
      headers: { ...form.headers, cookie: cookie! },
      payload: form.payload,
    });
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('The last day to ask for a return of this order was Friday, 27 November.');
    expect(await listRequests(m.apiKey)).toEqual([]);
  });

  it('refuses a post without the page token, with another page token, or from another site', async () => {
    const { m, path } = await deliveredOrder();
    const { csrf, cookie } = await open(path);
    const post = (parts: Part[], headers: Record<string, string>) => {
      const form = formData(parts);
      return ctx.app.inject({
        method: 'POST',
        url: `${path}/return?lang=en`,
        headers: { ...form.headers, ...headers },
        payload: form.payload,
      });
    };
    const fields = Object.entries(FIELDS).map(([name, value]) => ({ name, value }));
    for (const [parts, headers] of [
      [fields, { cookie: cookie! }],
      [[{ name: 'csrf', value: csrf! }, ...fields], {}],
      [[{ name: 'csrf', value: `${csrf!}x` }, ...fields], { cookie: cookie! }],
      [[{ name: 'csrf', value: csrf! }, ...fields], { cookie: cookie!, 'sec-fetch-site': 'cross-site' }],
      [[{ name: 'csrf', value: csrf! }, ...fields], { cookie: cookie!, origin: 'https://evil.example' }],
    ] as const) {
      const refused = await post([...parts], headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('This form has expired. Please check your choices and send it again.');
    }
    expect(await listRequests(m.apiKey)).toEqual([]);
  });

  it('is not there for an AWB alone or an unknown link, and the page says why when the store takes no requests', async () => {
    const { forward, path } = await deliveredOrder(null);
    for (const url of [`/t/${forward.awb_code}/return`, '/t/AAAAAAAAAAAAAAAAAAAAAA/return']) {
      const answer = await ctx.app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain('Kurta Co');
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${path}?lang=en` })).body).not.toContain('return-form');
    const closed = await open(path);
    expect(closed.csrf).toBeUndefined();
    expect(closed.page.body).toContain(
      '<p class="warn" role="status">This store does not take return requests online. Please contact the seller.</p>',
    );
  });

  it('speaks the language of the page, and closes with the window', async () => {
    const { path } = await deliveredOrder();
    const hindi = await open(path, '?lang=hi');
    expect(hindi.page.body).toContain('<html lang="hi">');
    expect(hindi.page.body).toContain('<option value="damaged">टूटा-फूटा मिला</option>');
    ctx.clock.set('2026-11-28T19:00:00.000Z');
    const late = await open(path);
    expect(late.csrf).toBeUndefined();
    expect(late.page.body).toContain(
      '<p class="warn" role="status">The last day to ask for a return of this order was Friday, 27 November.</p>',
    );
    expect((await ctx.app.inject({ method: 'GET', url: `${path}?lang=en` })).body).not.toContain('return-form');
  });
});
