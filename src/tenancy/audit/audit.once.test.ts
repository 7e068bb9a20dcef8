import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin, authed, V1 } from '../../../test/kit/http.js';

// The audit log (issue 51): each change to members, roles, API keys and sign-in rules appends one
// entry in the change's transaction, naming who (a member, a key, the account login, the
// operator), from where, what and what changed; a refused change leaves none. GET /audit-log reads
// them newest first with filters, cursor pages and a CSV; it needs audit:read; another account
// sees nothing.

const AUDIT = `${V1}/audit-log`;
const AGENT = 'Dakiya-Audit-Test/1.0';

let ctx: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Audited Apparel', { username: 'audited', password: 'owner password' });
});
afterAll(async () => {
  await ctx?.close();
});

const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: object, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    headers: { 'user-agent': AGENT, ...headers },
    ...(payload && { payload }),
  });
const entries = async (query = '') => (await send('GET', `${AUDIT}${query}`, authed(owner.apiKey))).json();

describe('the audit log', () => {
  it('writes down each change with who, from where, what and what changed; a refused change writes nothing', async () => {
    const ownKey = (await send('GET', `${V1}/api-keys`, authed(owner.apiKey))).json().data[0];
    ctx.clock.advance(1000);
    const invited = await send('POST', `${V1}/members`, authed(owner.apiKey), {
      email: 'ira@audited.example',
      role: 'operations',
    });
    const memberId = invited.json().data.id as string;
    const taken = await send('POST', `${V1}/members`, authed(owner.apiKey), {
      email: 'ira@audited.example',
      role: 'viewer',
    });
    expect(taken.statusCode).toBe(409);
    ctx.clock.advance(1000);
    const token = invited.json().invitation.accept_url.split('#')[1];
    await send('POST', '/panel/v1/invitation/accept', {}, { token, name: 'Ira', password: 'ira password' });
    // The account's own login, signed in to the panel, changes her role.
    const signIn = await send('POST', '/panel/v1/session', {}, { username: 'audited', password: 'owner password' });
    const panel = {
      cookie: String(signIn.headers['set-cookie']).split(';')[0]!,
      'x-csrf-token': signIn.json().csrf_token,
    };
    ctx.clock.advance(1000);
    await send('PATCH', `${V1}/members/${memberId}`, panel, { role: 'finance' });
    ctx.clock.advance(1000);
    await send('POST', `${V1}/members/${memberId}/suspend`, authed(owner.apiKey));
    ctx.clock.advance(1000);
    const operatorKey = (await send('POST', `/admin/v1/accounts/${owner.id}/api-keys`, admin)).json();
    ctx.clock.advance(1000);
    await send('DELETE', `${V1}/api-keys/${operatorKey.api_key_id}`, authed(owner.apiKey));

    const { data, next_cursor } = await entries();
    expect(next_cursor).toBeNull();
    const at = (seconds: number) => new Date(ctx.clock.now().getTime() - seconds * 1000).toISOString();
    const byKey = { type: 'api_key', id: ownKey.id, name: `${ownKey.prefix}…` };
    expect(data).toEqual([
      {
        id: expect.any(String),
        at: at(0),
        actor: byKey,
        ip: '127.0.0.1',
        user_agent: AGENT,
        action: 'api_key.revoked',
        object: { type: 'api_key', id: operatorKey.api_key_id },
        changes: null,
      },
      {
        id: expect.any(String),
        at: at(1),
        actor: { type: 'operator', id: null, name: 'the operator (ADMIN_TOKEN)' },
        ip: null,
        user_agent: null,
        action: 'api_key.created',
        object: { type: 'api_key', id: operatorKey.api_key_id },
        changes: { prefix: operatorKey.api_key.slice(0, 12), name: null, scopes: null, expires_at: null },
      },
      expect.objectContaining({
        at: at(2),
        actor: byKey,
        action: 'member.suspended',
        object: { type: 'member', id: memberId },
      }),
      expect.objectContaining({
        at: at(3),
        actor: { type: 'account', id: null, name: 'the account login' },
        action: 'member.changed',
        changes: { role: { before: 'operations', after: 'finance' } },
      }),
      expect.objectContaining({
        at: at(4),
        actor: { type: 'member', id: memberId, name: 'ira@audited.example' },
        action: 'member.joined',
      }),
      expect.objectContaining({
        at: at(5),
        actor: byKey,
        action: 'member.invited',
        changes: { email: 'ira@audited.example', role: 'operations' },
      }),
      // The operator made the account (the test's own account, through /admin/v1/accounts).
      expect.objectContaining({
        at: at(6),
        actor: { type: 'operator', id: null, name: 'the operator (ADMIN_TOKEN)' },
        action: 'account.created',
        object: { type: 'account', id: owner.id },
        changes: { name: 'Audited Apparel', username: 'audited', api_key: ownKey.prefix },
      }),
    ]);
  });

  it('filters, pages and exports as CSV; needs audit:read; another account sees none of it', async () => {
    expect((await entries('?action=member.suspended')).data.map((e: { action: string }) => e.action)).toEqual([
      'member.suspended',
    ]);
    const all = (await entries()).data as { id: string; object: { id: string }; actor: { id: string } }[];
    const memberId = all.find((e) => e.object.id && all.some((o) => o.actor.id === e.object.id))!.object.id;
    expect((await entries(`?actor_id=${memberId}`)).data).toHaveLength(1);
    expect((await entries(`?object_type=member&object_id=${memberId}`)).data).toHaveLength(4);
    const day = ctx.clock.now().toISOString().slice(0, 10);
    expect((await entries(`?from=${day}&to=${day}`)).data).toHaveLength(all.length);
    expect((await entries('?from=2020-01-01&to=2020-01-02')).data).toEqual([]);

    const first = await entries('?limit=4');
    expect(first.data.map((e: { id: string }) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    const second = await entries(`?limit=4&cursor=${first.next_cursor}`);
    expect(second.data.map((e: { id: string }) => e.id)).toEqual(all.slice(4).map((e) => e.id));
    expect(second.next_cursor).toBeNull();

    const csv = await send('GET', `${AUDIT}?format=csv&action=member.changed`, authed(owner.apiKey));
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, row, end] = csv.body.split('\r\n');
    expect(header).toBe('at,actor_type,actor_id,actor,ip,user_agent,action,object_type,object_id,changes');
    expect(row).toContain(',account,,the account login,127.0.0.1,Dakiya-Audit-Test/1.0,member.changed,member,');
    // jsonb keeps keys shortest first.
    expect(row).toContain('"{""role"":{""after"":""finance"",""before"":""operations""}}"');
    expect(end).toBe('');

    const badCursor = await send('GET', `${AUDIT}?cursor=nope`, authed(owner.apiKey));
    expect([badCursor.statusCode, badCursor.json().details]).toEqual([
      422,
      [{ field: 'cursor', message: 'cursor is not one this API gave' }],
    ]);
    const badDay = await send('GET', `${AUDIT}?from=2026-02-30`, authed(owner.apiKey));
    expect(badDay.statusCode).toBe(400);

    const reader = (
      await send('POST', `${V1}/api-keys`, authed(owner.apiKey), { scopes: ['settings:read', 'members:manage'] })
    ).json().data.api_key;
    const refused = await send('GET', AUDIT, authed(reader));
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      'This credential lacks the permission audit:read',
    ]);
    // Another account sees only its own making, none of this one's entries.
    const other = await ctx.createAccount('Someone Else');
    const theirs = (await send('GET', AUDIT, authed(other.apiKey))).json();
    expect(
      theirs.data.map((entry: { action: string; object: { id: string } }) => [entry.action, entry.object.id]),
    ).toEqual([['account.created', other.id]]);
  });
});
