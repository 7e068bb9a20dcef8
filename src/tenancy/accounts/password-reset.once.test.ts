import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { RESET_TTL_MS } from './password-reset.service.js';

// A member's forgotten password through a real SMTP server: a link by e-mail that works once for
// an hour, a new password that signs them out everywhere; the asking answers the same for any
// address. And signing out everywhere from the panel, for a member and for the account's login.

const SESSION = '/panel/v1/session';
const RESET = '/panel/v1/password-reset';
const ASKED = { message: 'If this e-mail is a member’s login, a link to choose a new password is on its way' };
const PASSWORD = 'owner password';
const OLD = 'old member password';
const NEW = 'new member password';

let smtp: SmtpServer;
let ctx: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({
    settings: {
      mail: { smtpUrl: smtp.url, mailFrom: 'team@dakiya.example' },
      accounts: { loginAttemptsPerMinute: 3 },
    },
  });
  owner = await ctx.createAccount('Chai Point', { username: 'chai-owner', password: PASSWORD });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, headers, payload });

/** A member who has joined with OLD as their password. */
async function member(email: string) {
  const invited = await post(`${V1}/members`, { email, role: 'operations' }, authed(owner.apiKey));
  const token = /join#(dki_[\w-]+)/.exec(smtp.to(email).at(-1)!.mail.text!)![1]!;
  const joined = await post('/panel/v1/invitation/accept', { token, name: 'Member', password: OLD });
  expect(joined.statusCode, joined.body).toBe(200);
  return invited.json().data.id as string;
}

async function signIn(username: string, password: string) {
  const response = await post(SESSION, { username, password });
  expect(response.statusCode, response.body).toBe(200);
  return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: response.json().csrf_token as string };
}
const stores = (cookie: string) => ctx.app.inject({ method: 'GET', url: `${V1}/warehouses`, headers: { cookie } });

/** The reset token in the last e-mail to `email`. */
async function resetToken(email: string, count: number): Promise<string> {
  await expect.poll(() => smtp.to(email).length).toBe(count);
  const mail = smtp.to(email).at(-1)!.mail;
  expect(mail.subject).toBe('Choose a new Dakiya password for Chai Point');
  return /\/app\/reset#(dkr_[A-Za-z0-9_-]{43})/.exec(mail.text!)![1]!;
}

describe('a forgotten password', () => {
  it('e-mails a link that works once for an hour; the new password signs the member out everywhere', async () => {
    await member('lata@chai.example');
    const before = await signIn('lata@chai.example', OLD);
    const asked = await post(RESET, { email: 'LATA@chai.example' });
    expect([asked.statusCode, asked.json()]).toEqual([202, ASKED]);
    const token = await resetToken('lata@chai.example', 2);
    expect(smtp.to('lata@chai.example')[1]!.mail.html).toContain(`href="https://dakiya.test/app/reset#${token}"`);

    const short = await post(`${RESET}/confirm`, { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().details).toEqual([{ field: 'password', message: 'password must be 8 to 200 characters' }]);
    const changed = await post(`${RESET}/confirm`, { token, password: NEW });
    expect([changed.statusCode, changed.json()]).toEqual([200, { message: 'Password changed; sign in with it' }]);
    expect((await stores(before.cookie)).statusCode).toBe(401);
    expect((await post(SESSION, { username: 'lata@chai.example', password: OLD })).statusCode).toBe(401);
    await signIn('lata@chai.example', NEW);
    const again = await post(`${RESET}/confirm`, { token, password: 'another password' });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('reset_not_found');
  });

  it('answers the same for an address that is no login and a suspended member, sending nothing; a link an hour old is over', async () => {
    const suspendedId = await member('gone@chai.example');
    await post(`${V1}/members/${suspendedId}/suspend`, {}, authed(owner.apiKey));
    for (const email of ['nobody@chai.example', 'gone@chai.example']) {
      const asked = await post(RESET, { email });
      expect([asked.statusCode, asked.json()]).toEqual([202, ASKED]);
    }
    expect(smtp.to('nobody@chai.example')).toEqual([]);
    expect(smtp.to('gone@chai.example')).toHaveLength(1);

    await member('late@chai.example');
    await post(RESET, { email: 'late@chai.example' });
    const token = await resetToken('late@chai.example', 2);
    ctx.clock.advance(RESET_TTL_MS);
    expect((await post(`${RESET}/confirm`, { token, password: NEW })).json().code).toBe('reset_not_found');
    const bad = await post(RESET, { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: 'email', message: 'email must be an email address' }]);
  });

  it('is limited per address and e-mail as failed logins are: no mailbox is flooded', async () => {
    await member('flood@chai.example');
    for (let i = 0; i < 3; i++) expect((await post(RESET, { email: 'flood@chai.example' })).statusCode).toBe(202);
    const refused = await post(RESET, { email: 'flood@chai.example' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    await expect.poll(() => smtp.to('flood@chai.example').length).toBe(4);
  });
});

describe('signing out everywhere', () => {
  it("ends every session of the member who asks and none of anyone else's; the account's login likewise", async () => {
    await member('ravi@chai.example');
    const laptop = await signIn('ravi@chai.example', OLD);
    const phone = await signIn('ravi@chai.example', OLD);
    const ownerSession = await signIn('chai-owner', PASSWORD);
    const ownerPhone = await signIn('chai-owner', PASSWORD);

    const noCsrf = await ctx.app.inject({
      method: 'DELETE',
      url: '/panel/v1/sessions',
      headers: { cookie: laptop.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    const out = await ctx.app.inject({
      method: 'DELETE',
      url: '/panel/v1/sessions',
      headers: { cookie: laptop.cookie, 'x-csrf-token': laptop.csrf },
    });
    expect([out.statusCode, out.json()]).toEqual([200, { message: 'Signed out everywhere' }]);
    expect(String(out.headers['set-cookie'])).toMatch(/^dakiya_session=; .*Max-Age=0/);
    expect((await stores(laptop.cookie)).statusCode).toBe(401);
    expect((await stores(phone.cookie)).statusCode).toBe(401);
    expect((await stores(ownerSession.cookie)).statusCode).toBe(200);

    await ctx.app.inject({
      method: 'DELETE',
      url: '/panel/v1/sessions',
      headers: { cookie: ownerSession.cookie, 'x-csrf-token': ownerSession.csrf },
    });
    expect((await stores(ownerPhone.cookie)).statusCode).toBe(401);
    const later = await signIn('ravi@chai.example', OLD);
    expect((await stores(later.cookie)).statusCode).toBe(200);
    // A session already ended signs out of nothing more, and says so the same way.
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: '/panel/v1/sessions',
      headers: { cookie: laptop.cookie, 'x-csrf-token': laptop.csrf },
    });
    expect(again.json()).toEqual({ message: 'Signed out everywhere' });
    expect((await stores(later.cookie)).statusCode).toBe(200);
  });
});
