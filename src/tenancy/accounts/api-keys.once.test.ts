import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { accessToken, admin, authed, STORES, UNKNOWN_ID, UUID, V1 } from '../../../test/kit/http.js';
import { queryRows } from '../../base/db/client.js';

const API_KEYS = `${V1}/api-keys`;
const PASSWORD = 'correct horse battery';
const INVALID = {
  code: 'invalid_credential',
  message: 'Invalid, revoked or expired credential',
  errors: ['Invalid, revoked or expired credential'],
};
// A key made without a name, scopes or an end: every permission, for ever (until revoked).
const UNLIMITED = { name: null, scopes: null, expires_at: null, stores: null };
const NOT_FOUND = { code: 'api_key_not_found', message: 'API key not found', errors: ['API key not found'] };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const call = (credential: string, method: 'GET' | 'POST' | 'DELETE', url = API_KEYS) =>
  ctx.app.inject({ method, url, headers: authed(credential) });
const stores = async (credential: string) =>
  (await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(credential) })).statusCode;

describe('the account’s own API keys (/custom/api/v1/api-keys)', () => {
  it('creates a key shown once, lists keys by prefix without the key, and the new key works at once', async () => {
    const { apiKey } = await ctx.createAccount('Keys Owner');
    ctx.clock.advance(1000);
    const created = await call(apiKey, 'POST');
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect(key).toEqual({
      id: expect.stringMatching(UUID),
      prefix: key.api_key.slice(0, 12),
      ...UNLIMITED,
      created_at: ctx.clock.now().toISOString(),
      revoked_at: null,
      last_used_at: null,
      api_key: expect.stringMatching(/^dky_/),
    });
    expect(await stores(key.api_key)).toBe(200);

    const listed = await call(key.api_key, 'GET');
    expect(listed.statusCode).toBe(200);
    const data = listed.json().data;
    expect(data).toHaveLength(2);
    const now = ctx.clock.now().toISOString();
    expect(data[0]).toEqual({
      id: key.id,
      prefix: key.prefix,
      ...UNLIMITED,
      created_at: key.created_at,
      revoked_at: null,
      last_used_at: now,
    });
    expect(data[1]).toEqual({
      id: expect.stringMatching(UUID),
      prefix: apiKey.slice(0, 12),
      ...UNLIMITED,
      created_at: expect.any(String),
      revoked_at: null,
      last_used_at: now,
    });
    expect(listed.body).not.toContain(key.api_key);
    expect(listed.body).not.toContain(apiKey);
  });

  it('revokes a key: 401 from then on, listed with when; revoking it again answers the same time', async () => {
    const { apiKey } = await ctx.createAccount('Revoker');
    ctx.clock.advance(1000);
    const key = (await call(apiKey, 'POST')).json().data;
    ctx.clock.advance(5000);
    const revoked = await call(apiKey, 'DELETE', `${API_KEYS}/${key.id}`);
    expect(revoked.statusCode).toBe(200);
    const revokedAt = ctx.clock.now().toISOString();
    expect(revoked.json()).toEqual({
      data: {
        id: key.id,
        prefix: key.prefix,
        ...UNLIMITED,
        created_at: key.created_at,
        revoked_at: revokedAt,
        last_used_at: null,
      },
    });
    const refused = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(key.api_key) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(INVALID);
    expect((await call(apiKey, 'GET')).json().data[0]).toEqual({
      id: key.id,
      prefix: key.prefix,
      ...UNLIMITED,
      created_at: key.created_at,
      revoked_at: revokedAt,
      last_used_at: null,
    });

    ctx.clock.advance(5000);
    expect((await call(apiKey, 'DELETE', `${API_KEYS}/${key.id}`)).json().data.revoked_at).toBe(revokedAt);
    expect(await stores(apiKey)).toBe(200);
  });

  it('keeps when each key was last used, to the minute: one write a minute however many requests', async () => {
    const { apiKey } = await ctx.createAccount('Busy Key');
    const lastUsed = async () => (await call(apiKey, 'GET')).json().data[0].last_used_at;
    const first = ctx.clock.now().toISOString();
    expect(await lastUsed()).toBe(first);
    // Past the credential cache's second but within the minute: the key is looked up again, not written.
    ctx.clock.advance(30_000);
    expect(await stores(apiKey)).toBe(200);
    expect(await lastUsed()).toBe(first);
    ctx.clock.advance(31_000);
    const later = ctx.clock.now().toISOString();
    expect(await lastUsed()).toBe(later);
    const [written] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from api_keys where last_used_at = ${later}::timestamptz`,
    );
    expect(written!.n).toBe(1);
  });

  it('revokes the key the request came with, which then gets 401', async () => {
    const { apiKey } = await ctx.createAccount('Self Revoker');
    const own = (await call(apiKey, 'GET')).json().data[0];
    expect(own.prefix).toBe(apiKey.slice(0, 12));
    expect(await stores(apiKey)).toBe(200);
    const revoked = await call(apiKey, 'DELETE', `${API_KEYS}/${own.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revoked_at).toBe(ctx.clock.now().toISOString());
    expect(await stores(apiKey)).toBe(401);
    expect((await call(apiKey, 'GET')).statusCode).toBe(401);
  });

  it('works with an access token from the username and password too', async () => {
    await ctx.createAccount('Token Holder', { username: 'keys.token', password: PASSWORD });
    const token = await accessToken(ctx, 'keys.token', PASSWORD);
    const created = await call(token, 'POST');
    expect(created.statusCode).toBe(201);
    expect(await stores(created.json().data.api_key)).toBe(200);
  });

  it('never shows or revokes another account’s key: 404, and the key keeps working', async () => {
    const owner = await ctx.createAccount('Owner');
    const stranger = await ctx.createAccount('Stranger');
    const ownerKey = (await call(owner.apiKey, 'GET')).json().data[0];

    const listed = (await call(stranger.apiKey, 'GET')).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0].prefix).toBe(stranger.apiKey.slice(0, 12));

    const refused = await call(stranger.apiKey, 'DELETE', `${API_KEYS}/${ownerKey.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(NOT_FOUND);
    expect(await stores(owner.apiKey)).toBe(200);
    expect((await call(owner.apiKey, 'GET')).json().data[0].revoked_at).toBeNull();
  });

  it('answers 404 for an unknown id or one that is not a key id, and 401 without a credential', async () => {
    const { apiKey } = await ctx.createAccount('Prober');
    for (const id of [UNKNOWN_ID, 'not-a-uuid', apiKey.slice(0, 12)]) {
      const response = await call(apiKey, 'DELETE', `${API_KEYS}/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    for (const method of ['GET', 'POST'] as const)
      expect((await ctx.app.inject({ method, url: API_KEYS })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url: `${API_KEYS}/${UNKNOWN_ID}` })).statusCode).toBe(401);
  });

  it('is not the operator’s route: the operator token is refused here', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: API_KEYS, headers: admin })).statusCode).toBe(401);
  });
});
