import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin, authed, UNKNOWN_ID, UUID, V1 } from '../../../test/kit/http.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { PERMISSION_NAMES } from '../../domain/access/permissions.js';
import { CREDENTIAL_CACHE_TTL_MS } from './credential-cache.js';
import { INVITATION_TTL_MS } from './members.service.js';

// Members (issue 51): invited by e-mail through a real SMTP server, joining through the link,
// signing in to the panel with their e-mail, held to their role by the one permission hook, and
// suspended or removed with their sessions and keys, in this process at once and in another (a
// second app on the same database, with its own credential cache) within the cache's second.

const MEMBERS = `${V1}/members`;
const SESSION = '/panel/v1/session';
const INVITATION = '/panel/v1/invitation';
const MAIL_FROM = 'team@dakiya.example';
const PASSWORD = 'owner password';
const MEMBER_PASSWORD = 'member password 1';

let smtp: SmtpServer;
let one: TestContext;
let two: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  smtp = await startSmtpServer();
  one = await createTestApp({
    settings: { mail: { smtpUrl: smtp.url, mailFrom: MAIL_FROM }, accounts: { membersPerAccount: 5 } },
  });
  // Another process of the same server, without a relay: its invitations answer their links.
  two = await createTestApp({ database: one.database });
  owner = await one.createAccount('Acme Retail', { username: 'acme-owner', password: PASSWORD });
});
afterAll(async () => {
  await two?.app.close();
  await one?.close();
  await smtp?.close();
});

const call = (ctx: TestContext, method: string, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method: method as 'GET', url, headers, ...(payload && { payload }) });

/** The token of the last invitation e-mailed to `email`, read from the link in its text. */
function mailedToken(email: string): string {
  const mails = smtp.to(email);
  const text = mails.at(-1)!.mail.text!;
  return /\/app\/join#(dki_[A-Za-z0-9_-]{43})/.exec(text)![1]!;
}

async function invite(email: string, role: string, by: Record<string, string> = authed(owner.apiKey)) {
  const response = await call(one, 'POST', MEMBERS, by, { email, role });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string };
}

/** Joins through the e-mailed link and answers the session's cookie and CSRF token. */
async function join(email: string, name: string) {
  const response = await call(
    one,
    'POST',
    `${INVITATION}/accept`,
    {},
    {
      token: mailedToken(email),
      name,
      password: MEMBER_PASSWORD,
    },
  );
  expect(response.statusCode, response.body).toBe(200);
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { cookie, csrf: response.json().csrf_token as string, body: response.json() };
}
const panel = (s: { cookie: string; csrf: string }) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf });

describe('inviting a member', () => {
  it('e-mails a link that works once for 7 days; joining signs them in with their role', async () => {
    const response = await call(one, 'POST', MEMBERS, authed(owner.apiKey), {
      email: 'meera@acme.example',
      role: 'operations',
      name: 'Meera',
    });
    expect(response.statusCode, response.body).toBe(201);
    const now = one.clock.now();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
    const id = response.json().data.id;
    expect(id).toMatch(UUID);
    expect(response.json()).toEqual({
      data: {
        id,
        email: 'meera@acme.example',
        name: 'Meera',
        role: 'operations',
        status: 'invited',
        invited_by: null,
        invitation_expires_at: expiresAt,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        stores: null,
      },
      invitation: { expires_at: expiresAt, email: 'sent' },
    });
    const [mail] = smtp.to('meera@acme.example');
    expect(mail!.mail.subject).toBe('The owner of Acme Retail invites you to Acme Retail on Dakiya');
    expect(mail!.mail.from!.value).toEqual([{ name: 'Dakiya', address: MAIL_FROM }]);
    const token = mailedToken('meera@acme.example');
    expect(mail!.mail.text).toContain(`https://dakiya.test/app/join#${token}`);
    expect(mail!.mail.html).toContain(`href="https://dakiya.test/app/join#${token}"`);

    const details = await call(one, 'POST', INVITATION, {}, { token });
    expect(details.json()).toEqual({
      account_name: 'Acme Retail',
      email: 'meera@acme.example',
      name: 'Meera',
      role: 'operations',
      expires_at: expiresAt,
    });

    const joined = await join('meera@acme.example', 'Meera Iyer');
    expect(joined.body).toEqual({
      account: { id: owner.id, name: 'Acme Retail', username: 'acme-owner' },
      member: {
        id,
        name: 'Meera Iyer',
        email: 'meera@acme.example',
        role: 'operations',
        permissions: [
          'shipments:read',
          'shipments:write',
          'ndr:write',
          'buyers:read',
          'tracking:read',
          'returns:read',
          'returns:write',
          'settings:read',
        ],
        stores: null,
      },
      csrf_token: expect.any(String),
      expires_at_utc: expect.any(String),
      two_factor_setup_required: false,
    });
    // The link is spent.
    const again = await call(one, 'POST', `${INVITATION}/accept`, {}, { token, name: 'X', password: MEMBER_PASSWORD });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('invitation_not_found');

    // Signing in again takes the e-mail, in any case, and the password chosen.
    const signIn = await call(one, 'POST', SESSION, {}, { username: 'MEERA@acme.example', password: MEMBER_PASSWORD });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().member.id).toBe(id);
    // The Velocity token flow stays the account's own login's.
    const token2 = await call(
      one,
      'POST',
      `${V1}/auth-token`,
      {},
      { username: 'meera@acme.example', password: MEMBER_PASSWORD },
    );
    expect(token2.statusCode).toBe(401);

    // Held to the role: reads warehouses, may not change NDR rules, nor see the members.
    expect((await call(one, 'GET', `${V1}/warehouses`, { cookie: joined.cookie })).statusCode).toBe(200);
    const refused = await call(one, 'PUT', `${V1}/ndr-rules`, panel(joined), { rules: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'permission_denied',
      message: 'This credential lacks the permission settings:write',
      errors: ['This credential lacks the permission settings:write'],
      details: [{ field: 'authorization', message: 'This credential lacks the permission settings:write' }],
    });
    expect((await call(one, 'GET', MEMBERS, { cookie: joined.cookie })).json().code).toBe('permission_denied');
  });

  it('answers the link when no relay is set or the relay refuses, and a resent link replaces the old one', async () => {
    const quiet = await call(two, 'POST', MEMBERS, authed(owner.apiKey), {
      email: 'ravi@acme.example',
      role: 'viewer',
    });
    expect(quiet.statusCode, quiet.body).toBe(201);
    const link = quiet.json().invitation;
    expect(link).toEqual({
      expires_at: new Date(two.clock.now().getTime() + INVITATION_TTL_MS).toISOString(),
      email: 'not_sent',
      accept_url: expect.stringMatching(/^https:\/\/dakiya\.test\/app\/join#dki_[A-Za-z0-9_-]{43}$/),
    });
    expect(smtp.to('ravi@acme.example')).toEqual([]);
    const first = link.accept_url.split('#')[1];

    smtp.refuse(550);
    const resent = await call(one, 'POST', `${MEMBERS}/${quiet.json().data.id}/invitation`, authed(owner.apiKey));
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().invitation).toEqual({
      expires_at: expect.any(String),
      email: 'failed',
      error: '550 5.7.1 Message rejected for the test',
      accept_url: expect.stringMatching(/#dki_/),
    });
    const second = resent.json().invitation.accept_url.split('#')[1];
    expect(second).not.toBe(first);
    expect((await call(one, 'POST', INVITATION, {}, { token: first })).statusCode).toBe(404);
    expect((await call(one, 'POST', INVITATION, {}, { token: second })).statusCode).toBe(200);
    // A week later the link is over.
    one.clock.advance(INVITATION_TTL_MS);
    const late = await call(one, 'POST', INVITATION, {}, { token: second });
    expect(late.json()).toEqual({
      code: 'invitation_not_found',
      message: 'This invitation link is not valid any more',
      errors: ['This invitation link is not valid any more'],
    });
  });

  it('refuses bad input naming each field, a login already taken, and more members than the setting allows', async () => {
    const bad = await call(one, 'POST', MEMBERS, authed(owner.apiKey), {
      email: 'not-an-address',
      role: 'Chief Packer',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(
      expect.arrayContaining([expect.stringContaining('email'), expect.stringContaining('role')]),
    );
    for (const email of ['meera@acme.example', 'MEERA@ACME.EXAMPLE', 'acme-owner']) {
      const taken = await call(one, 'POST', MEMBERS, authed(owner.apiKey), { email: `${email}`, role: 'viewer' });
      if (email === 'acme-owner') {
        expect(taken.statusCode).toBe(400);
        continue;
      }
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('member_email_taken');
    }
    // Two invitations of one address at once: one is made, the other meets the unique index.
    const racing = await Promise.all(
      [0, 1].map(() =>
        call(one, 'POST', MEMBERS, authed(owner.apiKey), { email: 'twice@acme.example', role: 'viewer' }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    await call(
      one,
      'DELETE',
      `${MEMBERS}/${racing.find((r) => r.statusCode === 201)!.json().data.id}`,
      authed(owner.apiKey),
    );
    // An account whose username is an e-mail: no member may have it, and no account a member's.
    await one.createAccount('Mail Login', { username: 'boss@mail.example', password: PASSWORD });
    const accountLogin = await call(one, 'POST', MEMBERS, authed(owner.apiKey), {
      email: 'boss@mail.example',
      role: 'viewer',
    });
    expect(accountLogin.json().code).toBe('member_email_taken');
    const accountTaken = await call(one, 'POST', '/admin/v1/accounts', admin, {
      name: 'Copycat',
      username: 'meera@acme.example',
      password: PASSWORD,
    });
    expect(accountTaken.statusCode).toBe(422);
    expect(accountTaken.json().code).toBe('username_taken');

    // Four members are what MEMBERS_PER_ACCOUNT allows; removing one makes room and frees its e-mail.
    const limited = await one.createAccount('Limited');
    const asLimited = authed(limited.apiKey);
    const emails = [
      'one@limited.example',
      'two@limited.example',
      'three@limited.example',
      'four@limited.example',
      'five@limited.example',
    ];
    const ids: string[] = [];
    for (const email of emails) {
      one.clock.advance(1000);
      ids.push((await invite(email, 'viewer', asLimited)).id);
    }
    const over = await call(one, 'POST', MEMBERS, asLimited, { email: 'six@limited.example', role: 'viewer' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({
      code: 'member_limit_reached',
      message: 'The account may have at most 5 members',
      errors: ['The account may have at most 5 members'],
    });
    const removed = await call(one, 'DELETE', `${MEMBERS}/${ids[1]}`, asLimited);
    expect(removed.json().data).toMatchObject({ id: ids[1], status: 'removed', invitation_expires_at: null });
    one.clock.advance(1000);
    await invite('two@limited.example', 'finance', asLimited);
    const listed = (await call(one, 'GET', MEMBERS, asLimited)).json().data;
    expect(listed.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['one@limited.example', 'viewer'],
      ['three@limited.example', 'viewer'],
      ['four@limited.example', 'viewer'],
      ['five@limited.example', 'viewer'],
      ['two@limited.example', 'finance'],
    ]);

    // Another account's member is not found.
    const other = await one.createAccount('Other');
    const theirs = await call(one, 'POST', `${MEMBERS}/${ids[0]}/suspend`, authed(other.apiKey));
    expect(theirs.statusCode).toBe(404);
    expect((await call(one, 'DELETE', `${MEMBERS}/${UNKNOWN_ID}`, authed(owner.apiKey))).json().code).toBe(
      'member_not_found',
    );
  });
});

describe('admins, owners and suspension', () => {
  it('an admin manages members but never an owner; suspending ends sessions and keys here at once, elsewhere within a second', async () => {
    await invite('asha@acme.example', 'admin');
    const asha = await join('asha@acme.example', 'Asha');
    expect(asha.body.member.permissions).toEqual(PERMISSION_NAMES);
    // The admin's key: made by her, it holds what she holds.
    const made = await call(one, 'POST', `${V1}/api-keys`, panel(asha), { name: 'ERP' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.scopes).toEqual(PERMISSION_NAMES);
    const ashaKey = made.json().data.api_key as string;

    // Only an owner makes or touches an owner.
    const ownerInvite = await call(one, 'POST', MEMBERS, authed(ashaKey), { email: 'co@acme.example', role: 'owner' });
    expect(ownerInvite.statusCode).toBe(403);
    expect(ownerInvite.json().code).toBe('owner_only');
    // An admin invites: the e-mail names her, and the member records who invited them.
    const helper = await call(one, 'POST', MEMBERS, authed(ashaKey), { email: 'helper@acme.example', role: 'viewer' });
    expect(helper.json().data.invited_by).toBe(asha.body.member.id);
    expect(smtp.to('helper@acme.example')[0]!.mail.subject).toBe('Asha invites you to Acme Retail on Dakiya');
    const coOwner = await invite('co@acme.example', 'owner');
    expect((await call(one, 'POST', `${MEMBERS}/${coOwner.id}/invitation`, authed(ashaKey))).json().code).toBe(
      'owner_only',
    );
    const listed = (await call(one, 'GET', MEMBERS, authed(ashaKey))).json().data as { id: string; email: string }[];
    const meera = listed.find((member) => member.email === 'meera@acme.example')!;
    const promote = await call(one, 'PATCH', `${MEMBERS}/${meera.id}`, authed(ashaKey), { role: 'owner' });
    expect(promote.json().code).toBe('owner_only');
    // Nobody suspends themselves.
    const ashaId = asha.body.member.id;
    const self = await call(one, 'POST', `${MEMBERS}/${ashaId}/suspend`, panel(asha));
    expect(self.statusCode).toBe(422);
    expect(self.json().code).toBe('member_is_you');

    // Meera signed in on both processes; her sessions work on both.
    const meeraSession = await call(
      one,
      'POST',
      SESSION,
      {},
      { username: 'meera@acme.example', password: MEMBER_PASSWORD },
    );
    const meeraCookie = { cookie: String(meeraSession.headers['set-cookie']).split(';')[0]! };
    const warehouses = `${V1}/warehouses`;
    expect((await call(one, 'GET', warehouses, meeraCookie)).statusCode).toBe(200);
    expect((await call(two, 'GET', warehouses, meeraCookie)).statusCode).toBe(200);

    const suspended = await call(one, 'POST', `${MEMBERS}/${meera.id}/suspend`, authed(ashaKey));
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json().data).toMatchObject({ id: meera.id, status: 'suspended' });
    expect((await call(one, 'GET', warehouses, meeraCookie)).statusCode).toBe(401);
    // The other process remembers her for its cache's second at most.
    two.clock.advance(CREDENTIAL_CACHE_TTL_MS);
    expect((await call(two, 'GET', warehouses, meeraCookie)).statusCode).toBe(401);
    const blocked = await call(one, 'POST', SESSION, {}, { username: 'meera@acme.example', password: MEMBER_PASSWORD });
    expect(blocked.statusCode).toBe(401);
    expect((await call(one, 'POST', `${MEMBERS}/${meera.id}/suspend`, authed(ashaKey))).json().code).toBe(
      'member_not_suspendable',
    );
    const back = await call(one, 'POST', `${MEMBERS}/${meera.id}/reactivate`, authed(ashaKey));
    expect(back.json().data.status).toBe('active');
    const notSuspended = await call(one, 'POST', `${MEMBERS}/${meera.id}/reactivate`, authed(ashaKey));
    expect([notSuspended.statusCode, notSuspended.json().message]).toEqual([
      409,
      'The member is active, not suspended',
    ]);
    const joinedAlready = await call(one, 'POST', `${MEMBERS}/${meera.id}/invitation`, authed(ashaKey));
    expect([joinedAlready.statusCode, joinedAlready.json().code]).toEqual([409, 'member_not_invited']);
    expect(
      (await call(one, 'POST', SESSION, {}, { username: 'meera@acme.example', password: MEMBER_PASSWORD })).statusCode,
    ).toBe(200);

    // Demoted, the admin's key holds what her new role holds; suspended, it stops.
    expect((await call(two, 'GET', MEMBERS, authed(ashaKey))).statusCode).toBe(200);
    const demoted = await call(one, 'PATCH', `${MEMBERS}/${ashaId}`, authed(owner.apiKey), { role: 'viewer' });
    expect(demoted.json().data.role).toBe('viewer');
    expect((await call(one, 'GET', MEMBERS, authed(ashaKey))).statusCode).toBe(403);
    expect((await call(one, 'GET', warehouses, authed(ashaKey))).statusCode).toBe(200);
    await call(one, 'POST', `${MEMBERS}/${ashaId}/suspend`, authed(owner.apiKey));
    expect((await call(one, 'GET', warehouses, authed(ashaKey))).statusCode).toBe(401);
    expect((await call(one, 'GET', warehouses, { cookie: asha.cookie })).statusCode).toBe(401);
    two.clock.advance(CREDENTIAL_CACHE_TTL_MS);
    expect((await call(two, 'GET', warehouses, authed(ashaKey))).statusCode).toBe(401);
  });

  it('lists the roles with what each holds', async () => {
    const roles = await call(one, 'GET', `${V1}/roles`, authed(owner.apiKey));
    expect(
      roles.json().data.map((r: { name: string; permissions: string[] }) => [r.name, r.permissions.length]),
    ).toEqual([
      ['owner', PERMISSION_NAMES.length],
      ['admin', PERMISSION_NAMES.length],
      ['operations', 8],
      ['finance', 5],
      ['support', 5],
      ['viewer', 5],
    ]);
  });
});
