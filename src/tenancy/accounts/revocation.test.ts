import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { accessToken, admin, AUTH_TOKEN, authed, STORES } from '../../../test/kit/http.js';
import { CREDENTIAL_CACHE_TTL_MS } from './credential-cache.js';

const PASSWORD = 'correct horse battery';
const INVALID = {
  code: 'invalid_credential',
  message: 'Invalid, revoked or expired credential',
  errors: ['Invalid, revoked or expired credential'],
};

// Two app instances on one database, each with its own credential cache and clock, as two API processes have.
let one: TestContext;
let two: TestContext;
beforeAll(async () => {
  one = await createTestApp();
  two = await createTestApp({ database: one.database });
});
afterAll(async () => {
  await two.app.close();
  await one.close();
});

let counter = 0;
async function newLogin() {
  const username = `revoker.${++counter}`;
  const account = await one.createAccount(username, { username, password: PASSWORD });
  return { ...account, username, token: await accessToken(one, username, PASSWORD) };
}
const list = (ctx: TestContext, credential: string) =>
  ctx.app.inject({ method: 'GET', url: STORES, headers: authed(credential) });
const revoke = (ctx: TestContext, credential: string) =>
  ctx.app.inject({ method: 'DELETE', url: AUTH_TOKEN, headers: authed(credential) });

describe('DELETE /custom/api/v1/auth-token', () => {
  it('revokes the access token it is sent with, at once in this process, leaving other tokens and keys alone', async () => {
    const account = await newLogin();
    const other = await accessToken(one, account.username, PASSWORD);
    expect((await list(one, account.token)).statusCode).toBe(200);

    const response = await revoke(one, account.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Access token revoked', revoked_at: one.clock.now().toISOString() });

    const refused = await list(one, account.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(INVALID);
    expect((await revoke(one, account.token)).statusCode).toBe(401);
    expect((await list(one, other)).statusCode).toBe(200);
    expect((await list(one, account.apiKey)).statusCode).toBe(200);
  });

  it('refuses an API key with 422: keys are revoked by id', async () => {
    const { apiKey } = await newLogin();
    const response = await revoke(one, apiKey);
    expect(response.statusCode).toBe(422);
    const message = 'Only an access token can be revoked here; revoke an API key with DELETE /api-keys/{id}';
    expect(response.json()).toEqual({ code: 'not_an_access_token', message, errors: [message] });
    expect((await list(one, apiKey)).statusCode).toBe(200);
  });

  it('answers 401 without a credential', async () => {
    const response = await one.app.inject({ method: 'DELETE', url: AUTH_TOKEN });
    expect(response.statusCode).toBe(401);
  });
});

describe('a revocation made through another process', () => {
  it.each([
    [
      'an access token (DELETE /auth-token)',
      async (account: Awaited<ReturnType<typeof newLogin>>) => ({
        credential: account.token,
        response: await revoke(one, account.token),
      }),
    ],
    [
      'an API key (operator API)',
      async (account: Awaited<ReturnType<typeof newLogin>>) => ({
        credential: account.apiKey,
        response: await one.app.inject({
          method: 'DELETE',
          url: `/admin/v1/api-keys/${account.apiKey.slice(0, 12)}`,
          headers: admin,
        }),
      }),
    ],
  ])('stops %s within a second', async (_label, revokeThroughOne) => {
    expect(CREDENTIAL_CACHE_TTL_MS).toBeLessThanOrEqual(1_000);
    const account = await newLogin();
    two.clock.set(one.clock.now().toISOString());
    const credential = { token: account.token, key: account.apiKey };
    // Process two checks the credential and remembers the answer.
    expect((await list(two, credential.token)).statusCode).toBe(200);
    expect((await list(two, credential.key)).statusCode).toBe(200);

    const { credential: revoked, response } = await revokeThroughOne(account);
    expect(response.statusCode).toBe(200);
    // Within the cache's lifetime process two may still answer from memory...
    two.clock.advance(CREDENTIAL_CACHE_TTL_MS - 1);
    expect((await list(two, revoked)).statusCode).toBe(200);
    // ...and no later than one second after, it asks the database again.
    two.clock.advance(1);
    expect((await list(two, revoked)).statusCode).toBe(401);
  });
});
