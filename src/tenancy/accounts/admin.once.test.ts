import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ADMIN_DISABLED } from '../../http/server.settings.js';
import { ADMIN_TOKEN, useTestApp, type TestContext, testSettings } from '../../../test/app.js';
import { admin, authed, STORES, UNKNOWN_ID, UUID } from '../../../test/kit/http.js';
import { countRows, expectUnchanged } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';

const OPERATOR_ONLY = 'Operator routes need "Authorization: Bearer <ADMIN_TOKEN>"';
const API_KEY = /^dky_[A-Za-z0-9_-]{43}$/;
const USERNAME_RULE = 'username must be an Indian mobile number (+919876543210) or 3 to 64 letters, digits or . _ @ -';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const createAccount = (payload: unknown, headers: Record<string, string> = admin) =>
  ctx.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers, payload: payload as object });

const fieldError = (field: string, message: string, code = 'invalid_request') => ({
  code,
  message,
  errors: [message],
  details: [{ field, message }],
});

describe('POST /admin/v1/accounts', () => {
  it('creates an account with a login and answers {data: {id, name, username}, api_key, api_key_id}', async () => {
    const before = await countRows(ctx.database, 'api_keys');
    const response = await createAccount({
      name: '  Acme Apparel  ',
      username: 'Acme.Ops',
      password: 'a long password',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      data: { id: expect.stringMatching(UUID), name: 'Acme Apparel', username: 'Acme.Ops' },
      api_key: expect.stringMatching(API_KEY),
      api_key_id: expect.stringMatching(UUID),
    });
    expect(Object.keys(body.data).sort()).toEqual(['id', 'name', 'username']);
    expect(await countRows(ctx.database, 'api_keys')).toBe(before + 1);

    const stores = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(body.api_key) });
    expect(stores.statusCode).toBe(200);
    expect(stores.json()).toEqual({ data: [] });
  });

  it('creates an account without a login (username null)', async () => {
    const response = await createAccount({ name: 'Keys Only' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: { id: expect.stringMatching(UUID), name: 'Keys Only', username: null },
      api_key: expect.stringMatching(API_KEY),
      api_key_id: expect.stringMatching(UUID),
    });
  });

  it('refuses a username already taken, also in another case, creating nothing', async () => {
    expect(
      (await createAccount({ name: 'First', username: 'shared.login', password: 'password-one' })).statusCode,
    ).toBe(201);
    for (const username of ['shared.login', 'SHARED.Login']) {
      const response = await expectUnchanged(ctx.database, () =>
        createAccount({ name: 'Second', username, password: 'password-two' }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(fieldError('username', 'Username has already been taken', 'username_taken'));
    }
  });

  it.each([
    [
      'username without password',
      { name: 'X', username: 'lonely-user' },
      fieldError('password', 'username and password must be given together'),
    ],
    [
      'password without username',
      { name: 'X', password: 'lonely password' },
      fieldError('username', 'username and password must be given together'),
    ],
    ['no name', {}, fieldError('name', 'name is required')],
    [
      'an empty name',
      { name: '' },
      fieldError(
        'name',
        'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
      ),
    ],
    [
      'a blank name',
      { name: '   ' },
      fieldError(
        'name',
        'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
      ),
    ],
    [
      'a name over 200 characters',
      { name: 'n'.repeat(201) },
      fieldError(
        'name',
        'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
      ),
    ],
    [
      'a short username',
      { name: 'X', username: 'ab', password: 'password-123' },
      fieldError('username', USERNAME_RULE),
    ],
    [
      'a username with a space',
      { name: 'X', username: 'a b c', password: 'password-123' },
      fieldError('username', USERNAME_RULE),
    ],
    [
      'a short password',
      { name: 'X', username: 'short-pass', password: 'short' },
      fieldError('password', 'password must be 8 to 200 characters'),
    ],
    ['an unknown field', { name: 'X', role: 'root' }, fieldError('role', 'role is not a known field')],
  ])('answers %s with 400, creating nothing', async (_label, payload, body) => {
    const response = await expectUnchanged(ctx.database, () => createAccount(payload));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(body);
  });
});

describe('POST /admin/v1/accounts/:id/api-keys', () => {
  it('issues another working key for the account: {api_key, api_key_id}', async () => {
    const account = await ctx.createAccount('Two Keys');
    const store = await createStore(ctx, account.apiKey, { store_name: 'two-keys' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${account.id}/api-keys`,
      headers: admin,
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({ api_key: expect.stringMatching(API_KEY), api_key_id: expect.stringMatching(UUID) });
    expect(body.api_key).not.toBe(account.apiKey);

    for (const key of [account.apiKey, body.api_key]) {
      const stores = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(key) });
      expect(stores.json()).toEqual({ data: [store] });
    }
  });

  it.each([
    ['an unknown account id', UNKNOWN_ID],
    ['a non-UUID account id', 'not-a-uuid'],
  ])('answers 404 for %s, creating nothing', async (_label, id) => {
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({ method: 'POST', url: `/admin/v1/accounts/${id}/api-keys`, headers: admin }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 'account_not_found',
      message: 'Account not found',
      errors: ['Account not found'],
    });
  });
});

describe('operator authorisation', () => {
  const routes = [
    { method: 'POST' as const, url: '/admin/v1/accounts', payload: { name: 'Intruder' } },
    { method: 'POST' as const, url: `/admin/v1/accounts/${UNKNOWN_ID}/api-keys` },
    { method: 'DELETE' as const, url: '/admin/v1/api-keys/dky_abcdefgh' },
  ];

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', 'Bearer test-admin-token-0123456780'],
    ['the token with a suffix', `Bearer ${ADMIN_TOKEN}x`],
    ['the bare token without Bearer', ADMIN_TOKEN],
    ['"Bearer" alone', 'Bearer'],
  ])('refuses %s on every operator route with 401, changing nothing', async (_label, authorization) => {
    for (const route of routes) {
      const response = await expectUnchanged(ctx.database, () =>
        ctx.app.inject({ ...route, headers: authorization === undefined ? {} : { authorization } }),
      );
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.json()).toEqual({
        code: 'invalid_operator_token',
        message: OPERATOR_ONLY,
        errors: [OPERATOR_ONLY],
      });
      const sent = authorization?.startsWith('Bearer ');
      expect(response.headers['www-authenticate']).toBe(
        `Bearer realm="dakiya-operator"${sent ? ', error="invalid_token"' : ''}`,
      );
    }
  });

  it('refuses HTTP Basic (curl -u) on every operator route, saying what to send instead', async () => {
    const message = 'HTTP Basic authentication is not accepted: send "Authorization: Bearer <ADMIN_TOKEN>"';
    for (const route of routes) {
      const authorization = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;
      const response = await expectUnchanged(ctx.database, () =>
        ctx.app.inject({ ...route, headers: { authorization } }),
      );
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.json()).toEqual({ code: 'basic_auth_not_accepted', message, errors: [message] });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="dakiya-operator"');
    }
  });

  it("refuses an account's API key", async () => {
    const account = await ctx.createAccount('Not An Operator');
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: { authorization: `Bearer ${account.apiKey}` },
        payload: { name: 'X' },
      }),
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      code: 'invalid_operator_token',
      message: OPERATOR_ONLY,
      errors: [OPERATOR_ONLY],
    });
  });

  it('accepts any case of Bearer', async () => {
    const response = await createAccount({ name: 'Lower Case' }, { authorization: `bearer ${ADMIN_TOKEN}` });
    expect(response.statusCode).toBe(201);
  });
});

describe('without ADMIN_TOKEN', () => {
  it('answers every operator route with a 404 saying ADMIN_TOKEN enables it, while the rest of the API works on the same database', async () => {
    const app = await buildApp({
      db: ctx.database.db,
      clock: ctx.clock,
      settings: testSettings({ server: { adminToken: undefined } }),
    });
    try {
      for (const route of [
        { method: 'POST' as const, url: '/admin/v1/accounts', payload: { name: 'X' } },
        { method: 'POST' as const, url: `/admin/v1/accounts/${UNKNOWN_ID}/api-keys` },
        { method: 'DELETE' as const, url: '/admin/v1/api-keys/dky_abcdefgh' },
        { method: 'POST' as const, url: '/admin/v1/carrier-tokens', payload: { carrier_id: 'x' } },
      ]) {
        const response = await expectUnchanged(ctx.database, () => app.inject({ ...route, headers: admin }));
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'api_not_served', message: ADMIN_DISABLED, errors: [ADMIN_DISABLED] });
      }
      const anonymous = await app.inject({ method: 'GET', url: '/admin/v1/accounts' });
      expect(anonymous.statusCode).toBe(404);
      expect(anonymous.json().message).toBe(ADMIN_DISABLED);
      const account = await ctx.createAccount('Made Elsewhere');
      const stores = await app.inject({ method: 'GET', url: STORES, headers: authed(account.apiKey) });
      expect(stores.statusCode).toBe(200);
      expect(stores.json()).toEqual({ data: [] });
    } finally {
      await app.close();
    }
  });
});
