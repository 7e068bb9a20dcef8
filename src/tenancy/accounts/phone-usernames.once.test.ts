import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { admin, AUTH_TOKEN, authed, STORES, UUID } from '../../../test/kit/http.js';
import { expectUnchanged } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { queryRows } from '../../base/db/client.js';

const PASSWORD = 'correct horse battery';
const BAD_LOGIN = 'Invalid username or password';
const USERNAME_RULE = 'username must be an Indian mobile number (+919876543210) or 3 to 64 letters, digits or . _ @ -';
const TAKEN = 'Username has already been taken';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const fieldError = (field: string, message: string, code = 'invalid_request') => ({
  code,
  message,
  errors: [message],
  details: [{ field, message }],
});

const createAccount = (username: string, password = PASSWORD) =>
  ctx.app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: admin,
    payload: { name: `Owner of ${username}`, username, password },
  });

const login = (username: unknown, password = PASSWORD) =>
  ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password } });

/** Creates an account and a store of its own, so a token can be shown to reach that account. */
async function accountWithStore(username: string) {
  const response = await createAccount(username);
  expect(response.statusCode).toBe(201);
  const body = response.json();
  const store = await createStore(ctx, body.api_key, { store_name: `store-${body.data.id.slice(0, 8)}` });
  return { id: body.data.id as string, username: body.data.username as string, store };
}

/** The stores a login's token sees: the proof of which account it reached. */
async function storesSeenBy(username: unknown) {
  const response = await login(username);
  expect(response.statusCode, `login as ${JSON.stringify(username)}: ${response.body}`).toBe(200);
  const stores = await ctx.app.inject({
    method: 'GET',
    url: STORES,
    headers: authed(`Bearer ${response.json().token}`),
  });
  return stores.json().data;
}

/** An account as it was stored before mobile usernames were made canonical: the digits as typed. */
async function legacyAccount(rawUsername: string) {
  const account = await accountWithStore(`legacy-${rawUsername}`);
  await queryRows(ctx.database.db, sql`update accounts set username = ${rawUsername} where id = ${account.id}`);
  return account;
}

const storedUsername = async (id: string) =>
  (await queryRows<{ username: string }>(ctx.database.db, sql`select username from accounts where id = ${id}`))[0]!
    .username;

describe('creating an account with a mobile-number username', () => {
  it.each([
    ['+919876500011', '+919876500011'],
    ['919876500012', '+919876500012'],
    ['09876500013', '+919876500013'],
    ['9876500014', '+919876500014'],
    ['+91 98765 00015', '+919876500015'],
    ['+91-98765-00016', '+919876500016'],
    ['0 98765 00017', '+919876500017'],
    ['98765-00018', '+919876500018'],
  ])('stores %j as %s and answers it', async (username, canonical) => {
    const response = await createAccount(username);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toEqual({
      id: expect.stringMatching(UUID),
      name: `Owner of ${username}`,
      username: canonical,
    });
    expect(await storedUsername(response.json().data.id)).toBe(canonical);
  });

  describe('when +919876500021 already has an account', () => {
    beforeAll(async () => {
      expect((await createAccount('+919876500021')).statusCode).toBe(201);
    });

    it.each(['+919876500021', '919876500021', '09876500021', '9876500021', '98765 00021'])(
      'refuses %j with 422, creating nothing',
      async (username) => {
        const response = await expectUnchanged(ctx.database, () => createAccount(username, 'another password'));
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual(fieldError('username', TAKEN, 'username_taken'));
      },
    );
  });

  it.each([
    ['a US number', '+14155550100'],
    ['a US number with spaces', '+1 415 555 0100'],
    ['a UK number', '+442079460958'],
    ['+91 and too few digits', '+91987650'],
    ['+91 and too many digits', '+9198765000311'],
    ['a + without 91', '+9876500031'],
    ['+91 and a landline', '+91 22 2345 6789'],
    ['brackets', '(987) 650-0031'],
    ['ten digits with a space but not a mobile', '58765 00031'],
    ['too short', '98'],
  ])('answers %s (%j) with 400 naming username, creating nothing', async (_label, username) => {
    const response = await expectUnchanged(ctx.database, () => createAccount(username));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('username', USERNAME_RULE));
  });

  it.each([
    ['a number that is not a mobile (starts with 5)', '5876500041'],
    ['a short run of digits', '12345'],
    ['a name with a hyphen', 'acme-ops'],
  ])('keeps other usernames as typed: %s', async (_label, username) => {
    const response = await createAccount(username);
    expect(response.statusCode).toBe(201);
    expect(response.json().data.username).toBe(username);
    expect(await storedUsername(response.json().data.id)).toBe(username);
  });

  it('does not fold a non-mobile run of digits into +91 at login', async () => {
    expect((await createAccount('5876500051')).statusCode).toBe(201);
    expect((await login('5876500051')).statusCode).toBe(200);
    const folded = await expectUnchanged(ctx.database, () => login('+915876500051'));
    expect(folded.statusCode).toBe(401);
    expect(folded.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
  });
});

describe('logging in with a mobile-number username', () => {
  it('takes every form of the number, each reaching the same account', async () => {
    const account = await accountWithStore('+919876500061');
    for (const username of [
      '+919876500061',
      '919876500061',
      '09876500061',
      '9876500061',
      '+91 98765 00061',
      '98765-00061',
    ]) {
      expect(await storesSeenBy(username)).toEqual([account.store]);
    }
  });

  it('takes the number as a JSON number, as Velocity clients send it', async () => {
    const account = await accountWithStore('+919876500062');
    expect(await storesSeenBy(919876500062)).toEqual([account.store]);
    expect(await storesSeenBy(9876500062)).toEqual([account.store]);
  });

  it('answers a wrong password, in any form of the number, with 401, writing nothing', async () => {
    await accountWithStore('+919876500063');
    for (const username of ['+919876500063', '9876500063']) {
      const response = await expectUnchanged(ctx.database, () => login(username, `${PASSWORD}!`));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
    }
  });

  it.each(['+919876500064', '+14155550100', '98'])(
    'answers a username with no account (%j) with 401, writing nothing',
    async (username) => {
      const response = await expectUnchanged(ctx.database, () => login(username));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
    },
  );
});

describe('accounts stored with raw digits before usernames were made canonical', () => {
  it.each(['9876500071', '919876500072', '09876500073'])(
    'an account stored as %j logs in with every form',
    async (raw) => {
      const account = await legacyAccount(raw);
      const number = raw.slice(-10);
      for (const username of [
        `+91${number}`,
        `91${number}`,
        `0${number}`,
        number,
        `+91 ${number.slice(0, 5)} ${number.slice(5)}`,
      ]) {
        expect(await storesSeenBy(username)).toEqual([account.store]);
      }
      expect(await storedUsername(account.id)).toBe(raw);
    },
  );

  it('keeps its number: a new account in any form of it is refused', async () => {
    await legacyAccount('9876500074');
    for (const username of ['+919876500074', '919876500074', '09876500074', '9876500074']) {
      const response = await expectUnchanged(ctx.database, () => createAccount(username));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(fieldError('username', TAKEN, 'username_taken'));
    }
  });

  it('answers a wrong password with 401', async () => {
    await legacyAccount('9876500075');
    const response = await expectUnchanged(ctx.database, () => login('+919876500075', 'wrong password'));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'invalid_login', message: BAD_LOGIN, errors: [BAD_LOGIN] });
  });

  it('when two old accounts hold spellings of one number, the exact spelling wins, then the canonical order', async () => {
    const tenDigits = await legacyAccount('9876500076');
    const withZero = await legacyAccount('09876500076');
    expect(await storesSeenBy('9876500076')).toEqual([tenDigits.store]);
    expect(await storesSeenBy('09876500076')).toEqual([withZero.store]);
    // Neither spelling typed: +91…, then 91…, then 0…, then the ten digits.
    expect(await storesSeenBy('+919876500076')).toEqual([withZero.store]);
  });
});
