import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, FORWARD_ORDER, ORDER_TRACKING, STORES, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { orderBody } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { PERMISSION_NAMES, type Permission } from '../../domain/access/permissions.js';
import { BUYER_DOCUMENTS, ROUTE_PERMISSIONS } from '../../route-permissions.js';

// Scoped API keys (issue 51): every route of the account API needs the permission the one table
// names (src/route-permissions.ts), checked by one hook before the route's own checks; a key made
// without scopes, like every key before them, holds them all.

const API_KEYS = `${V1}/api-keys`;
let ctx: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Scopes Owner');
});
afterAll(async () => {
  await ctx.close();
});

async function makeKey(credential: string, body: object) {
  const made = await ctx.app.inject({ method: 'POST', url: API_KEYS, headers: authed(credential), payload: body });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data as { api_key: string; scopes: string[] | null; name: string | null; expires_at: string };
}

/** A path of the route with each parameter filled: the guard answers before any parameter is read. */
const pathOf = (route: string) => `${V1}${route.replace(/:[a-z_]+/g, UNKNOWN_ID)}`;

describe('a scoped API key', () => {
  it('is refused on every route whose permission it lacks, with the permission named, and let through where it holds it', async () => {
    const without = new Map<Permission, string>();
    const only = new Map<Permission, string>();
    for (const permission of PERMISSION_NAMES) {
      const others = PERMISSION_NAMES.filter((p) => p !== permission);
      without.set(permission, (await makeKey(owner.apiKey, { name: `all but ${permission}`, scopes: others })).api_key);
      only.set(permission, (await makeKey(owner.apiKey, { scopes: [permission] })).api_key);
    }
    // Each permission guards some route (buyers:read the answers printing buyers' details, and
    // the masking of every other): none is a name without effect.
    expect(new Set([...ROUTE_PERMISSIONS.values(), 'buyers:read'])).toEqual(new Set(PERMISSION_NAMES));
    const withBuyers = new Map<Permission, string>();
    for (const [route, permission] of ROUTE_PERMISSIONS) {
      const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const send = (key: string) =>
        ctx.app.inject({
          method,
          url: pathOf(path),
          headers: authed(key),
          ...(method !== 'GET' && method !== 'DELETE' && { payload: {} }),
        });
      const refused = await send(without.get(permission)!);
      expect([route, refused.statusCode, refused.json()]).toEqual([
        route,
        403,
        {
          code: 'permission_denied',
          message: `This credential lacks the permission ${permission}`,
          errors: [`This credential lacks the permission ${permission}`],
          details: [{ field: 'authorization', message: `This credential lacks the permission ${permission}` }],
        },
      ]);
      // Holding just that permission, the route's own checks answer (a 400, a 404, a 200): never a
      // 403 for scope; an answer printing buyers' details needs buyers:read beside it.
      if (BUYER_DOCUMENTS.has(route)) {
        const printed = await send(only.get(permission)!);
        expect([route, printed.statusCode, printed.json().message]).toEqual([
          route,
          403,
          "This answer prints buyers' details: the credential lacks the permission buyers:read",
        ]);
        if (!withBuyers.has(permission))
          withBuyers.set(permission, (await makeKey(owner.apiKey, { scopes: [permission, 'buyers:read'] })).api_key);
      }
      const letThrough = await send((BUYER_DOCUMENTS.has(route) ? withBuyers : only).get(permission)!);
      const code = String(letThrough.headers['content-type']).startsWith('application/json')
        ? letThrough.json().code
        : null;
      expect([route, code]).not.toEqual([route, 'permission_denied']);
    }
  });

  it('writes nothing when refused, and books when it holds shipments:write', async () => {
    const { id, apiKey } = await ctx.createAccount('Refused Writer');
    const warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi');
    const reader = await makeKey(apiKey, { name: 'Dashboard', scopes: ['shipments:read', 'tracking:read'] });
    const booking = orderBody(warehouseId, { order_id: 'SCOPE-1' });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: FORWARD_ORDER,
      headers: authed(reader.api_key),
      payload: booking,
    });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'permission_denied']);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from orders where account_id = ${id}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
    const tracked = await ctx.app.inject({
      method: 'POST',
      url: ORDER_TRACKING,
      headers: authed(reader.api_key),
      payload: { awbs: ['UNKNOWN1'] },
    });
    expect(tracked.statusCode).not.toBe(403);
    const writer = await makeKey(apiKey, { scopes: ['shipments:write'] });
    const booked = await ctx.app.inject({
      method: 'POST',
      url: FORWARD_ORDER,
      headers: authed(writer.api_key),
      payload: booking,
    });
    expect(booked.statusCode, booked.body).toBe(200);
  });

  it('never makes a key holding more than itself; without scopes, a new key holds its maker’s', async () => {
    const admin = await makeKey(owner.apiKey, { name: 'Settings robot', scopes: ['settings:read', 'settings:write'] });
    expect(admin).toMatchObject({ name: 'Settings robot', scopes: ['settings:read', 'settings:write'] });
    const beyond = await ctx.app.inject({
      method: 'POST',
      url: API_KEYS,
      headers: authed(admin.api_key),
      payload: { scopes: ['settings:read', 'money:write', 'shipments:write'] },
    });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json()).toMatchObject({
      code: 'permission_denied',
      details: [
        { field: 'scopes.1', message: "money:write is beyond this credential's own scopes" },
        { field: 'scopes.2', message: "shipments:write is beyond this credential's own scopes" },
      ],
    });
    expect((await makeKey(admin.api_key, {})).scopes).toEqual(['settings:read', 'settings:write']);
    expect((await makeKey(admin.api_key, { scopes: ['settings:read'] })).scopes).toEqual(['settings:read']);
    // The owner's key (no scopes) makes any.
    expect((await makeKey(owner.apiKey, {})).scopes).toBeNull();
    // A key without settings:write makes none.
    const reader = await makeKey(owner.apiKey, { scopes: ['shipments:read'] });
    const none = await ctx.app.inject({ method: 'POST', url: API_KEYS, headers: authed(reader.api_key), payload: {} });
    expect(none.json().message).toBe('This credential lacks the permission settings:write');
  });

  it('stops working when it expires, and refuses an end in the past or a scope that does not exist', async () => {
    ctx.clock.set('2026-11-26T10:00:00.000Z');
    const { apiKey } = await ctx.createAccount('Temporary Access');
    const temporary = await makeKey(apiKey, { name: '3PL for the sale', expires_at: '2026-11-26T12:00:00Z' });
    expect(temporary).toMatchObject({ scopes: null, expires_at: '2026-11-26T12:00:00.000Z' });
    const stores = () => ctx.app.inject({ method: 'GET', url: STORES, headers: authed(temporary.api_key) });
    expect((await stores()).statusCode).toBe(200);
    ctx.clock.set('2026-11-26T12:00:00.000Z');
    const ended = await stores();
    expect([ended.statusCode, ended.json().code]).toEqual([401, 'invalid_credential']);

    for (const [body, field, code] of [
      [{ expires_at: '2026-11-26T11:59:59Z' }, 'expires_at', 'api_key_expiry_past'],
      [{ expires_at: 'next week' }, 'expires_at', 'invalid_request'],
      [{ scopes: ['shipments:delete'] }, 'scopes.0', 'invalid_request'],
      [{ scopes: ['money:read', 'money:read'] }, 'scopes', 'invalid_request'],
      [{ name: '' }, 'name', 'invalid_request'],
    ] as const) {
      const refused = await ctx.app.inject({ method: 'POST', url: API_KEYS, headers: authed(apiKey), payload: body });
      expect([JSON.stringify(body), refused.statusCode, refused.json().code]).toEqual([
        JSON.stringify(body),
        400,
        code,
      ]);
      expect(refused.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});
