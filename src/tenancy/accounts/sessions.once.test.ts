import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestApp, PUSH_RATES, type TestContext, testSettings } from '../../../test/app.js';
import { AUTH_TOKEN, SHIPMENTS, UUID, WAREHOUSES } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';

// The panel's sign-in: a session in an HttpOnly, SameSite=Strict cookie (Secure over https), a
// CSRF token the panel echoes in X-CSRF-Token on every change, sign-out that ends the session on
// the server, and the account routes taking the cookie as they take an API key.

const SESSION = '/panel/v1/session';
const FORBIDDEN = 'Missing or wrong X-CSRF-Token header: the panel sends it with every change';
const PASSWORD = 's3cret-pass';

let ctx: TestContext;
let acme: { id: string; apiKey: string };
let bharat: { id: string; apiKey: string };
let acmeShipmentId: string;
beforeAll(async () => {
  // Two failures per minute per username and address: the third attempt is refused.
  ctx = await createTestApp({ settings: { accounts: { loginAttemptsPerMinute: 2 } } });
  acme = await ctx.createAccount('Acme Retail', { username: 'acme', password: PASSWORD });
  bharat = await ctx.createAccount('Bharat Mart', { username: 'bharat', password: PASSWORD });
  acmeShipmentId = (await book(ctx, acme.apiKey, await createCityWarehouse(ctx, acme.apiKey), { customer: 'Asha' }))
    .shipment_id;
  await createCityWarehouse(ctx, bharat.apiKey, 'mumbai', 'Bharat Andheri');
});
afterAll(async () => {
  await ctx?.close();
});

interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function signIn(username: string, headers: Record<string, string> = {}): Promise<Signed> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: SESSION,
    headers,
    payload: { username, password: PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = String(response.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, csrf: response.json().csrf_token, setCookie };
}

const withSession = (s: Signed, csrf?: string) => ({
  cookie: s.cookie,
  ...(csrf !== undefined && { 'x-csrf-token': csrf }),
});

describe('signing in to the panel', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie and answers the account and a CSRF token', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: SESSION,
      payload: { username: 'acme', password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      account: { id: acme.id, name: 'Acme Retail', username: 'acme' },
      member: null,
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at_utc: '2026-11-20T18:30:00.000Z',
      two_factor_setup_required: false,
    });
    expect(response.headers['set-cookie']).toMatch(
      /^dakiya_session=dks_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('marks the cookie Secure when the browser came over https through a proxy TRUST_PROXY names, and only then', async () => {
    // Any client may send X-Forwarded-Proto: without TRUST_PROXY it says nothing.
    const unproxied = await signIn('acme', { 'x-forwarded-proto': 'https' });
    expect(unproxied.setCookie).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const proxied = await createTestApp({
      database: ctx.database,
      settings: { server: { trustProxy: ['127.0.0.1'] } },
    });
    try {
      const signIn = (headers: Record<string, string>, remoteAddress: string) =>
        proxied.app.inject({
          method: 'POST',
          url: SESSION,
          headers,
          remoteAddress,
          payload: { username: 'acme', password: PASSWORD },
        });
      const behind = await signIn({ 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1');
      expect(behind.statusCode).toBe(200);
      expect(String(behind.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
      // The same header from an address that is not the proxy is not believed.
      const around = await signIn({ 'x-forwarded-proto': 'https' }, '198.51.100.7');
      expect(around.statusCode).toBe(200);
      expect(String(around.headers['set-cookie'])).toMatch(/; Max-Age=43200$/);
    } finally {
      await proxied.app.close();
    }
  });

  it('refuses a wrong password with 401 and no cookie, and counts it with the API login limits', async () => {
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: SESSION,
      payload: { username: 'bharat', password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 'invalid_login',
      message: 'Invalid username or password',
      errors: ['Invalid username or password'],
    });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    // One more failure through POST /auth-token: the same counter, so the panel's next try is refused.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: AUTH_TOKEN,
          payload: { username: 'bharat', password: 'still-wrong' },
        })
      ).statusCode,
    ).toBe(401);
    const limited = await ctx.app.inject({
      method: 'POST',
      url: SESSION,
      payload: { username: 'bharat', password: PASSWORD },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json().message).toBe('Too many failed logins from this address; retry in 60 s');
    ctx.clock.advance(61_000);
  });

  it('names every missing field of the sign-in body at once', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: SESSION, payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(['username', 'password']);
  });
});

describe('the session cookie on the account routes', () => {
  it('reads with the cookie alone, and GET /panel/v1/session answers the same CSRF token', async () => {
    const signed = await signIn('acme');
    const listed = await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: withSession(signed) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((w: { name: string }) => w.name)).toEqual(['Warehouse delhi']);
    const current = await ctx.app.inject({ method: 'GET', url: SESSION, headers: withSession(signed) });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({
      account: { id: acme.id, name: 'Acme Retail', username: 'acme' },
      member: null,
      csrf_token: signed.csrf,
      expires_at_utc: expect.any(String),
      two_factor_setup_required: false,
    });
  });

  it('refuses a forged change (no or another CSRF token) with 403, and takes one carrying the token', async () => {
    const signed = await signIn('acme');
    const other = await signIn('bharat');
    for (const csrf of [undefined, '', other.csrf, `${signed.csrf}x`]) {
      const forged = await ctx.app.inject({
        method: 'POST',
        url: SHIPMENTS,
        headers: withSession(signed, csrf),
        payload: {},
      });
      expect(forged.statusCode, String(csrf)).toBe(403);
      expect(forged.json()).toEqual({ code: 'csrf_token_mismatch', message: FORBIDDEN, errors: [FORBIDDEN] });
    }
    const real = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: withSession(signed, signed.csrf),
      payload: {},
    });
    expect(real.statusCode).toBe(200);
    expect(real.json().data.map((s: { id: string }) => s.id)).toEqual([acmeShipmentId]);
  });

  it('shows each account only its own shipments and warehouses', async () => {
    const signed = await signIn('bharat');
    const shipments = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: withSession(signed, signed.csrf),
      payload: { search: 'Asha' },
    });
    expect(shipments.json()).toMatchObject({ data: [], meta: { total: 0 } });
    const warehouses = await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: withSession(signed) });
    expect(warehouses.json().data.map((w: { name: string }) => w.name)).toEqual(['Bharat Andheri']);
    const label = await ctx.app.inject({
      method: 'GET',
      url: `/custom/api/v1/shipments/${acmeShipmentId}/label`,
      headers: withSession(signed),
    });
    expect(label.statusCode).toBe(404);
  });

  it('lets an Authorization header win over a cookie (API clients are unaffected by a stray cookie)', async () => {
    const signed = await signIn('acme');
    const response = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...withSession(signed), authorization: bharat.apiKey },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta.total).toBe(0);
  });

  it('401 for an unknown or malformed session cookie', async () => {
    for (const cookie of ['dakiya_session=dks_unknown', 'dakiya_session=not a token', 'other=1']) {
      const response = await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: { cookie } });
      expect(response.statusCode, cookie).toBe(401);
    }
    expect((await ctx.app.inject({ method: 'GET', url: SESSION })).statusCode).toBe(401);
  });

  it('expires after 12 hours', async () => {
    const signed = await signIn('acme');
    ctx.clock.advance(12 * 60 * 60 * 1000 + 1);
    try {
      expect((await ctx.app.inject({ method: 'GET', url: SESSION, headers: withSession(signed) })).statusCode).toBe(
        401,
      );
      expect((await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: withSession(signed) })).statusCode).toBe(
        401,
      );
    } finally {
      ctx.clock.advance(-(12 * 60 * 60 * 1000 + 1));
    }
  });
});

describe('signing out', () => {
  it('needs the CSRF token, ends the session on the server and clears the cookie', async () => {
    const signed = await signIn('acme');
    const forged = await ctx.app.inject({ method: 'DELETE', url: SESSION, headers: withSession(signed) });
    expect(forged.statusCode).toBe(403);
    const out = await ctx.app.inject({ method: 'DELETE', url: SESSION, headers: withSession(signed, signed.csrf) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Signed out' });
    expect(out.headers['set-cookie']).toBe('dakiya_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    // A copy of the cookie kept by anyone is now worthless.
    expect((await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: withSession(signed) })).statusCode).toBe(
      401,
    );
    expect((await ctx.app.inject({ method: 'GET', url: SESSION, headers: withSession(signed) })).statusCode).toBe(401);
  });
});

describe('sessions live in the database', () => {
  it('survive a restart: another app on the same database takes the cookie', async () => {
    const signed = await signIn('acme');
    const restarted = await buildApp({
      db: ctx.database.db,
      clock: ctx.clock,
      settings: testSettings(),
      rates: PUSH_RATES,
      timers: false,
      delivery: false,
    });
    try {
      const response = await restarted.inject({ method: 'GET', url: SESSION, headers: withSession(signed) });
      expect(response.statusCode).toBe(200);
      expect(response.json().account.id).toMatch(UUID);
      expect(response.json().csrf_token).toBe(signed.csrf);
    } finally {
      await restarted.close();
    }
  });
});
