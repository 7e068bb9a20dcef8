import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { AUTH_TOKEN, authed, ORCHESTRATE, post, STORES } from '../../test/kit/http.js';
import { labelPath } from '../../test/kit/labels.js';
import { orderBodyFromFields } from '../../test/kit/orders.js';
import { createStore, logoPath } from '../../test/kit/stores.js';
import { png } from '../../test/kit/uploads.js';
import { createCityWarehouse } from '../../test/kit/warehouses.js';

// Issue 24, point 9: every answer says nosniff; the account's answers, the docs and errors are not
// stored by caches, while the public assets meant to be cached (store logos, a label behind its
// link) keep their own Cache-Control. And a method no route takes (QUERY, PROPFIND) on a known path
// is a 405 with Allow, not Fastify's 400 about the body's Content-Type.

let ctx: TestContext;
let apiKey: string;
let port: number;
const LOGIN = { username: 'headers-user', password: 'headers-password-1' };
useTestApp(async (made) => {
  ctx = made;
  ({ apiKey } = await ctx.createAccount('Headers', LOGIN));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as { port: number }).port;
});

/** A request over a socket: app.inject (light-my-request) refuses methods like QUERY before sending them. */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('answer headers', () => {
  it('nosniff and no-store on authenticated JSON answers, the login, errors, the docs and the OpenAPI document', async () => {
    const answers = {
      stores: await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) }),
      login: await ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: LOGIN }),
      unauthenticated: await ctx.app.inject({ method: 'GET', url: STORES }),
      invalid: await post(ctx, apiKey, STORES, { store_name: '' }),
      unknown: await ctx.app.inject({ method: 'GET', url: '/nowhere' }),
      undecodable: await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/client-stores/%E0%A4%A' }),
      docs: await ctx.app.inject({ method: 'GET', url: '/docs' }),
      openapi: await ctx.app.inject({ method: 'GET', url: '/openapi.json' }),
      admin: await ctx.app.inject({
        method: 'GET',
        url: '/admin/v1/accounts',
        headers: { authorization: 'Bearer test-admin-token-0123456789' },
      }),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, r]) => [
        name,
        [r.statusCode, r.headers['x-content-type-options'], r.headers['cache-control']],
      ]),
    );
    expect(seen).toEqual({
      stores: [200, 'nosniff', 'no-store'],
      login: [200, 'nosniff', 'no-store'],
      unauthenticated: [401, 'nosniff', 'no-store'],
      invalid: [400, 'nosniff', 'no-store'],
      unknown: [404, 'nosniff', 'no-store'],
      undecodable: [400, 'nosniff', 'no-store'],
      docs: [200, 'nosniff', 'no-store'],
      openapi: [200, 'nosniff', 'no-store'],
      admin: [seen.admin![0], 'nosniff', 'no-store'],
    });
  });

  it('store logos and labels keep their caching, with nosniff; the tracking page stays no-store', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'cached-logo', logo: png().toString('base64') });
    const logo = await ctx.app.inject({ method: 'GET', url: logoPath(store.logo_url!) });
    expect([logo.statusCode, logo.headers['cache-control'], logo.headers['x-content-type-options']]).toEqual([
      200,
      'public, max-age=31536000, immutable',
      'nosniff',
    ]);
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const booked = (
      await post(ctx, apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
    ).json().payload;
    const label = await ctx.app.inject({ method: 'GET', url: labelPath(booked.label_url) });
    expect([label.statusCode, label.headers['cache-control'], label.headers['x-content-type-options']]).toEqual([
      200,
      'private, max-age=300',
      'nosniff',
    ]);
    const page = await ctx.app.inject({ method: 'GET', url: new URL(booked.track_url).pathname });
    expect([page.statusCode, page.headers['cache-control'], page.headers['x-content-type-options']]).toEqual([
      200,
      'no-store',
      'nosniff',
    ]);
  });
});

describe('methods no route takes', () => {
  it.each([
    ['QUERY', {}, undefined],
    ['QUERY', { 'content-type': 'application/json' }, '{"store_name":"x"}'],
    ['QUERY', { 'content-type': 'text/plain' }, 'store_name=x'],
    ['PROPFIND', {}, undefined],
    ['PATCH', { 'content-type': 'application/json' }, '{}'],
  ] as const)('%s %j on a known path: 405 with Allow', async (method, headers, body) => {
    const response = await send(method, STORES, { ...authed(apiKey), ...headers }, body);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    const message = `Method ${method} is not allowed on ${STORES}: use GET, HEAD, POST`;
    expect(JSON.parse(response.body)).toEqual({ code: 'method_not_allowed', message, errors: [message] });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('QUERY on a path with a parameter names the methods of its pattern; on an unknown path it is a 404', async () => {
    const known = await send(
      'QUERY',
      `${STORES}/00000000-0000-4000-8000-000000000000`,
      { 'content-type': 'application/json' },
      '{}',
    );
    expect([known.status, known.headers.allow]).toEqual([405, 'GET, HEAD, PUT, DELETE']);
    const unknown = await send('QUERY', '/nowhere', { 'content-type': 'application/json' }, '{}');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).message).toBe('Route QUERY /nowhere not found');
  });
});
