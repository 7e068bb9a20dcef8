import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { openTestDatabase } from '../../../test/databases.js';
import type { Redis } from 'ioredis';
import type { Database } from '../../base/db/client.js';
import { admin, AUTH_TOKEN, authed, STORES } from '../../../test/kit/http.js';
import { type TestRedis, testRedis } from '../../../test/redis.js';

// Small allowances keep the number of scrypt checks down; the rules are the defaults' (10, 100, 30).
const PAIR = 3;
const ADDRESS = 9;
const USERNAME = 10;
const LIMITS = {
  loginAttemptsPerMinute: PAIR,
  loginAddressAttemptsPerMinute: ADDRESS,
  loginUsernameAttemptsPer15Minutes: USERNAME,
};
const PASSWORD = 'correct horse battery';
const BAD_LOGIN = 'Invalid username or password';
const MINUTE = 60_000;
const blocked = (seconds: number) => ({
  code: 'too_many_logins',
  message: `Too many failed logins from this address; retry in ${seconds} s`,
  errors: [`Too many failed logins from this address; retry in ${seconds} s`],
});

let counter = 0;
let addressCounter = 0;
/**
 * An address no other test uses. The app trusts no proxy header (no trustProxy): the client
 * address is the socket's peer, which `remoteAddress` sets for app.inject.
 */
const newAddress = () => `198.51.${(++addressCounter >> 8) & 255}.${addressCounter & 255}`;

// One database for the file: every test logs in with usernames of its own, and the counters live in
// the app (or under a Redis prefix of the test's own), so each app below, configured as its test
// needs, is built on it and closed alone. A database per app would cost a copy of the template each.
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});
/** An app with these login allowances, counting in Redis under `redisKeyPrefix` when given one. */
const appWith = ({ redis, redisKeyPrefix, ...accounts }: typeof LIMITS & { redis?: Redis; redisKeyPrefix?: string }) =>
  createTestApp({ database, redis, settings: { accounts, ...(redisKeyPrefix && { limits: { redisKeyPrefix } }) } });

describe.each(['in process', 'in Redis'] as const)('failed logins, counters %s', (where) => {
  let redis: TestRedis | undefined;
  let ctx: TestContext;
  beforeAll(async () => {
    redis = where === 'in Redis' ? testRedis() : undefined;
    ctx = await appWith({ ...LIMITS, redis: await redis?.connect(), redisKeyPrefix: redis?.prefix });
  });
  afterAll(async () => {
    await ctx.app.close();
    await redis?.close();
  });

  async function newLogin(username = `login.${where.length}.${++counter}`) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: admin,
      payload: { name: username, username, password: PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    return { username, apiKey: response.json().api_key as string };
  }
  const login = (username: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password }, remoteAddress, headers });
  async function failTimes(times: number, username: string, address: string) {
    for (let i = 0; i < times; i++) {
      const response = await login(username, 'wrong password', address);
      expect(response.statusCode, `failure ${i + 1}`).toBe(401);
      expect(response.json().message).toBe(BAD_LOGIN);
    }
  }

  it('blocks the attacking (username, address) pair, even with the right password, while the owner logs in from another address', async () => {
    const { username } = await newLogin();
    const attacker = newAddress();
    await failTimes(PAIR, username, attacker);
    const refused = await login(username, PASSWORD, attacker);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual(blocked(60));
    // A forwarded-for header is not believed: the attacker cannot pose as a fresh address.
    expect((await login(username, 'wrong password', attacker, { 'x-forwarded-for': newAddress() })).statusCode).toBe(
      429,
    );

    const owner = await login(username, PASSWORD, newAddress());
    expect(owner.statusCode).toBe(200);
    expect(owner.json().token).toMatch(/^dkt_/);
    // The owner's success does not lift the attacker's block.
    expect((await login(username, PASSWORD, attacker)).statusCode).toBe(429);
    ctx.clock.advance(MINUTE);
    expect((await login(username, PASSWORD, attacker)).statusCode).toBe(200);
    // A success forgets the pair's failures.
    await failTimes(PAIR, username, attacker);
  });

  it("doubles the pair's wait for each failure after a block, up to 15 minutes, and a refused attempt never lengthens it", async () => {
    const { username } = await newLogin();
    const address = newAddress();
    await failTimes(PAIR, username, address);
    for (const [waited, seconds] of [
      [60, 120],
      [120, 240],
      [240, 480],
      [480, 900],
      [900, 900],
    ] as const) {
      ctx.clock.advance(waited * 1000);
      // The block is over: one more guess is checked, and it fails again.
      await failTimes(1, username, address);
      for (let i = 0; i < 3; i++) {
        const refused = await login(username, PASSWORD, address);
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe(String(seconds));
      }
      expect((await login(username, PASSWORD, newAddress())).statusCode).toBe(200);
    }
    // Quiet for the block and a window after it: forgotten.
    ctx.clock.advance(15 * MINUTE + MINUTE);
    await failTimes(PAIR, username, address);
  });

  it('counts every spelling of a mobile number as one username', async () => {
    // A number of each describe's own: usernames are unique in the file's one database.
    const last = where === 'in process' ? '1' : '2';
    const { username } = await newLogin(`+91987650000${last}`);
    const spellings = [
      `+91987650000${last}`,
      `91987650000${last}`,
      `0987650000${last}`,
      `987650000${last}`,
      `98765 0000${last}`,
    ];
    const address = newAddress();
    for (let i = 0; i < PAIR; i++) expect((await login(spellings[i]!, 'wrong password', address)).statusCode).toBe(401);
    for (const spelling of spellings) expect((await login(spelling, PASSWORD, address)).statusCode).toBe(429);
    expect((await login(spellings[4]!, PASSWORD, newAddress())).statusCode).toBe(200);
    ctx.clock.advance(MINUTE);
    expect((await login(username, PASSWORD, address)).statusCode).toBe(200);
  });

  it('blocks one address guessing across many usernames, and not the same users elsewhere', async () => {
    const guesser = newAddress();
    const users = await Promise.all(Array.from({ length: ADDRESS + 1 }, () => newLogin()));
    for (const { username } of users.slice(0, ADDRESS)) await failTimes(1, username, guesser);
    const refused = await login(users[ADDRESS]!.username, PASSWORD, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(blocked(60));
    for (const { username } of users) expect((await login(username, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it("an office behind one address: one user's typos block that user there, never the office", async () => {
    const office = newAddress();
    const [typist, second, third, fourth, quiet] = await Promise.all(Array.from({ length: 5 }, () => newLogin()));
    await failTimes(PAIR, typist!.username, office);
    await failTimes(PAIR - 1, second!.username, office);
    await failTimes(PAIR - 1, third!.username, office);
    await failTimes(1, fourth!.username, office);
    // Eight failures from the office within a minute: below the address's allowance.
    expect((await login(typist!.username, PASSWORD, office)).statusCode).toBe(429);
    for (const user of [second, third, fourth, quiet])
      expect((await login(user!.username, PASSWORD, office)).statusCode).toBe(200);
    // The typist from a phone on another network.
    expect((await login(typist!.username, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it("gives an address's attempt back when it succeeds, so logging in often is never limited", async () => {
    const office = newAddress();
    const { username } = await newLogin();
    for (let i = 0; i < 3 * ADDRESS; i++) expect((await login(username, PASSWORD, office)).statusCode).toBe(200);
    const others = await Promise.all(Array.from({ length: ADDRESS / PAIR }, () => newLogin()));
    for (const other of others) await failTimes(PAIR, other.username, office);
    expect((await login(username, PASSWORD, office)).statusCode).toBe(429);
  });

  it('a username under attack from many addresses: those that failed are refused, a fresh one still gets its password checked', async () => {
    const victim = await newLogin();
    const token = (await login(victim.username, PASSWORD, newAddress())).json().token as string;
    const attackers = Array.from({ length: Math.ceil(USERNAME / PAIR) }, newAddress);
    for (let failed = 0; failed < USERNAME; failed++)
      await failTimes(1, victim.username, attackers[Math.floor(failed / PAIR)]!);
    // The last attacker failed once only, below the pair's allowance: refused now the username is under attack.
    const last = attackers.at(-1)!;
    const refused = await login(victim.username, PASSWORD, last);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(blocked(60));

    expect((await login(victim.username, PASSWORD, newAddress())).statusCode).toBe(200);
    // A fresh address gets one guess checked, not PAIR, however many it sends at once.
    const burst = newAddress();
    const answers = await Promise.all(Array.from({ length: 5 }, () => login(victim.username, 'wrong password', burst)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 429, 429, 429, 429]);
    expect((await login(victim.username, PASSWORD, burst)).statusCode).toBe(429);
    // While the attack goes on, an address that failed during it stays refused past the minute.
    ctx.clock.advance(10 * MINUTE);
    await failTimes(1, victim.username, newAddress());
    ctx.clock.advance(2 * MINUTE);
    expect((await login(victim.username, PASSWORD, burst)).statusCode).toBe(429);
    // Once it is over (quiet for 15 minutes), the address is checked again.
    ctx.clock.advance(15 * MINUTE);
    expect((await login(victim.username, PASSWORD, burst)).statusCode).toBe(200);
    // Credentials already issued never notice.
    for (const credential of [victim.apiKey, token]) {
      expect((await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(credential) })).statusCode).toBe(200);
    }
  });

  it('checks at most the allowance of passwords however many guesses arrive at once', async () => {
    const { username } = await newLogin();
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 3 * PAIR }, () => login(username, 'wrong password', address)),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(PAIR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * PAIR);
  });
});

// In one test process; each instance has its own Redis connection and in-process counters, as an API process has.
describe('failed logins through two app instances on one database', () => {
  it('share the counts through Redis', async () => {
    const redis = testRedis();
    const limits = async () => ({ ...LIMITS, redis: await redis.connect(), redisKeyPrefix: redis.prefix });
    const one = await appWith(await limits());
    const two = await appWith(await limits());
    try {
      const created = await one.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: admin,
        payload: { name: 'Shared', username: 'shared.login', password: PASSWORD },
      });
      expect(created.statusCode).toBe(201);
      const send = (app: TestContext['app'], password: string, remoteAddress: string) =>
        app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'shared.login', password }, remoteAddress });
      for (let i = 0; i < PAIR; i++)
        expect((await send(i % 2 === 0 ? one.app : two.app, 'wrong password', '192.0.2.1')).statusCode).toBe(401);
      for (const app of [one.app, two.app]) {
        expect((await send(app, PASSWORD, '192.0.2.1')).statusCode).toBe(429);
        expect((await send(app, PASSWORD, '192.0.2.200')).statusCode).toBe(200);
      }
    } finally {
      await two.app.close();
      await one.app.close();
      await redis.close();
    }
  });

  it('count in process while Redis is unreachable: guessing is still limited and logins still work', async () => {
    const redis = testRedis();
    const connection = await redis.connect();
    const ctx = await appWith({ ...LIMITS, redis: connection, redisKeyPrefix: redis.prefix });
    try {
      const { apiKey } = await ctx.createAccount('Cut off', { username: 'cut.off', password: PASSWORD });
      connection.disconnect();
      const send = (password: string, remoteAddress: string) =>
        ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'cut.off', password }, remoteAddress });
      for (let i = 0; i < PAIR; i++) expect((await send('wrong password', '192.0.2.7')).statusCode).toBe(401);
      const refused = await send(PASSWORD, '192.0.2.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual(blocked(60));
      expect((await send(PASSWORD, '192.0.2.8')).statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) })).statusCode).toBe(200);
    } finally {
      await ctx.app.close();
      await redis.close();
    }
  });
});
