import { describe, expect, it } from 'vitest';
import { useTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { accessToken, authed, STORES, UUID } from '../../../test/kit/http.js';
import { countRows, expectUnchanged } from '../../../test/kit/rows.js';
import { createStore, getStore, listStores, logoPath, type StoreBody } from '../../../test/kit/stores.js';
import { png, sha256 } from '../../../test/kit/uploads.js';

// Inline vitest projects do not inherit the root testTimeout/hookTimeout; PGlite start-up alone can
// take seconds on a loaded 2-CPU machine.

const TAKEN = {
  code: 'store_name_taken',
  message: 'Store name has already been taken',
  errors: ['Store name has already been taken'],
  details: [{ field: 'store_name', message: 'Store name has already been taken' }],
};
/**
 * The 422 for a name a disconnected (deleted) store keeps: the seed's words first and alone, as
 * Velocity's clients compare them; why, and what to do, in an entry of its own after them.
 */
function takenByDeleted(id: string) {
  const why =
    `A deleted store (${id}) used this name, and names stay reserved so its shipments keep their brand: ` +
    `restore it with PUT /custom/api/v1/client-stores/${id} {"status": "connected"}, or choose another name`;
  return {
    code: 'store_name_reserved',
    message: 'Store name has already been taken',
    errors: ['Store name has already been taken', why],
    details: [
      { field: 'store_name', message: 'Store name has already been taken' },
      { field: 'store_name', message: why },
    ],
  };
}
const NOT_FOUND = { code: 'store_not_found', message: 'Store not found', errors: ['Store not found'] };

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const now = () => ctx.clock.now().toISOString();
const put = (apiKey: string, id: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: `${STORES}/${id}`, headers: authed(apiKey), payload });
const del = (apiKey: string, id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `${STORES}/${id}`, headers: authed(apiKey) });
const post = (apiKey: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: STORES, headers: authed(apiKey), payload });

describe('POST /custom/api/v1/client-stores (JSON)', () => {
  it('creates a connected manual_order store and answers 201 with exactly the store fields', async () => {
    const { apiKey } = await ctx.createAccount();
    const before = await countRows(ctx.database, 'stores');
    const response = await post(apiKey, { store_name: 'Acme-Apparel-01', brand_name: '  Acme Apparel  ' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        store_name: 'Acme-Apparel-01',
        brand_name: 'Acme Apparel',
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
    expect(Object.keys(response.json().data)).toEqual([
      'id',
      'store_name',
      'brand_name',
      'channel',
      'status',
      'logo_url',
      'tracking_page_url',
      'support_email',
      'support_phone',
      'notify_events',
      'language',
      'created_at',
      'updated_at',
    ]);
    expect(await countRows(ctx.database, 'stores')).toBe(before + 1);
  });

  it('leaves brand_name null when not given and accepts a 64-character name and a 100-character brand', async () => {
    const { apiKey } = await ctx.createAccount();
    const plain = await createStore(ctx, apiKey, { store_name: 'x' });
    expect(plain.brand_name).toBeNull();
    const longest = await createStore(ctx, apiKey, { store_name: 'a'.repeat(64), brand_name: ` ${'B'.repeat(100)} ` });
    expect(longest.store_name).toBe('a'.repeat(64));
    expect(longest.brand_name).toBe('B'.repeat(100));
  });

  it('stores a base64 logo and answers its public URL, versioned by the content hash', async () => {
    const { apiKey } = await ctx.createAccount();
    const logo = png(200, 7);
    const logosBefore = await countRows(ctx.database, 'store_logos');
    const store = await createStore(ctx, apiKey, { store_name: 'with-logo', logo: logo.toString('base64') });
    expect(store.logo_url).toBe(`${PUBLIC_BASE_URL}/public/v1/store-logos/${store.id}?v=${sha256(logo).slice(0, 16)}`);
    expect(await countRows(ctx.database, 'store_logos')).toBe(logosBefore + 1);
    const served = await ctx.app.inject({ method: 'GET', url: logoPath(store.logo_url!) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(logo)).toBe(true);
  });
});

describe('GET /custom/api/v1/client-stores and /:id', () => {
  it('lists active stores only, oldest first, and gets each by id', async () => {
    const { apiKey } = await ctx.createAccount();
    expect(await listStores(ctx, apiKey)).toEqual([]);
    const created: StoreBody[] = [];
    for (const name of ['zeta', 'alpha', 'Mid-1']) {
      created.push(await createStore(ctx, apiKey, { store_name: name }));
      ctx.clock.advance(60_000);
    }
    expect(await listStores(ctx, apiKey)).toEqual(created);
    for (const store of created) {
      const response = await getStore(ctx, apiKey, store.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: store });
    }
    expect((await del(apiKey, created[1]!.id)).statusCode).toBe(200);
    expect(await listStores(ctx, apiKey)).toEqual([created[0], created[2]]);
  });
});

describe('PUT /custom/api/v1/client-stores/:id', () => {
  it('changes only the fields sent; updated_at moves, created_at does not', async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'partial', brand_name: 'Old Brand' });
    ctx.clock.advance(90_000);

    const brand = await put(apiKey, store.id, { brand_name: ' New Brand ' });
    expect(brand.statusCode).toBe(200);
    expect(brand.json()).toEqual({ data: { ...store, brand_name: 'New Brand', updated_at: now() } });

    ctx.clock.advance(1000);
    const renamed = await put(apiKey, store.id, { store_name: 'partial-2' });
    expect(renamed.json()).toEqual({
      data: { ...store, store_name: 'partial-2', brand_name: 'New Brand', updated_at: now() },
    });

    ctx.clock.advance(1000);
    const cleared = await put(apiKey, store.id, { brand_name: null });
    expect(cleared.json()).toEqual({
      data: { ...store, store_name: 'partial-2', brand_name: null, updated_at: now() },
    });
    expect((await getStore(ctx, apiKey, store.id)).json()).toEqual(cleared.json());
  });

  it("may change a name's case, or keep it, on the same store", async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'case-shop' });
    const upper = await put(apiKey, store.id, { store_name: 'CASE-Shop' });
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toEqual({ data: { ...store, store_name: 'CASE-Shop' } });
    const same = await put(apiKey, store.id, { store_name: 'CASE-Shop', brand_name: 'Same' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ data: { ...store, store_name: 'CASE-Shop', brand_name: 'Same' } });
  });

  it('adds, replaces and (with "logo": null) removes the logo', async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'logo-cycle' });
    const first = png(100, 1);
    const second = png(100, 2);
    const logosBefore = await countRows(ctx.database, 'store_logos');

    const added = await put(apiKey, store.id, { logo: first.toString('base64') });
    expect(added.json().data.logo_url).toBe(
      `${PUBLIC_BASE_URL}/public/v1/store-logos/${store.id}?v=${sha256(first).slice(0, 16)}`,
    );
    expect(await countRows(ctx.database, 'store_logos')).toBe(logosBefore + 1);

    const replaced = await put(apiKey, store.id, { logo: second.toString('base64') });
    const url = replaced.json().data.logo_url;
    expect(url).toBe(`${PUBLIC_BASE_URL}/public/v1/store-logos/${store.id}?v=${sha256(second).slice(0, 16)}`);
    expect(await countRows(ctx.database, 'store_logos')).toBe(logosBefore + 1);
    expect((await ctx.app.inject({ method: 'GET', url: logoPath(url) })).rawPayload.equals(second)).toBe(true);

    ctx.clock.advance(5000);
    const removed = await put(apiKey, store.id, { logo: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ data: { ...store, logo_url: null, updated_at: now() } });
    expect(await countRows(ctx.database, 'store_logos')).toBe(logosBefore);
    const gone = await ctx.app.inject({ method: 'GET', url: logoPath(url) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      code: 'store_logo_not_found',
      message: 'Logo not found',
      errors: ['Logo not found'],
    });
  });
});

describe('DELETE /custom/api/v1/client-stores/:id', () => {
  it('disconnects: off the list, still readable by id, its name still reserved', async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'Closing-Down', brand_name: 'Closing' });
    const other = await createStore(ctx, apiKey, { store_name: 'still-open' });
    const rowsBefore = await countRows(ctx.database, 'stores');
    ctx.clock.advance(3_600_000);

    const response = await del(apiKey, store.id);
    expect(response.statusCode).toBe(200);
    const disconnected = { ...store, status: 'disconnected', updated_at: now() };
    expect(response.json()).toEqual({ data: disconnected });

    expect(await listStores(ctx, apiKey)).toEqual([other]);
    const read = await getStore(ctx, apiKey, store.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data: disconnected });
    expect(await countRows(ctx.database, 'stores')).toBe(rowsBefore);

    for (const name of ['Closing-Down', 'closing-down']) {
      const again = await expectUnchanged(ctx.database, () => post(apiKey, { store_name: name }));
      expect(again.statusCode).toBe(422);
      expect(again.json()).toEqual(takenByDeleted(store.id));
    }
    const rename = await expectUnchanged(ctx.database, () => put(apiKey, other.id, { store_name: 'CLOSING-DOWN' }));
    expect(rename.statusCode).toBe(422);
    expect(rename.json()).toEqual(takenByDeleted(store.id));
  });

  it('is undone by PUT {"status": "connected"}, as the conflict message says: listed and named again', async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'Back-Again', brand_name: 'Back' });
    expect((await del(apiKey, store.id)).statusCode).toBe(200);
    ctx.clock.advance(60_000);
    const restored = await put(apiKey, store.id, { status: 'connected' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ data: { ...store, status: 'connected', updated_at: now() } });
    expect(await listStores(ctx, apiKey)).toEqual([{ ...store, status: 'connected', updated_at: now() }]);
    // Connected, the name is taken the ordinary way.
    const again = await post(apiKey, { store_name: 'back-again' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(TAKEN);
  });

  it('refuses any status but "connected" on PUT: DELETE disconnects', async () => {
    const { apiKey } = await ctx.createAccount();
    const store = await createStore(ctx, apiKey, { store_name: 'Stays-Open' });
    const response = await expectUnchanged(ctx.database, () => put(apiKey, store.id, { status: 'disconnected' }));
    expect(response.statusCode).toBe(400);
    const message = 'status must be "connected" (DELETE /client-stores/:id disconnects a store)';
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field: 'status', message }],
    });
  });
});

describe('store_name is unique per account, ignoring case', () => {
  it.each(['Unique-Shop', 'unique-shop', 'UNIQUE-SHOP'])(
    'refuses creating %s next to Unique-Shop (422), creating nothing',
    async (name) => {
      const { apiKey } = await ctx.createAccount();
      await createStore(ctx, apiKey, { store_name: 'Unique-Shop' });
      const response = await expectUnchanged(ctx.database, () =>
        post(apiKey, { store_name: name, brand_name: 'Copy' }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(TAKEN);
    },
  );

  it.each(['first-shop', 'FIRST-shop'])('refuses renaming a store to %s (422), changing nothing', async (name) => {
    const { apiKey } = await ctx.createAccount();
    await createStore(ctx, apiKey, { store_name: 'first-shop' });
    const second = await createStore(ctx, apiKey, { store_name: 'second-shop' });
    const response = await expectUnchanged(ctx.database, () =>
      put(apiKey, second.id, { store_name: name, brand_name: 'Would Change', logo: png().toString('base64') }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(TAKEN);
  });

  it('lets two accounts each have a store with the same name', async () => {
    const a = await ctx.createAccount();
    const b = await ctx.createAccount();
    const storeA = await createStore(ctx, a.apiKey, { store_name: 'common-name' });
    const created = await post(b.apiKey, { store_name: 'COMMON-NAME' });
    expect(created.statusCode).toBe(201);
    const storeB = await createStore(ctx, b.apiKey, { store_name: 'other' });
    const renamed = await put(b.apiKey, storeB.id, { store_name: 'Common-Name' });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json()).toEqual(TAKEN);
    expect(await listStores(ctx, a.apiKey)).toEqual([storeA]);
  });
});

describe('tenant isolation', () => {
  it.each(['API key', 'access token'])("account B's %s can neither see nor change account A's stores", async (kind) => {
    const a = await ctx.createAccount();
    const username = `tenant-b-${kind.replace(' ', '-')}`;
    const b = await ctx.createAccount('Tenant B', { username, password: 'tenant b password' });
    const credentialB =
      kind === 'API key' ? b.apiKey : `Bearer ${await accessToken(ctx, username, 'tenant b password')}`;
    const storeA = await createStore(ctx, a.apiKey, {
      store_name: 'a-private',
      brand_name: 'A',
      logo: png(80, 3).toString('base64'),
    });
    const storeB = await createStore(ctx, b.apiKey, { store_name: 'b-own' });

    expect(await listStores(ctx, credentialB)).toEqual([storeB]);
    expect(await listStores(ctx, a.apiKey)).toEqual([storeA]);

    const requests = [
      { method: 'GET' as const, url: `${STORES}/${storeA.id}` },
      { method: 'PUT' as const, url: `${STORES}/${storeA.id}`, payload: { brand_name: 'Hijacked' } },
      {
        method: 'PUT' as const,
        url: `${STORES}/${storeA.id}`,
        payload: { store_name: 'stolen', logo: png(90, 9).toString('base64') },
      },
      { method: 'PUT' as const, url: `${STORES}/${storeA.id}`, payload: { logo: null } },
      { method: 'DELETE' as const, url: `${STORES}/${storeA.id}` },
    ];
    for (const request of requests) {
      const response = await expectUnchanged(ctx.database, () =>
        ctx.app.inject({ ...request, headers: authed(credentialB) }),
      );
      expect(response.statusCode, `${request.method} ${JSON.stringify(request.payload)}`).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }

    // A's name is free in B's account, and B's activity left A's store as it was.
    expect((await post(credentialB, { store_name: 'A-PRIVATE' })).statusCode).toBe(201);
    expect((await getStore(ctx, a.apiKey, storeA.id)).json()).toEqual({ data: storeA });
    expect(await listStores(ctx, a.apiKey)).toEqual([storeA]);
  });
});
