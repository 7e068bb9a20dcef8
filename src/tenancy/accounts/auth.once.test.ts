import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { accessToken, admin, AUTH_TOKEN, authed, HOUR, STORES } from '../../../test/kit/http.js';
import { countRows, expectUnchanged } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { BOUNDARY, multipartBody } from '../../../test/kit/uploads.js';

const MISSING = 'Missing Authorization header: send "Authorization: Bearer <API key or access token>"';
const MALFORMED =
  'Malformed Authorization header: expected "Bearer <credential>", "Token <credential>" or the bare credential';
const INVALID = 'Invalid, revoked or expired credential';
const BAD_LOGIN = 'Invalid username or password';
const BASIC =
  'HTTP Basic authentication is not accepted: exchange the username and password for an access token with ' +
  'POST /custom/api/v1/auth-token {"username": "…", "password": "…"}, then send "Authorization: Bearer <token>" (or "Authorization: Bearer <API key>")';
/** The code of each refusal of a credential above. */
const CODE_OF: Record<string, string> = {
  [MISSING]: 'missing_credential',
  [MALFORMED]: 'malformed_credential',
  [INVALID]: 'invalid_credential',
  [BASIC]: 'basic_auth_not_accepted',
};
const PASSWORD = 'correct horse battery';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

let counter = 0;
/** An account with a login, its first API key and that key's id. */
async function newAccount() {
  const n = ++counter;
  const username = `user.${n}@example`;
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: admin,
    payload: { name: `Account ${n}`, username, password: PASSWORD },
  });
  expect(response.statusCode).toBe(201);
  const body = response.json();
  return { id: body.data.id as string, apiKey: body.api_key as string, apiKeyId: body.api_key_id as string, username };
}

const list = (authorization?: string) =>
  ctx.app.inject({ method: 'GET', url: STORES, headers: authorization === undefined ? {} : { authorization } });

const HEADER_FORMS: [string, (credential: string) => string][] = [
  ['bare', (c) => c],
  ['Bearer', (c) => `Bearer ${c}`],
  ['bearer', (c) => `bearer ${c}`],
  ['BEARER', (c) => `BEARER ${c}`],
  ['Bearer with extra white space', (c) => `  Bearer \t ${c}  `],
  ['Token', (c) => `Token ${c}`],
  ['token', (c) => `token ${c}`],
  ['TOKEN', (c) => `TOKEN ${c}`],
  ['Token with extra white space', (c) => `  Token \t ${c}  `],
];

describe('every header form (bare, Bearer, Token) with both credential kinds', () => {
  it.each(HEADER_FORMS)('an API key sent %s reaches its own account', async (_form, header) => {
    const account = await newAccount();
    const store = await createStore(ctx, account.apiKey, { store_name: 'key-form' });
    const response = await list(header(account.apiKey));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [store] });
  });

  it.each(HEADER_FORMS)('an access token sent %s reaches its own account', async (_form, header) => {
    const account = await newAccount();
    const store = await createStore(ctx, account.apiKey, { store_name: 'token-form' });
    const token = await accessToken(ctx, account.username, PASSWORD);
    const response = await list(header(token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [store] });
  });

  it('an access token works on every store route, for the same account as its API key', async () => {
    const account = await newAccount();
    const token = `Bearer ${await accessToken(ctx, account.username, PASSWORD)}`;
    const created = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      headers: { authorization: token },
      payload: { store_name: 'via-token' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const got = await ctx.app.inject({ method: 'GET', url: `${STORES}/${id}`, headers: authed(account.apiKey) });
    expect(got.json()).toEqual(created.json());
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${id}`,
      headers: { authorization: token },
      payload: { brand_name: 'Token Brand' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.brand_name).toBe('Token Brand');
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `${STORES}/${id}`,
      headers: { authorization: token },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.status).toBe('disconnected');
  });
});

describe('POST /custom/api/v1/auth-token', () => {
  it('answers {token, expires_at, expires_at_utc}: 24 hours on, in India time as Velocity writes it and in UTC; stores only a token row', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const account = await newAccount();
    const tokensBefore = await countRows(ctx.database, 'access_tokens');
    const response = await ctx.app.inject({
      method: 'POST',
      url: AUTH_TOKEN,
      payload: { username: account.username, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      token: expect.stringMatching(/^dkt_[A-Za-z0-9_-]{43}$/),
      expires_at: '2026-11-21T12:00:00',
      expires_at_utc: '2026-11-21T06:30:00.000Z',
    });
    expect(await countRows(ctx.database, 'access_tokens')).toBe(tokensBefore + 1);
  });

  it('writes expires_at on the India calendar day, not the UTC one', async () => {
    ctx.clock.set('2026-11-20T20:15:30.000Z');
    const account = await newAccount();
    const response = await ctx.app.inject({
      method: 'POST',
      url: AUTH_TOKEN,
      payload: { username: account.username, password: PASSWORD },
    });
    expect(response.json()).toEqual({
      token: expect.stringMatching(/^dkt_/),
      expires_at: '2026-11-22T01:45:30',
      expires_at_utc: '2026-11-21T20:15:30.000Z',
    });
  });

  it('ignores a body field it does not know, naming it in Dakiya-Ignored-Fields, and logs in', async () => {
    const account = await newAccount();
    const response = await ctx.app.inject({
      method: 'POST',
      url: AUTH_TOKEN,
      payload: { username: account.username, password: PASSWORD, scope: 'all' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('scope');
    expect((await list(response.json().token)).statusCode).toBe(200);
  });

  it('matches the username ignoring case, gives a new token each time, and needs no credential', async () => {
    const account = await newAccount();
    const first = await ctx.app.inject({
      method: 'POST',
      url: AUTH_TOKEN,
      headers: { authorization: 'not a credential at all' },
      payload: { username: account.username.toUpperCase(), password: PASSWORD },
    });
    expect(first.statusCode).toBe(200);
    const second = await accessToken(ctx, account.username, PASSWORD);
    expect(second).not.toBe(first.json().token);
    expect((await list(first.json().token)).statusCode).toBe(200);
    expect((await list(second)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown username with the same 401, writing nothing', async () => {
    const account = await newAccount();
    const wrongPassword = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({
        method: 'POST',
        url: AUTH_TOKEN,
        payload: { username: account.username, password: `${PASSWORD}!` },
      }),
    );
    const unknownUser = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'nobody-here', password: PASSWORD } }),
    );
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownUser.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
    expect(unknownUser.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
    expect(wrongPassword.headers['www-authenticate']).toBe('Bearer realm="dakiya"');
    expect(unknownUser.headers['www-authenticate']).toBe('Bearer realm="dakiya"');
  });

  it('refuses a login for an account created without one', async () => {
    const account = await ctx.createAccount('No Login');
    const response = await ctx.app.inject({
      method: 'POST',
      url: AUTH_TOKEN,
      payload: { username: account.id, password: PASSWORD },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
  });

  const json = { 'content-type': 'application/json' };
  it.each([
    [
      'missing password',
      { payload: { username: 'someone' } },
      400,
      {
        code: 'invalid_request',
        message: 'password is required',
        errors: ['password is required'],
        details: [{ field: 'password', message: 'password is required' }],
      },
    ],
    [
      'missing username',
      { payload: { password: PASSWORD } },
      400,
      {
        code: 'invalid_request',
        message: 'username is required',
        errors: ['username is required'],
        details: [{ field: 'username', message: 'username is required' }],
      },
    ],
    [
      'empty username',
      { payload: { username: '', password: PASSWORD } },
      400,
      {
        code: 'invalid_request',
        message: 'username must be at least 1 character long',
        errors: ['username must be at least 1 character long'],
        details: [{ field: 'username', message: 'username must be at least 1 character long' }],
      },
    ],
    [
      'username not a string',
      { payload: { username: ['+919876543210'], password: PASSWORD } },
      400,
      {
        code: 'invalid_request',
        message: 'username must be of type string',
        errors: ['username must be of type string'],
        details: [{ field: 'username', message: 'username must be of type string' }],
      },
    ],
    [
      'password not a string',
      { payload: { username: 'a', password: { value: PASSWORD } } },
      400,
      {
        code: 'invalid_request',
        message: 'password must be of type string',
        errors: ['password must be of type string'],
        details: [{ field: 'password', message: 'password must be of type string' }],
      },
    ],
    [
      'no body',
      {},
      400,
      {
        code: 'body_required',
        message: 'A request body is required: send a JSON object',
        errors: ['A request body is required: send a JSON object'],
      },
    ],
    [
      'malformed JSON',
      { headers: json, payload: '{"username": "a",' },
      400,
      { code: 'malformed_json', message: 'Malformed JSON body', errors: ['Malformed JSON body'] },
    ],
    [
      'text/plain',
      { headers: { 'content-type': 'text/plain' }, payload: 'username=a&password=b' },
      415,
      {
        code: 'unsupported_media_type',
        message: 'Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)',
        errors: ['Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)'],
      },
    ],
    [
      'a body over 1 MiB',
      { headers: json, payload: JSON.stringify({ username: 'a', password: 'x'.repeat(1024 * 1024) }) },
      413,
      { code: 'body_too_large', message: 'Request body is too large', errors: ['Request body is too large'] },
    ],
  ])('answers %s with its status, naming the problem, and writes nothing', async (_label, request, status, body) => {
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, ...request }),
    );
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
  });
});

describe('access token expiry (injected clock)', () => {
  it('is valid until one second before 24 hours, then refused, even when a check was just cached', async () => {
    const account = await newAccount();
    const token = await accessToken(ctx, account.username, PASSWORD);
    expect((await list(token)).statusCode).toBe(200);

    ctx.clock.advance(24 * HOUR - 1000);
    // This check is remembered for up to 5 s, but never past the token's expiry one second later.
    expect((await list(`Bearer ${token}`)).statusCode).toBe(200);

    ctx.clock.advance(1000);
    const expired = await list(`Bearer ${token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 'invalid_credential', message: INVALID, errors: [INVALID] });
    expect((await list(token)).statusCode).toBe(401);

    // API keys do not expire.
    expect((await list(account.apiKey)).statusCode).toBe(200);
    // A fresh login works again.
    expect((await list(await accessToken(ctx, account.username, PASSWORD))).statusCode).toBe(200);
  });
});

describe('revoked API keys', () => {
  const revoke = (idOrPrefix: string) =>
    ctx.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${idOrPrefix}`, headers: admin });

  it.each([
    ['its id', (key: { apiKey: string; apiKeyId: string }) => key.apiKeyId],
    ['its first 12 characters', (key: { apiKey: string; apiKeyId: string }) => key.apiKey.slice(0, 12)],
  ])('revoked by %s is refused at once, while the account keeps its other credentials', async (_by, name) => {
    const account = await newAccount();
    const second = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${account.id}/api-keys`,
      headers: admin,
    });
    const token = await accessToken(ctx, account.username, PASSWORD);
    // Used (and so cached) just before the revocation.
    expect((await list(account.apiKey)).statusCode).toBe(200);

    const revoked = await revoke(name(account));
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({
      data: { id: account.apiKeyId, prefix: account.apiKey.slice(0, 12), revoked_at: ctx.clock.now().toISOString() },
    });

    for (const header of [account.apiKey, `Bearer ${account.apiKey}`]) {
      const refused = await list(header);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ code: 'invalid_credential', message: INVALID, errors: [INVALID] });
    }
    expect((await list(second.json().api_key)).statusCode).toBe(200);
    expect((await list(token)).statusCode).toBe(200);
  });

  it('keeps the first revocation time when revoked again', async () => {
    const account = await newAccount();
    const first = await revoke(account.apiKeyId);
    ctx.clock.advance(60_000);
    const again = await revoke(account.apiKey.slice(0, 12));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it.each(['dky_nothing1', '11111111-2222-4333-8444-555555555555'])(
    'answers 404 for an unknown key %s, changing nothing',
    async (name) => {
      const response = await expectUnchanged(ctx.database, () => revoke(name));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'api_key_not_found',
        message: 'API key not found',
        errors: ['API key not found'],
      });
    },
  );
});

describe('missing, malformed or unknown credential', () => {
  it.each([
    ['no header', undefined, MISSING],
    ['an empty header', '', MISSING],
    ['white space only', '   ', MISSING],
    ['Basic credentials (curl -u)', 'Basic dXNlcjpwYXNzd29yZA==', BASIC],
    ['Basic in lower case', 'basic dXNlcjpwYXNzd29yZA==', BASIC],
    ['"Bearer" alone', 'Bearer', MALFORMED],
    ['"Bearer" and spaces', 'Bearer    ', MALFORMED],
    ['"Bearer" twice', 'Bearer Bearer', MALFORMED],
    ['"Bearer" and a credential over 512 characters', `Bearer dky_${'a'.repeat(600)}`, MALFORMED],
    ['garbage with spaces', 'let me in please', MALFORMED],
    ['Bearer and two words', 'Bearer dky_abc dky_def', MALFORMED],
    ['another scheme', 'Digest dky_abcdef', MALFORMED],
    ['"Token" alone', 'Token', MALFORMED],
    ['"Token" twice', 'Token Token', MALFORMED],
    ['Token and two words', 'Token dky_abc dky_def', MALFORMED],
    ['an unknown API key as Token', `Token dky_${'A'.repeat(43)}`, INVALID],
    ['non-ASCII', 'dky_clé', MALFORMED],
    ['over 512 characters', `dky_${'a'.repeat(600)}`, MALFORMED],
    ['an unknown API key', `dky_${'A'.repeat(43)}`, INVALID],
    ['an unknown access token', `Bearer dkt_${'B'.repeat(43)}`, INVALID],
    ['the admin token', `Bearer test-admin-token-0123456789`, INVALID],
  ])('%s → 401', async (_label, header, message) => {
    const response = await list(header);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: CODE_OF[message], message, errors: [message] });
    // RFC 6750 3: no error code when no bearer credential came, else which fault it was.
    const error =
      message === MALFORMED ? ', error="invalid_request"' : message === INVALID ? ', error="invalid_token"' : '';
    expect(response.headers['www-authenticate']).toBe(`Bearer realm="dakiya"${error}`);
  });

  it('guards every store route, before reading the body, and changes nothing', async () => {
    const account = await newAccount();
    const store = await createStore(ctx, account.apiKey, { store_name: 'guarded' });
    const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    const routes = [
      { method: 'GET' as const, url: STORES },
      { method: 'GET' as const, url: `${STORES}/${store.id}` },
      { method: 'POST' as const, url: STORES, payload: { store_name: 'sneaky' } },
      {
        method: 'POST' as const,
        url: STORES,
        headers: multipart,
        payload: multipartBody([{ name: 'store_name', value: 'sneaky' }]),
      },
      { method: 'POST' as const, url: STORES, headers: { 'content-type': 'text/plain' }, payload: 'not even JSON' },
      { method: 'PUT' as const, url: `${STORES}/${store.id}`, payload: { store_name: 'renamed' } },
      { method: 'DELETE' as const, url: `${STORES}/${store.id}` },
    ];
    for (const route of routes) {
      for (const [authorization, message] of [
        [undefined, MISSING],
        ['Basic abc def', BASIC],
        ['Token', MALFORMED],
        ['token   ', MALFORMED],
        [`Token ${account.apiKey}x`, INVALID],
        [`dky_${'C'.repeat(43)}`, INVALID],
      ] as const) {
        const headers = { ...route.headers, ...(authorization && { authorization }) };
        const response = await expectUnchanged(ctx.database, () => ctx.app.inject({ ...route, headers }));
        expect(response.statusCode, `${route.method} ${route.url} with ${authorization}`).toBe(401);
        expect(response.json()).toEqual({ code: CODE_OF[message], message, errors: [message] });
      }
    }
  });
});
