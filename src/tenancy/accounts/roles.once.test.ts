import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';

// An account's own roles (issue 51): defined from the same permission list, never beyond the
// definer; given to members like a built-in role; a change reaches their sessions and keys at
// once; a role a member holds cannot be deleted; another account sees none of them.

const ROLES = `${V1}/roles`;
const MEMBERS = `${V1}/members`;
const PACKING = ['shipments:read', 'shipments:write', 'tracking:read'];

let ctx: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Rangrez Prints');
});
afterAll(async () => {
  await ctx?.close();
});

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, credential: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(credential), ...(payload && { payload }) });

/** A member of `role` who has joined, signed in: their session cookie. */
async function joined(email: string, role: string) {
  const invited = await send('POST', MEMBERS, owner.apiKey, { email, role });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = invited.json().invitation.accept_url.split('#')[1];
  const accepted = await ctx.app.inject({
    method: 'POST',
    url: '/panel/v1/invitation/accept',
    payload: { token, name: 'Packer', password: 'packer password' },
  });
  expect(accepted.json().member.permissions).toEqual(role === 'packing-desk' ? PACKING : expect.any(Array));
  return { id: invited.json().data.id as string, cookie: String(accepted.headers['set-cookie']).split(';')[0]! };
}

describe("an account's own roles", () => {
  it('are defined, listed after the built-in ones, given to members, changed under them and deleted once nobody holds them', async () => {
    const made = await send('POST', ROLES, owner.apiKey, { name: 'packing-desk', permissions: PACKING });
    expect([made.statusCode, made.json()]).toEqual([
      201,
      { data: { name: 'packing-desk', description: "The account's own role.", permissions: PACKING, custom: true } },
    ]);
    const listed = (await send('GET', ROLES, owner.apiKey)).json().data as { name: string; custom: boolean }[];
    expect(listed.map((r) => [r.name, r.custom])).toEqual([
      ['owner', false],
      ['admin', false],
      ['operations', false],
      ['finance', false],
      ['support', false],
      ['viewer', false],
      ['packing-desk', true],
    ]);

    const packer = await joined('packer@rangrez.example', 'packing-desk');
    const warehouses = () =>
      ctx.app.inject({ method: 'GET', url: `${V1}/warehouses`, headers: { cookie: packer.cookie } });
    const tracking = () =>
      ctx.app.inject({ method: 'GET', url: `${V1}/meta/statuses`, headers: { cookie: packer.cookie } });
    expect((await warehouses()).json().code).toBe('permission_denied');
    expect((await tracking()).statusCode).toBe(200);

    // Changed: the member holds the new grants at once.
    const changed = await send('PUT', `${ROLES}/packing-desk`, owner.apiKey, { permissions: ['settings:read'] });
    expect(changed.json().data.permissions).toEqual(['settings:read']);
    expect((await warehouses()).statusCode).toBe(200);
    expect((await tracking()).statusCode).toBe(403);
    const session = await ctx.app.inject({
      method: 'GET',
      url: '/panel/v1/session',
      headers: { cookie: packer.cookie },
    });
    expect(session.json().member).toMatchObject({ role: 'packing-desk', permissions: ['settings:read'] });

    const held = await send('DELETE', `${ROLES}/packing-desk`, owner.apiKey);
    expect([held.statusCode, held.json().code]).toEqual([409, 'role_in_use']);
    expect(held.json().message).toBe('1 member(s) hold packing-desk: give them another role first');
    await send('PATCH', `${MEMBERS}/${packer.id}`, owner.apiKey, { role: 'viewer' });
    const deleted = await send('DELETE', `${ROLES}/packing-desk`, owner.apiKey);
    expect([deleted.statusCode, deleted.json().data.name]).toEqual([200, 'packing-desk']);
    expect((await send('GET', ROLES, owner.apiKey)).json().data).toHaveLength(6);
  });

  it('refuses a bad or taken name, an unknown permission, a grant beyond the definer, and an unknown role for a member', async () => {
    const bad = await send('POST', ROLES, owner.apiKey, { name: 'Packing Desk', permissions: ['everything'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(['name', 'permissions.0']);
    for (const name of ['admin', 'returns-desk']) {
      if (name === 'returns-desk')
        expect((await send('POST', ROLES, owner.apiKey, { name, permissions: ['returns:read'] })).statusCode).toBe(201);
      const taken = await send('POST', ROLES, owner.apiKey, { name, permissions: ['returns:read'] });
      expect([taken.statusCode, taken.json().code]).toEqual([409, 'role_name_taken']);
    }
    // A key that may manage members but not read money cannot define a role that does.
    const limited = (
      await send('POST', `${V1}/api-keys`, owner.apiKey, { scopes: ['members:manage', 'shipments:read'] })
    ).json().data.api_key;
    const beyond = await send('POST', ROLES, limited, {
      name: 'cash-desk',
      permissions: ['shipments:read', 'money:read'],
    });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().details).toEqual([
      { field: 'permissions.1', message: "money:read is beyond this credential's own permissions" },
    ]);
    const unknown = await send('POST', MEMBERS, owner.apiKey, { email: 'who@rangrez.example', role: 'night-shift' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      code: 'role_unknown',
      details: [{ field: 'role', message: 'night-shift is not a role of this account (GET /roles lists them)' }],
    });

    // Another account sees none of them, and cannot give its members one.
    const other = await ctx.createAccount('Other Prints');
    expect((await send('GET', ROLES, other.apiKey)).json().data).toHaveLength(6);
    expect((await send('PUT', `${ROLES}/returns-desk`, other.apiKey, { permissions: [] })).json().code).toBe(
      'role_not_found',
    );
    const borrowed = await send('POST', MEMBERS, other.apiKey, { email: 'b@other.example', role: 'returns-desk' });
    expect(borrowed.json().code).toBe('role_unknown');
    expect((await send('DELETE', `${ROLES}/returns-desk`, other.apiKey)).json().code).toBe('role_not_found');
    const packer = await send('POST', MEMBERS, other.apiKey, { email: 'c@other.example', role: 'viewer' });
    const rerole = await send('PATCH', `${MEMBERS}/${packer.json().data.id}`, other.apiKey, { role: 'returns-desk' });
    expect([rerole.statusCode, rerole.json().code]).toEqual([422, 'role_unknown']);
  });
});
