import { describe, expect, it } from 'vitest';
import { type TestContext, testSettings } from '../../../test/app.js';
import { accessToken, admin, RATES } from '../../../test/kit/http.js';
import { forward, INVALID, MALFORMED, MISSING, PASSWORD, useRatesApp } from '../../../test/rates-quotes.js';
import { buildApp } from '../../app.js';
import { CREDENTIAL_CACHE_TTL_MS } from '../../tenancy/accounts/credential-cache.js';

let ctx: TestContext;
let apiKey: string;
let accountId: string;
const { post, quote } = useRatesApp((app, account) => {
  ctx = app;
  apiKey = account.apiKey;
  accountId = account.id;
});

describe('POST /rates: authentication', () => {
  it.each([
    ['bare API key', (key: string) => key],
    ['Bearer API key', (key: string) => `Bearer ${key}`],
    ['lower-case bearer', (key: string) => `bearer ${key}`],
  ])('accepts the %s', async (_form, header) => {
    const response = await post(RATES, forward(), header(apiKey));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await quote(forward()));
  });

  it('accepts an access token, bare and as Bearer', async () => {
    const token = await accessToken(ctx, 'rates.user', PASSWORD);
    for (const header of [token, `Bearer ${token}`]) {
      const response = await post(RATES, forward(), header);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('SUCCESS');
    }
  });

  it.each([
    ['no Authorization header', null, 'missing_credential', MISSING],
    ['an empty header', '', 'missing_credential', MISSING],
    ['"Bearer" alone', 'Bearer', 'malformed_credential', MALFORMED],
    ['another scheme', 'Digest dXNlcjpwYXNz', 'malformed_credential', MALFORMED],
    ['an unknown key', 'dky_not-a-real-key', 'invalid_credential', INVALID],
    ['an unknown Bearer key', 'Bearer dky_not-a-real-key', 'invalid_credential', INVALID],
  ])('answers 401 for %s', async (_case, header, code, message) => {
    const response = await post(RATES, forward(), header);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code, message, errors: [message] });
  });

  it('checks the credential before the body: no credential and malformed JSON is 401', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: RATES,
      headers: { 'content-type': 'application/json' },
      payload: '{"journey_type":',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'missing_credential', message: MISSING, errors: [MISSING] });
  });

  it('a key revoked through this process is refused at once, despite the credential cache', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${accountId}/api-keys`,
      headers: admin,
    });
    expect(issued.statusCode).toBe(201);
    const { api_key: key, api_key_id: keyId } = issued.json();
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200); // now cached
    const revoked = await ctx.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: admin });
    expect(revoked.statusCode).toBe(200);
    const after = await post(RATES, forward(), `Bearer ${key}`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 'invalid_credential', message: INVALID, errors: [INVALID] });
    // The account's other key is untouched.
    expect((await post(RATES, forward())).statusCode).toBe(200);
  });

  it('a key revoked through another process (the CLI, a second instance) is honoured within the 1 s credential cache, with no lookup per request before that', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${accountId}/api-keys`,
      headers: admin,
    });
    const { api_key: key, api_key_id: keyId } = issued.json();
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200); // now cached
    // What `npm run cli` does: its own app on the same database, with its own credential cache.
    const elsewhere = await buildApp({ db: ctx.database.db, clock: ctx.clock, settings: testSettings() });
    try {
      const revoked = await elsewhere.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: admin });
      expect(revoked.statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
    // Still answered from the cache, so the database was not asked: the revocation is not seen yet.
    ctx.clock.advance(CREDENTIAL_CACHE_TTL_MS - 1);
    expect((await post(RATES, forward(), `Bearer ${key}`)).statusCode).toBe(200);
    ctx.clock.advance(1);
    const after = await post(RATES, forward(), `Bearer ${key}`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 'invalid_credential', message: INVALID, errors: [INVALID] });
  });
});
