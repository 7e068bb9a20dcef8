import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { accessToken, AUTH_TOKEN, authed, SHIPMENTS, STORES } from '../../test/kit/http.js';
import { createStore } from '../../test/kit/stores.js';

// Issue 26: clients send `Content-Type: application/json` on every request, DELETE included, with
// no body. An empty body is no body: a route that takes none answers as without the header, and
// one that needs a body says so.

const JSON_TYPE = { 'content-type': 'application/json' };
const REQUIRED = 'A request body is required: send a JSON object';
const LOGIN = { username: 'empty-bodies', password: 'empty-bodies-password' };

let ctx: TestContext;
let apiKey: string;
useTestApp(async (made) => {
  ctx = made;
  ({ apiKey } = await ctx.createAccount('Empty Bodies', LOGIN));
});

describe('an empty body with Content-Type: application/json', () => {
  it('DELETE /client-stores/:id disconnects the store', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'empty-delete' });
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `${STORES}/${store.id}`,
      headers: { ...authed(apiKey), ...JSON_TYPE },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: store.id, status: 'disconnected' });
  });

  it('DELETE /auth-token revokes the token it presents', async () => {
    const token = await accessToken(ctx, LOGIN.username, LOGIN.password);
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: AUTH_TOKEN,
      headers: { authorization: `Bearer ${token}`, ...JSON_TYPE },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Access token revoked');
    const after = await ctx.app.inject({ method: 'GET', url: STORES, headers: { authorization: `Bearer ${token}` } });
    expect(after.statusCode).toBe(401);
  });

  it('GET /client-stores lists the stores', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: STORES,
      headers: { ...authed(apiKey), ...JSON_TYPE },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: [] });
  });

  it('POST /shipments, whose every parameter is optional, answers the first page', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { ...authed(apiKey), ...JSON_TYPE },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      data: [],
      meta: { current_page: 1, per_page: 20, total: 0, next_search_after: null },
    });
  });

  it('POST /client-stores, which needs a body, says so', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      headers: { ...authed(apiKey), ...JSON_TYPE },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'body_required', message: REQUIRED, errors: [REQUIRED] });
  });

  it('white space is not an empty body: it is malformed JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      headers: { ...authed(apiKey), ...JSON_TYPE },
      payload: '  ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Malformed JSON body');
  });
});
