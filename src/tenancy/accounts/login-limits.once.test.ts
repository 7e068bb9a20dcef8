import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { admin, AUTH_TOKEN, authed, STORES } from '../../../test/kit/http.js';
import { type TestRedis, testRedis } from '../../../test/redis.js';

const ALLOWANCE = 10;
const PASSWORD = 'correct horse battery';
const BAD_LOGIN = 'Invalid username or password';
const MINUTE = 60_000;
const blocked = (seconds: number) => ({
  message: `Too many failed logins for this username or from this address; retry in ${seconds} s`,
  errors: [`Too many failed logins for this username or from this address; retry in ${seconds} s`],
});

let counter = 0;
let addressCounter = 0;
/** An address no other test uses, so the per-address counters of tests never meet. */
const newAddress = () => `198.51.100.${++addressCounter}`;

describe.each(['in process', 'in Redis'] as const)('failed logins, counters %s', (where) => {
  let redis: TestRedis | undefined;
  let ctx: TestContext;
  beforeAll(async () => {
    redis = where === 'in Redis' ? testRedis() : undefined;
    ctx = await createTestApp({ limits: { loginAttemptsPerMinute: ALLOWANCE, redis: redis?.connect(), redisKeyPrefix: redis?.prefix } });
  });
  afterAll(async () => {
    await ctx.close();
    await redis?.close();
  });

  async function newLogin(username = `login.${where.length}.${++counter}`) {
    const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: admin, payload: { name: username, username, password: PASSWORD } });
    expect(response.statusCode).toBe(201);
    return { username, apiKey: response.json().api_key as string };
  }
  const login = (username: string, password: string, remoteAddress: string) =>
    ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password }, remoteAddress });
  async function failTimes(times: number, username: string, address: string) {
    for (let i = 0; i < times; i++) {
      const response = await login(username, 'wrong password', address);
      expect(response.statusCode, `failure ${i + 1}`).toBe(401);
      expect(response.json().message).toBe(BAD_LOGIN);
    }
  }

  it('checks ten wrong passwords per username, then answers 429 with Retry-After, even to the right one', async () => {
    const { username } = await newLogin();
    await failTimes(ALLOWANCE, username, newAddress());
    const refused = await login(username, PASSWORD, newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual(blocked(60));

    ctx.clock.advance(MINUTE);
    expect((await login(username, PASSWORD, newAddress())).statusCode).toBe(200);
    // A success forgets the username's failures.
    await failTimes(ALLOWANCE, username, newAddress());
  });

  it('doubles the wait for each failure after a block, up to 15 minutes, and a refused attempt never lengthens it', async () => {
    const { username } = await newLogin();
    await failTimes(ALLOWANCE, username, newAddress());
    for (const [waited, seconds] of [[60, 120], [120, 240], [240, 480], [480, 900], [900, 900]] as const) {
      ctx.clock.advance(waited * 1000);
      // The block is over: one more guess is checked, and it fails again.
      await failTimes(1, username, newAddress());
      for (let i = 0; i < 3; i++) {
        const refused = await login(username, PASSWORD, newAddress());
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe(String(seconds));
      }
    }
    // Quiet for the block and a window after it: forgotten.
    ctx.clock.advance(15 * MINUTE + MINUTE);
    await failTimes(ALLOWANCE, username, newAddress());
  });

  it('counts every spelling of a mobile number as one username', async () => {
    const { username } = await newLogin('+919876500001');
    const spellings = ['+919876500001', '919876500001', '09876500001', '9876500001', '98765 00001'];
    for (let i = 0; i < ALLOWANCE; i++) {
      expect((await login(spellings[i % spellings.length]!, 'wrong password', newAddress())).statusCode).toBe(401);
    }
    for (const spelling of spellings) expect((await login(spelling, PASSWORD, newAddress())).statusCode).toBe(429);
    ctx.clock.advance(MINUTE);
    expect((await login(username, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it('limits one address guessing across many usernames, and not the same users elsewhere', async () => {
    const guesser = newAddress();
    const users = await Promise.all(Array.from({ length: ALLOWANCE + 1 }, () => newLogin()));
    for (const { username } of users.slice(0, ALLOWANCE)) await failTimes(1, username, guesser);
    const refused = await login(users[ALLOWANCE]!.username, PASSWORD, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    // Each username failed once: from another address they log in.
    for (const { username } of users) expect((await login(username, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it("gives an address's attempt back when it succeeds, so logging in often is never limited", async () => {
    const office = newAddress();
    const { username } = await newLogin();
    for (let i = 0; i < 3 * ALLOWANCE; i++) expect((await login(username, PASSWORD, office)).statusCode).toBe(200);
    const other = await newLogin();
    await failTimes(ALLOWANCE, other.username, office);
    expect((await login(username, PASSWORD, office)).statusCode).toBe(429);
  });

  it('blocks the username from every address (the per-username rule) but never its API keys or tokens', async () => {
    const victim = await newLogin();
    const token = (await login(victim.username, PASSWORD, newAddress())).json().token as string;
    for (let i = 0; i < ALLOWANCE; i++) await failTimes(1, victim.username, newAddress());
    expect((await login(victim.username, PASSWORD, newAddress())).statusCode).toBe(429);
    for (const credential of [victim.apiKey, token]) {
      expect((await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(credential) })).statusCode).toBe(200);
    }
  });

  it('checks at most ten passwords however many guesses arrive at once', async () => {
    const { username } = await newLogin();
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 3 * ALLOWANCE }, () => login(username, 'wrong password', address)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(ALLOWANCE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * ALLOWANCE);
  });
});

// In one test process; each instance has its own Redis connection and in-process counters, as an API process has.
describe('failed logins through two app instances on one database', () => {
  it('share the per-username count through Redis', async () => {
    const redis = testRedis();
    const limits = (connection = redis.connect()) => ({ loginAttemptsPerMinute: ALLOWANCE, redis: connection, redisKeyPrefix: redis.prefix });
    const one = await createTestApp({ limits: limits() });
    const two = await createTestApp({ database: one.database, limits: limits() });
    try {
      const created = await one.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: admin, payload: { name: 'Shared', username: 'shared.login', password: PASSWORD } });
      expect(created.statusCode).toBe(201);
      for (let i = 0; i < ALLOWANCE; i++) {
        const app = i % 2 === 0 ? one.app : two.app;
        const response = await app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'shared.login', password: 'wrong password' }, remoteAddress: `192.0.2.${i}` });
        expect(response.statusCode).toBe(401);
      }
      for (const app of [one.app, two.app]) {
        const response = await app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'shared.login', password: PASSWORD }, remoteAddress: '192.0.2.200' });
        expect(response.statusCode).toBe(429);
      }
    } finally {
      await two.app.close();
      await one.close();
      await redis.close();
    }
  });

  it('refuses logins with 503 while Redis is unreachable, rather than allowing unlimited guesses', async () => {
    const redis = testRedis();
    const connection = redis.connect();
    const ctx = await createTestApp({ limits: { redis: connection, redisKeyPrefix: redis.prefix } });
    try {
      const { apiKey } = await ctx.createAccount('Cut off', { username: 'cut.off', password: PASSWORD });
      connection.disconnect();
      const response = await ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username: 'cut.off', password: PASSWORD } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: 'Login is unavailable for now: the rate-limit store is not answering. API keys still work.',
        errors: ['Login is unavailable for now: the rate-limit store is not answering. API keys still work.'],
      });
      expect((await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) })).statusCode).toBe(200);
    } finally {
      await ctx.close();
      await redis.close();
    }
  });
});
