import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ORCHESTRATE, post } from '../../../test/kit/http.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { type TestRedis, testRedis } from '../../../test/redis.js';

// Issue 24, point 9: one client read the public tracking page 313 times a second. The /t/ routes
// are limited per client address (TRACKING_PAGE_RATE_PER_MINUTE), in process or in Redis.

const LIMIT = 3;
const POLICY = `"address";q=${LIMIT};w=60`;
const EXCEEDED = /^Rate limit exceeded: 3 requests per minute per client address; retry in (59|60) s$/;

describe.each(['in process', 'in Redis'] as const)('the tracking page limit per address, counters %s', (where) => {
  let redis: TestRedis | undefined;
  let ctx: TestContext;
  let page: string;
  beforeAll(async () => {
    redis = where === 'in Redis' ? testRedis() : undefined;
    ctx = await createTestApp({
      settings: { trackingPage: { ratePerMinute: LIMIT }, limits: { redisKeyPrefix: redis?.prefix } },
      redis: await redis?.connect(),
    });
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const booked = await post(ctx, apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }));
    page = new URL(booked.json().payload.track_url).pathname;
  });
  afterAll(async () => {
    await ctx.close();
    await redis?.close();
  });

  const get = (url: string, remoteAddress: string) => ctx.app.inject({ method: 'GET', url, remoteAddress });

  it('serves the page, its JSON and unknown tokens from one address up to the budget, then 429 with Retry-After', async () => {
    const address = '203.0.113.7';
    const served = [
      await get(page, address),
      await get(`${page}.json`, address),
      await get('/t/AAAAAAAAAAAAAAAAAAAAAA', address),
    ];
    expect(served.map((r) => r.statusCode)).toEqual([200, 200, 404]);
    for (const response of served) expect(response.headers['ratelimit-policy']).toBe(POLICY);
    const refused = await get(page, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    const body = refused.json();
    expect(body.message).toMatch(EXCEEDED);
    expect(body).toEqual({ code: 'rate_limited', message: body.message, errors: [body.message] });
    expect((await get(`${page}.json`, address)).statusCode).toBe(429);
  });

  it('counts each address apart, and leaves the API routes out of it', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await get(page, '198.51.100.1')).statusCode).toBe(200);
    expect((await get(page, '198.51.100.1')).statusCode).toBe(429);
    const other = await get(page, '198.51.100.2');
    expect(other.statusCode).toBe(200);
    expect(other.headers.ratelimit).toMatch(new RegExp(`^"address";r=${LIMIT - 1};t=(59|60)$`));
    const api = await ctx.app.inject({ method: 'GET', url: '/openapi.json', remoteAddress: '198.51.100.1' });
    expect(api.statusCode).toBe(200);
    expect(api.headers['ratelimit-policy']).toBeUndefined();
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const forwarded = (ctx: TestContext, page: string, remoteAddress: string, forwardedFor: string) =>
    ctx.app.inject({ method: 'GET', url: page, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
  async function appAndPage(trustProxy: false | number) {
    const ctx = await createTestApp({ settings: { server: { trustProxy }, trackingPage: { ratePerMinute: LIMIT } } });
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const booked = await post(ctx, apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }));
    return { ctx, page: new URL(booked.json().payload.track_url).pathname };
  }

  it('by default ignores X-Forwarded-For: a client naming another address each time still counts as its socket', async () => {
    const { ctx, page } = await appAndPage(false);
    try {
      const statuses = [];
      for (let i = 1; i <= LIMIT + 1; i++)
        statuses.push((await forwarded(ctx, page, '198.51.100.9', `203.0.113.${i}`)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await ctx.close();
    }
  });

  it('with one proxy trusted, counts each client the proxy names apart, and a client cannot name itself past the proxy', async () => {
    const { ctx, page } = await appAndPage(1);
    const proxy = '10.0.0.5';
    try {
      for (let i = 0; i < LIMIT; i++) expect((await forwarded(ctx, page, proxy, '203.0.113.20')).statusCode).toBe(200);
      expect((await forwarded(ctx, page, proxy, '203.0.113.20')).statusCode).toBe(429);
      // The proxy appends the address it saw; what the client wrote before it is not trusted.
      expect((await forwarded(ctx, page, proxy, '192.0.2.77, 203.0.113.20')).statusCode).toBe(429);
      const other = await forwarded(ctx, page, proxy, '203.0.113.21');
      expect(other.statusCode).toBe(200);
      expect(other.headers.ratelimit).toMatch(new RegExp(`^"address";r=${LIMIT - 1};t=(59|60)$`));
    } finally {
      await ctx.close();
    }
  });
});
