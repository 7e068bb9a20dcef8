import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { queryRows } from '../../base/db/client.js';
import { RECOVERY_CODES } from './two-factor.service.js';

// Two-factor sign-in to the panel (issue 51) with codes made as an authenticator app makes them
// (otplib, RFC 6238) at the app's clock: set up with a secret to scan and a code to confirm, then
// every sign-in asks for a current code or a one-time recovery code; a code works once; failures
// count as failed logins; turning it off needs a code.

const SESSION = '/panel/v1/session';
const TWO_FACTOR = '/panel/v1/two-factor';
const PASSWORD = 'owner password';

let ctx: TestContext;
let owner: { id: string; apiKey: string };
beforeAll(async () => {
  ctx = await createTestApp({ settings: { accounts: { loginAttemptsPerMinute: 4 } } });
  owner = await ctx.createAccount('Kala Crafts', { username: 'kala', password: PASSWORD });
});
afterAll(async () => {
  await ctx?.close();
});

const signInAs = (username: string, password: string, code?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: SESSION,
    payload: { username, password, ...(code !== undefined && { code }) },
  });

async function session(username: string, password: string, code?: string) {
  const response = await signInAs(username, password, code);
  expect(response.statusCode, response.body).toBe(200);
  return {
    cookie: String(response.headers['set-cookie']).split(';')[0]!,
    csrf: response.json().csrf_token as string,
  };
}
const call = (s: { cookie: string; csrf: string }, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, ...(payload && { payload }) });

/** The code an authenticator app shows now, by the test's clock. */
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });

/** Sets two-factor up for whoever `s` is signed in as; answers the secret and the recovery codes. */
async function turnOn(s: { cookie: string; csrf: string }) {
  const started = await call(s, 'POST', TWO_FACTOR);
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json();
  const confirmed = await call(s, 'POST', `${TWO_FACTOR}/confirm`, { code: await codeNow(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret: secret as string, recovery: confirmed.json().recovery_codes as string[] };
}

describe('two-factor sign-in', () => {
  it('is set up with a secret to scan and a code to confirm; then each sign-in needs a code, which works once', async () => {
    await ctx.app.inject({
      method: 'POST',
      url: `${V1}/members`,
      headers: authed(owner.apiKey),
      payload: { email: 'uma@kala.example', role: 'finance' },
    });
    // Joining through the link the answer carries (no relay in this test).
    const members = await ctx.app.inject({ method: 'GET', url: `${V1}/members`, headers: authed(owner.apiKey) });
    expect(members.json().data).toHaveLength(1);
    const resent = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/members/${members.json().data[0].id}/invitation`,
      headers: authed(owner.apiKey),
    });
    const token = resent.json().invitation.accept_url.split('#')[1];
    await ctx.app.inject({
      method: 'POST',
      url: '/panel/v1/invitation/accept',
      payload: { token, name: 'Uma', password: 'uma password' },
    });
    const uma = await session('uma@kala.example', 'uma password');
    expect((await call(uma, 'GET', TWO_FACTOR)).json()).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });

    // Started twice (a QR code scanned on the wrong phone): the second secret replaces the first.
    const first = (await call(uma, 'POST', TWO_FACTOR)).json().secret as string;
    const started = await call(uma, 'POST', TWO_FACTOR);
    const { secret, otpauth_url } = started.json();
    expect(secret).not.toBe(first);
    const [rows] = await queryRows<{ count: number }>(
      ctx.database.db,
      sql`select count(*)::int as count from two_factor_logins where account_id = ${owner.id}`,
    );
    expect(rows!.count).toBe(1);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(`otpauth://totp/Dakiya:uma%40kala.example?secret=${secret}&issuer=Dakiya`);
    // The secret is kept sealed, never in clear.
    const [stored] = await queryRows<{ secret_sealed: string }>(
      ctx.database.db,
      sql`select secret_sealed from two_factor_logins where account_id = ${owner.id}`,
    );
    expect(stored!.secret_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(stored!.secret_sealed).not.toContain(secret);

    const wrong = await call(uma, 'POST', `${TWO_FACTOR}/confirm`, { code: await codeNow(first) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'two_factor_code_wrong', details: [{ field: 'code' }] });
    const confirmed = await call(uma, 'POST', `${TWO_FACTOR}/confirm`, { code: await codeNow(secret) });
    const recovery = confirmed.json().recovery_codes as string[];
    expect(recovery).toHaveLength(RECOVERY_CODES);
    for (const code of recovery) expect(code).toMatch(/^[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}$/);
    expect(new Set(recovery).size).toBe(RECOVERY_CODES);
    expect((await call(uma, 'GET', TWO_FACTOR)).json()).toEqual({
      enabled: true,
      enabled_at: ctx.clock.now().toISOString(),
      recovery_codes_left: RECOVERY_CODES,
    });
    expect((await call(uma, 'POST', TWO_FACTOR)).json().code).toBe('two_factor_on');

    // The password alone is not enough; the code just used for set-up is spent.
    const noCode = await signInAs('uma@kala.example', 'uma password');
    expect([noCode.statusCode, noCode.json().code]).toEqual([401, 'two_factor_required']);
    const replayed = await signInAs('uma@kala.example', 'uma password', await codeNow(secret));
    expect([replayed.statusCode, replayed.json().code]).toEqual([401, 'invalid_two_factor_code']);
    ctx.clock.advance(30_000);
    const fresh = await codeNow(secret);
    await session('uma@kala.example', 'uma password', fresh);
    // A phone half a minute slow still signs in; one two steps behind does not.
    ctx.clock.advance(30_000);
    const late = await signInAs('uma@kala.example', 'uma password', fresh);
    expect(late.json().code).toBe('invalid_two_factor_code');
    ctx.clock.advance(60_000);
    const slowPhone = await generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) - 30 });
    await session('uma@kala.example', 'uma password', slowPhone);

    // A recovery code works once, in any case and with or without its dash.
    await session('uma@kala.example', 'uma password', recovery[0]!.toUpperCase().replace('-', ''));
    const again = await signInAs('uma@kala.example', 'uma password', recovery[0]);
    expect(again.json().code).toBe('invalid_two_factor_code');
    expect((await call(uma, 'GET', TWO_FACTOR)).json().recovery_codes_left).toBe(RECOVERY_CODES - 1);
    const notStarted = await call(uma, 'POST', `${TWO_FACTOR}/confirm`, { code: '123456' });
    expect([notStarted.statusCode, notStarted.json().code]).toEqual([409, 'two_factor_not_started']);

    // Without a session, or with an ended one, there is nobody's second factor to see.
    expect((await ctx.app.inject({ method: 'GET', url: TWO_FACTOR })).json().code).toBe('not_signed_in');
    const ended = await session('uma@kala.example', 'uma password', recovery[2]);
    await call(ended, 'DELETE', SESSION);
    expect((await call(ended, 'GET', TWO_FACTOR)).statusCode).toBe(401);

    // Turning it off needs a code.
    const noProof = await call(uma, 'DELETE', TWO_FACTOR, { code: '123456' });
    expect([noProof.statusCode, noProof.json().code]).toEqual([422, 'two_factor_code_wrong']);
    const off = await call(uma, 'DELETE', TWO_FACTOR, { code: recovery[1]! });
    expect(off.json()).toEqual({ message: 'Two-factor sign-in is off' });
    const offAgain = await call(uma, 'DELETE', TWO_FACTOR, { code: recovery[3]! });
    expect([offAgain.statusCode, offAgain.json().code]).toEqual([409, 'two_factor_not_started']);
    await session('uma@kala.example', 'uma password');
  });

  it("guards the account's own login too, and counts wrong codes as failed logins", async () => {
    const own = await session('kala', PASSWORD);
    const { secret } = await turnOn(own);
    ctx.clock.advance(60_000);
    const refused: number[] = [];
    for (let i = 0; i < 5; i++) refused.push((await signInAs('kala', PASSWORD, '999999')).statusCode);
    // Four failures a minute (the test's limit), then the pair waits, even with the right code.
    expect(refused).toEqual([401, 401, 401, 401, 429]);
    expect((await signInAs('kala', PASSWORD, await codeNow(secret))).statusCode).toBe(429);
    ctx.clock.advance(60_000);
    await session('kala', PASSWORD, await codeNow(secret));
    // Velocity's token flow, for integrations, takes the password alone (docs/teams.md).
    const token = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/auth-token`,
      payload: { username: 'kala', password: PASSWORD },
    });
    expect(token.statusCode).toBe(200);
  });

  it('when the account requires it of owners, an owner without it signs in only to set it up; other members are not asked', async () => {
    const sitara = await ctx.createAccount('Sitara Home', { username: 'sitara', password: PASSWORD });
    const notOwner = (
      await ctx.app.inject({
        method: 'POST',
        url: `${V1}/api-keys`,
        headers: authed(sitara.apiKey),
        payload: { scopes: ['members:manage', 'settings:read'] },
      })
    ).json().data.api_key;
    const security = (credential: string, payload?: object) =>
      ctx.app.inject({
        method: payload ? 'PUT' : 'GET',
        url: `${V1}/security`,
        headers: authed(credential),
        ...(payload && { payload }),
      });
    const refused = await security(notOwner, { owners_need_two_factor: true });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'owner_only']);
    expect((await security(sitara.apiKey, { owners_need_two_factor: true })).json()).toEqual({
      data: { owners_need_two_factor: true },
    });
    expect((await security(notOwner)).json()).toEqual({ data: { owners_need_two_factor: true } });
    const invited = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/members`,
      headers: authed(sitara.apiKey),
      payload: { email: 'viewer@sitara.example', role: 'viewer' },
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/panel/v1/invitation/accept',
      payload: { token: invited.json().invitation.accept_url.split('#')[1], name: 'V', password: 'viewer password' },
    });

    const signedIn = await signInAs('sitara', PASSWORD);
    expect(signedIn.json().two_factor_setup_required).toBe(true);
    const own = { cookie: String(signedIn.headers['set-cookie']).split(';')[0]!, csrf: signedIn.json().csrf_token };
    const warehouses = (s: { cookie: string; csrf: string }) => call(s, 'GET', `${V1}/warehouses`);
    expect((await warehouses(own)).json().code).toBe('permission_denied');
    await turnOn(own);
    expect((await warehouses(own)).statusCode).toBe(200);
    expect((await call(own, 'GET', SESSION)).json().two_factor_setup_required).toBe(false);
    // The viewer is no owner: not asked.
    const viewer = await signInAs('viewer@sitara.example', 'viewer password');
    expect(viewer.json().two_factor_setup_required).toBe(false);
  });
});
