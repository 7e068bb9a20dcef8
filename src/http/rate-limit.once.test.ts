import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestContext } from '../../test/app.js';
import { openTestDatabase } from '../../test/databases.js';
import type { Redis } from 'ioredis';
import type { Database } from '../base/db/client.js';
import { admin, authed, STORES } from '../../test/kit/http.js';
import { type TestRedis, testRedis } from '../../test/redis.js';

const LIMIT = 3;
const POLICY = `"account";q=${LIMIT};w=60`;
// The window is a real minute (the limiter's own clock); a test takes well under a second of it.
const remaining = (r: number) => new RegExp(`^"account";r=${r};t=(59|60)$`);
const EXCEEDED = /^Rate limit exceeded: 3 requests per minute per account; retry in (59|60) s$/;

const list = (ctx: TestContext, apiKey: string) =>
  ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) });

// One database for the file: every test makes its own accounts, and the counters live in the app
// (or under a Redis prefix of the test's own), so each app below, configured as its test needs, is
// built on it and closed alone. A database per app would cost a copy of the template each.
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});
/** An app with this limit per account, counting in Redis under `redisKeyPrefix` when given one. */
const appWith = ({
  ratePerMinute,
  redis,
  redisKeyPrefix,
}: {
  ratePerMinute: number;
  redis?: Redis;
  redisKeyPrefix?: string;
}) =>
  createTestApp({
    database,
    redis,
    settings: { limits: { ratePerMinute, ...(redisKeyPrefix && { redisKeyPrefix }) } },
  });

describe.each(['in process', 'in Redis'] as const)('the per-account limit, counters %s', (where) => {
  let redis: TestRedis | undefined;
  let ctx: TestContext;
  beforeAll(async () => {
    redis = where === 'in Redis' ? testRedis() : undefined;
    ctx = await appWith({ ratePerMinute: LIMIT, redis: await redis?.connect(), redisKeyPrefix: redis?.prefix });
  });
  afterAll(async () => {
    await ctx.app.close();
    await redis?.close();
  });

  it('counts down in RateLimit, then answers 429 with Retry-After in the error envelope', async () => {
    const { apiKey } = await ctx.createAccount();
    for (let left = LIMIT - 1; left >= 0; left--) {
      const response = await list(ctx, apiKey);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-policy']).toBe(POLICY);
      expect(response.headers.ratelimit).toMatch(remaining(left));
      expect(response.headers['retry-after']).toBeUndefined();
    }
    const refused = await list(ctx, apiKey);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.headers['ratelimit-policy']).toBe(POLICY);
    expect(refused.headers.ratelimit).toMatch(remaining(0));
    expect(refused.headers['x-request-id']).toBeDefined();
    const body = refused.json();
    expect(body.message).toMatch(EXCEEDED);
    expect(body).toEqual({ code: 'rate_limited', message: body.message, errors: [body.message] });
  });

  it('keys by account: every key of one account shares its budget, another account has its own', async () => {
    const first = await ctx.createAccount();
    const second = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${first.id}/api-keys`,
      headers: admin,
    });
    expect(second.statusCode).toBe(201);
    const secondKey = second.json().api_key as string;
    for (const key of [first.apiKey, secondKey, first.apiKey]) expect((await list(ctx, key)).statusCode).toBe(200);
    expect((await list(ctx, secondKey)).statusCode).toBe(429);

    const other = await ctx.createAccount();
    const response = await list(ctx, other.apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.headers.ratelimit).toMatch(remaining(LIMIT - 1));
  });

  it('limits every account route, bodies and all, before the body is looked at', async () => {
    const { apiKey } = await ctx.createAccount();
    for (let i = 0; i < LIMIT; i++) expect((await list(ctx, apiKey)).statusCode).toBe(200);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/rates',
      headers: authed(apiKey),
      payload: { nonsense: true },
    });
    expect(response.statusCode).toBe(429);
    expect(response.json().message).toMatch(EXCEEDED);
  });

  it('answers a bad credential 401 without counting it or naming a budget', async () => {
    const response = await list(ctx, 'dky_not-a-key');
    expect(response.statusCode).toBe(401);
    expect(response.headers['ratelimit-policy']).toBeUndefined();
    expect(response.headers.ratelimit).toBeUndefined();
  });

  it('leaves the operator and public routes alone', async () => {
    for (let i = 0; i <= LIMIT; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: `Operator ${i}` },
      });
      expect(response.statusCode).toBe(201);
      expect(response.headers.ratelimit).toBeUndefined();
    }
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers.ratelimit).toBeUndefined();
  });
});

// In one test process; each instance has its own Redis connection and in-process counters, as an API process has.
describe('two app instances on one database', () => {
  it('share an account budget through Redis', async () => {
    const redis = testRedis();
    const one = await appWith({ ratePerMinute: LIMIT, redis: await redis.connect(), redisKeyPrefix: redis.prefix });
    const two = await appWith({ ratePerMinute: LIMIT, redis: await redis.connect(), redisKeyPrefix: redis.prefix });
    try {
      const { apiKey } = await one.createAccount();
      expect((await list(one, apiKey)).headers.ratelimit).toMatch(remaining(2));
      expect((await list(two, apiKey)).headers.ratelimit).toMatch(remaining(1));
      expect((await list(one, apiKey)).headers.ratelimit).toMatch(remaining(0));
      expect((await list(two, apiKey)).statusCode).toBe(429);
      expect((await list(one, apiKey)).statusCode).toBe(429);
    } finally {
      await two.app.close();
      await one.app.close();
      await redis.close();
    }
  });

  it('count apart without Redis', async () => {
    const one = await appWith({ ratePerMinute: LIMIT });
    const two = await appWith({ ratePerMinute: LIMIT });
    try {
      const { apiKey } = await one.createAccount();
      for (let i = 0; i < LIMIT; i++) expect((await list(one, apiKey)).statusCode).toBe(200);
      expect((await list(one, apiKey)).statusCode).toBe(429);
      const other = await list(two, apiKey);
      expect(other.statusCode).toBe(200);
      expect(other.headers.ratelimit).toMatch(remaining(LIMIT - 1));
    } finally {
      await two.app.close();
      await one.app.close();
    }
  });
});

describe('RATE_LIMIT_PER_MINUTE=0', () => {
  it('turns the limit and its headers off', async () => {
    const ctx = await appWith({ ratePerMinute: 0 });
    try {
      const { apiKey } = await ctx.createAccount();
      for (let i = 0; i < 10; i++) {
        const response = await list(ctx, apiKey);
        expect(response.statusCode).toBe(200);
        expect(response.headers.ratelimit).toBeUndefined();
        expect(response.headers['ratelimit-policy']).toBeUndefined();
      }
      const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(spec.paths['/custom/api/v1/client-stores'].get.responses)).not.toContain('429');
    } finally {
      await ctx.app.close();
    }
  });
});

describe('an unreachable Redis', () => {
  it('counts in process at once, so the limit still holds (per process) and no request fails', async () => {
    const redis = testRedis();
    const connection = await redis.connect();
    const ctx = await appWith({ ratePerMinute: LIMIT, redis: connection, redisKeyPrefix: redis.prefix });
    try {
      const { apiKey } = await ctx.createAccount();
      connection.disconnect();
      for (let left = LIMIT - 1; left >= 0; left--) {
        const response = await list(ctx, apiKey);
        expect(response.statusCode).toBe(200);
        expect(response.headers.ratelimit).toMatch(remaining(left));
      }
      const refused = await list(ctx, apiKey);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(EXCEEDED);
    } finally {
      await ctx.app.close();
      await redis.close();
    }
  });
});
