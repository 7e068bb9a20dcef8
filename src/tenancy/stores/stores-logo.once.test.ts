import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { STORES, UNKNOWN_ID, UUID } from '../../../test/kit/http.js';
import { countRows } from '../../../test/kit/rows.js';
import { createStore, getStore, logoPath } from '../../../test/kit/stores.js';
import { gif, jpeg, logoPart, multipart, png, sha256, webp } from '../../../test/kit/uploads.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=300';
const MiB = 1024 * 1024;

let ctx: TestContext;
let apiKey: string;
beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Logo Tester')).apiKey;
});
afterAll(async () => {
  await ctx.close();
});

const now = () => ctx.clock.now().toISOString();
const logoUrl = (id: string, bytes: Buffer) =>
  `${PUBLIC_BASE_URL}/public/v1/store-logos/${id}?v=${sha256(bytes).slice(0, 16)}`;
const fetchLogo = (path: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: path, headers });

describe('multipart/form-data', () => {
  it('creates a store from text fields and a logo file', async () => {
    const logo = png(500, 4);
    const logos = await countRows(ctx.database, 'store_logos');
    const response = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [
        { name: 'store_name', value: 'mp-create' },
        { name: 'brand_name', value: '  Multi Part  ' },
        logoPart(logo, 'brand.png', 'image/png'),
      ]),
    });
    expect(response.statusCode).toBe(201);
    const id = response.json().data.id;
    expect(id).toMatch(UUID);
    expect(response.json()).toEqual({
      data: {
        id,
        store_name: 'mp-create',
        brand_name: 'Multi Part',
        channel: 'manual_order',
        status: 'connected',
        logo_url: logoUrl(id, logo),
        tracking_page_url: `${PUBLIC_BASE_URL}/track/${id}`,
        support_email: null,
        support_phone: null,
        notify_events: [
          'shipped',
          'out_for_delivery',
          'delivered',
          'ndr_raised',
          'rto_delivered',
          'return_requested',
          'return_approved',
          'return_rejected',
        ],
        language: null,
        created_at: now(),
        updated_at: now(),
      },
    });
    expect(await countRows(ctx.database, 'store_logos')).toBe(logos + 1);
    expect((await fetchLogo(logoPath(response.json().data.logo_url))).rawPayload.equals(logo)).toBe(true);
  });

  it('creates a store without a logo', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [{ name: 'store_name', value: 'mp-plain' }]),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        store_name: 'mp-plain',
        brand_name: null,
        channel: 'manual_order',
        status: 'connected',
        logo_url: null,
        tracking_page_url: `${PUBLIC_BASE_URL}/track/${response.json().data.id}`,
        support_email: null,
        support_phone: null,
        notify_events: [
          'shipped',
          'out_for_delivery',
          'delivered',
          'ndr_raised',
          'rto_delivered',
          'return_requested',
          'return_approved',
          'return_rejected',
        ],
        language: null,
        created_at: now(),
        updated_at: now(),
      },
    });
  });

  it('updates any subset of the fields, the declared file type notwithstanding', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'mp-update', brand_name: 'Before' });
    ctx.clock.advance(60_000);
    const logo = jpeg(300, 5);
    const withLogo = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      // The bytes decide the type, not the file name or the part's Content-Type.
      ...multipart(apiKey, [logoPart(logo, 'logo.gif', 'application/octet-stream')]),
    });
    expect(withLogo.statusCode).toBe(200);
    expect(withLogo.json()).toEqual({ data: { ...store, logo_url: logoUrl(store.id, logo), updated_at: now() } });
    const served = await fetchLogo(logoPath(withLogo.json().data.logo_url));
    expect(served.headers['content-type']).toBe('image/jpeg');

    ctx.clock.advance(60_000);
    const renamed = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      ...multipart(apiKey, [
        { name: 'store_name', value: 'mp-update-2' },
        { name: 'brand_name', value: 'After' },
      ]),
    });
    expect(renamed.json()).toEqual({
      data: {
        ...store,
        store_name: 'mp-update-2',
        brand_name: 'After',
        logo_url: logoUrl(store.id, logo),
        updated_at: now(),
      },
    });
    expect((await getStore(ctx, apiKey, store.id)).json()).toEqual(renamed.json());
  });

  it('accepts a logo of exactly 2 MiB, by multipart and by JSON', async () => {
    const big = png(2 * MiB, 6);
    const viaMultipart = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [{ name: 'store_name', value: 'two-mib-mp' }, logoPart(big)]),
    });
    expect(viaMultipart.statusCode).toBe(201);
    const served = await fetchLogo(logoPath(viaMultipart.json().data.logo_url));
    expect(served.rawPayload.length).toBe(2 * MiB);
    expect(served.rawPayload.equals(big)).toBe(true);

    const viaJson = await createStore(ctx, apiKey, { store_name: 'two-mib-json', logo: big.toString('base64') });
    expect(viaJson.logo_url).toBe(logoUrl(viaJson.id, big));
  });

  it('stores more uploads than it reads at once, and a refused upload gives its turn back', async () => {
    // Four uploads are read at a time per process (stores.routes.ts); these exceed that twice over.
    for (const parts of [[logoPart(png(2 * MiB + 1, 7))], [logoPart(png(64, 1)), logoPart(png(64, 2))]]) {
      for (let i = 0; i < 5; i++) {
        const refused = await ctx.app.inject({
          method: 'POST',
          url: STORES,
          ...multipart(apiKey, [{ name: 'store_name', value: 'refused' }, ...parts]),
        });
        expect([400, 422]).toContain(refused.statusCode);
      }
    }
    const logos = Array.from({ length: 9 }, (_, i) => png(4096, 20 + i));
    const answers = await Promise.all(
      logos.map((logo, i) =>
        ctx.app.inject({
          method: 'POST',
          url: STORES,
          ...multipart(apiKey, [{ name: 'store_name', value: `queued-${i}` }, logoPart(logo)]),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(logos.map(() => 201));
    for (const [i, answer] of answers.entries())
      expect(answer.json().data.logo_url).toBe(logoUrl(answer.json().data.id, logos[i]!));
  });

  it('accepts a JSON logo as a data: URL', async () => {
    const logo = gif(40, 8);
    const store = await createStore(ctx, apiKey, {
      store_name: 'data-url',
      logo: `data:image/gif;base64,${logo.toString('base64')}`,
    });
    expect(store.logo_url).toBe(logoUrl(store.id, logo));
  });
});

describe('GET /public/v1/store-logos/:id', () => {
  it.each([
    ['PNG', png(120, 1), 'image/png'],
    ['JPEG', jpeg(120, 1), 'image/jpeg'],
    ['GIF', gif(120, 1), 'image/gif'],
    ['WebP (VP8)', webp(120, 1, 'VP8 '), 'image/webp'],
    ['WebP (VP8L)', webp(120, 2, 'VP8L'), 'image/webp'],
    ['WebP (VP8X)', webp(120, 3, 'VP8X'), 'image/webp'],
  ])(
    'serves a %s logo without a credential: exact bytes, sniffed type, hash ETag, immutable caching',
    async (kind, bytes, type) => {
      const store = await createStore(ctx, apiKey, {
        store_name: `served-${kind.replace(/\W+/g, '-')}`.replace(/-$/, ''),
        logo: bytes.toString('base64'),
      });
      const response = await fetchLogo(logoPath(store.logo_url!));
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(bytes)).toBe(true);
      expect(response.headers).toMatchObject({
        'content-type': type,
        'content-length': String(bytes.length),
        etag: `"${sha256(bytes)}"`,
        'cache-control': IMMUTABLE,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
        'x-request-id': expect.stringMatching(UUID),
      });
    },
  );

  it('asks for revalidation when the URL does not name the current version', async () => {
    const first = png(64, 11);
    const second = png(64, 12);
    const store = await createStore(ctx, apiKey, { store_name: 'versions', logo: first.toString('base64') });
    const oldPath = logoPath(store.logo_url!);
    await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      headers: { authorization: apiKey },
      payload: { logo: second.toString('base64') },
    });

    for (const path of [oldPath, `/public/v1/store-logos/${store.id}`, `/public/v1/store-logos/${store.id}?v=`]) {
      const response = await fetchLogo(path);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(second)).toBe(true);
      expect(response.headers.etag).toBe(`"${sha256(second)}"`);
      expect(response.headers['cache-control']).toBe(REVALIDATE);
    }
    expect((await fetchLogo(logoPath(logoUrl(store.id, second)))).headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answers 304 to a matching If-None-Match, 200 to another, and ignores any Authorization header', async () => {
    const bytes = webp(90, 4);
    const store = await createStore(ctx, apiKey, { store_name: 'conditional', logo: bytes.toString('base64') });
    const path = logoPath(store.logo_url!);
    const etag = `"${sha256(bytes)}"`;

    const notModified = await fetchLogo(path, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers).toMatchObject({
      etag,
      'cache-control': IMMUTABLE,
      'x-content-type-options': 'nosniff',
    });

    const changed = await fetchLogo(path, { 'if-none-match': `"${sha256(png())}"` });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(bytes)).toBe(true);

    const withGarbage = await fetchLogo(path, { authorization: 'Basic not-a-credential' });
    expect(withGarbage.statusCode).toBe(200);
  });

  it('answers 304 to a weak tag, to a list holding the tag, and to *', async () => {
    const bytes = gif(30, 2);
    const store = await createStore(ctx, apiKey, { store_name: 'weak-tags', logo: bytes.toString('base64') });
    const path = logoPath(store.logo_url!);
    const etag = `"${sha256(bytes)}"`;
    for (const header of [`W/${etag}`, `"other", ${etag}`, `W/"other" , W/${etag}`, '*']) {
      expect((await fetchLogo(path, { 'if-none-match': header })).statusCode, header).toBe(304);
    }
    expect((await fetchLogo(path, { 'if-none-match': 'W/"other", "another"' })).statusCode).toBe(200);
  });

  it('ignores query parameters it does not know, such as a mail tool tracking tag', async () => {
    const bytes = png(40, 6);
    const store = await createStore(ctx, apiKey, { store_name: 'tracked-mail', logo: bytes.toString('base64') });
    const response = await fetchLogo(`${logoPath(store.logo_url!)}&utm_source=newsletter`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 404 once the logo is removed, for a store without one, and for unknown or malformed ids', async () => {
    const bytes = png(70, 13);
    const store = await createStore(ctx, apiKey, { store_name: 'fading', logo: bytes.toString('base64') });
    const bare = await createStore(ctx, apiKey, { store_name: 'no-logo' });
    const path = logoPath(store.logo_url!);
    const removed = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      headers: { authorization: apiKey },
      payload: { logo: null },
    });
    expect(removed.json().data.logo_url).toBeNull();

    for (const url of [
      path,
      `/public/v1/store-logos/${bare.id}`,
      `/public/v1/store-logos/${UNKNOWN_ID}`,
      '/public/v1/store-logos/not-a-uuid',
    ]) {
      const response = await fetchLogo(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({
        code: 'store_logo_not_found',
        message: 'Logo not found',
        errors: ['Logo not found'],
      });
    }
  });
});
