import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_BACK_MESSAGE, REDIS_DOWN_MESSAGE } from '../src/base/redis.js';
import { createTestApp, type TestContext } from './app.js';
import { AUTH_TOKEN, authed, RATES } from './kit/http.js';
import { forward } from './rates-quotes.js';
import { type OwnRedisServer, startRedisServer, type TestRedis, testRedis } from './redis.js';

const LIMIT = 30;
const PAIR = 2;
const PASSWORD = 'correct horse battery';
// Enough that the load never reaches an account's budget: every answer is a 200.
const LOAD_ACCOUNTS = 30;
const CONCURRENCY = 4;
const BEFORE_KILL = 120;
const AFTER_KILL = 240;
/** The limits' Redis time-out these instances run with (the default). */
const REDIS_TIMEOUT_MS = 200;
const remaining = (r: number) => new RegExp(`^"account";r=${r};t=(59|60)$`);

interface LogLine {
  msg: string;
  level: number;
}

interface Instance {
  ctx: TestContext;
  logs: LogLine[];
}

const said = (instance: Instance, message: string) => instance.logs.filter((line) => line.msg === message).length;

async function until(what: string, ms: number, done: () => boolean) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Two app instances (two API processes, as far as the limits go) on one database and one Redis
// server this file starts, stops and starts again by its pid.
describe('the limits when Redis goes away and comes back', () => {
  let server: OwnRedisServer;
  let redis: TestRedis;
  let one: Instance;
  let two: Instance;
  let loadKeys: string[];

  async function instance(database?: TestContext['database']): Promise<Instance> {
    const logs: LogLine[] = [];
    const ctx = await createTestApp({
      database,
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line)) } },
      settings: {
        limits: {
          ratePerMinute: LIMIT,
          redisKeyPrefix: redis.prefix,
          redisProbeIntervalMs: 100,
          redisTimeoutMs: REDIS_TIMEOUT_MS,
        },
        accounts: { loginAttemptsPerMinute: PAIR },
      },
      redis: await redis.connect(),
    });
    return { ctx, logs };
  }

  beforeAll(async () => {
    server = await startRedisServer();
    redis = testRedis(server.url);
    one = await instance();
    two = await instance(one.ctx.database);
    loadKeys = [];
    for (let i = 0; i < LOAD_ACCOUNTS; i++) loadKeys.push((await one.ctx.createAccount()).apiKey);
  });
  afterAll(async () => {
    server?.resume();
    await two?.ctx.app.close();
    await one?.ctx.close();
    await redis?.close();
    await server?.kill();
  });

  const quote = (i: Instance, apiKey: string) =>
    i.ctx.app.inject({ method: 'POST', url: RATES, headers: authed(apiKey), payload: forward() });
  const login = (i: Instance, username: string, password: string, remoteAddress: string) =>
    i.ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password }, remoteAddress });

  /**
   * Sends `total` quotes from CONCURRENCY clients; `midway` runs once `at` have been sent, while the
   * others keep sending. Answers each request's start, latency and status.
   */
  async function load(i: Instance, total: number, at: number, midway: () => Promise<void>) {
    const results: { start: number; ms: number; status: number }[] = [];
    let sent = 0;
    let interruption: Promise<void> | undefined;
    const client = async () => {
      while (sent < total) {
        const n = sent++;
        if (n === at) interruption = midway();
        const start = performance.now();
        const response = await quote(i, loadKeys[n % LOAD_ACCOUNTS]!);
        results.push({ start, ms: performance.now() - start, status: response.statusCode });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    await interruption;
    return results;
  }

  /**
   * The requests after Redis failed answer as fast as the healthy ones before it, in the same run:
   * half of them no slower than twice the healthy median, and no more of them take a whole Redis
   * time-out than were in flight when it failed (one failure opens the breaker), plus as many as
   * took that long while healthy (scaled to the count) and one more pause of the machine's.
   * Waiting on Redis, every one would take a time-out.
   */
  function expectNoWaitOnRedis(results: { start: number; ms: number }[], failedAt: number) {
    const before = results.filter((r) => r.start < failedAt).map((r) => r.ms);
    const after = results.filter((r) => r.start >= failedAt).map((r) => r.ms);
    // A request that waited on Redis took at least its time-out (timers never fire early), however
    // fast or slow the machine; a busy machine is allowed for by the healthy requests of this run.
    const waited = (ms: number) => ms >= REDIS_TIMEOUT_MS;
    const slowWhileHealthy = before.filter(waited).length;
    const allowed = 2 * CONCURRENCY + Math.ceil((slowWhileHealthy * after.length) / before.length);
    const figures = JSON.stringify({
      before: median(before),
      after: median(after),
      slowWhileHealthy,
      allowed,
      waited: after.filter(waited).map(Math.round),
    });
    expect(median(after), figures).toBeLessThanOrEqual(2 * median(before) + 1);
    expect(after.filter(waited).length, figures).toBeLessThanOrEqual(allowed);
  }

  it('a crash: no request waits on it, limits hold per process, said once each way; after a restart they are shared again', async () => {
    // Healthy: one count through both instances.
    const warm = await one.ctx.createAccount();
    expect((await quote(one, warm.apiKey)).headers.ratelimit).toMatch(remaining(LIMIT - 1));
    expect((await quote(two, warm.apiKey)).headers.ratelimit).toMatch(remaining(LIMIT - 2));

    let killedAt = Number.POSITIVE_INFINITY;
    const results = await load(one, BEFORE_KILL + AFTER_KILL, BEFORE_KILL, async () => {
      await server.kill();
      killedAt = performance.now();
    });
    expect(killedAt).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
    const after = results.filter((r) => r.start >= killedAt).map((r) => r.ms);
    expect(after.length).toBeGreaterThan(AFTER_KILL / 2);
    // Before the breaker, each of these waited for a Redis time-out (1 to 2 s).
    expectNoWaitOnRedis(results, killedAt);

    // Still limited, now by each process on its own: LIMIT here, and LIMIT again there.
    const fresh = await one.ctx.createAccount();
    for (let left = LIMIT - 1; left >= 0; left--)
      expect((await quote(one, fresh.apiKey)).headers.ratelimit).toMatch(remaining(left));
    expect((await quote(one, fresh.apiKey)).statusCode).toBe(429);
    const elsewhere = await quote(two, fresh.apiKey);
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers.ratelimit).toMatch(remaining(LIMIT - 1));

    // Logins too: the pair's limit holds in process, and nobody gets a 503.
    const owner = { username: 'outage.owner', password: PASSWORD };
    await one.ctx.createAccount('Outage owner', owner);
    for (let i = 0; i < PAIR; i++)
      expect((await login(one, owner.username, 'wrong password', '203.0.113.9')).statusCode).toBe(401);
    expect((await login(one, owner.username, PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    expect((await login(one, owner.username, PASSWORD, '203.0.113.10')).statusCode).toBe(200);

    for (const i of [one, two]) {
      expect(said(i, REDIS_DOWN_MESSAGE)).toBe(1);
      expect(said(i, REDIS_BACK_MESSAGE)).toBe(0);
    }
    expect(one.logs.find((line) => line.msg === REDIS_DOWN_MESSAGE)).toMatchObject({ level: 40 });

    // The same port again: each instance's probe finds it and says so once.
    server = await startRedisServer(server.port);
    await until(
      'both instances to log that Redis is back',
      15_000,
      () => said(one, REDIS_BACK_MESSAGE) + said(two, REDIS_BACK_MESSAGE) === 2,
    );
    const shared = await one.ctx.createAccount();
    for (let n = 1; n <= LIMIT; n++) {
      const response = await quote(n % 2 === 0 ? one : two, shared.apiKey);
      expect(response.statusCode).toBe(200);
      expect(response.headers.ratelimit).toMatch(remaining(LIMIT - n));
    }
    expect((await quote(one, shared.apiKey)).statusCode).toBe(429);
    expect((await quote(two, shared.apiKey)).statusCode).toBe(429);
    for (const i of [one, two]) {
      expect(said(i, REDIS_DOWN_MESSAGE)).toBe(1);
      expect(said(i, REDIS_BACK_MESSAGE)).toBe(1);
    }
  });

  it('a hang (the server stopped, its connections open): the first commands time out, the rest never wait', async () => {
    const before = { down: said(one, REDIS_DOWN_MESSAGE), back: said(one, REDIS_BACK_MESSAGE) };
    const probe = await one.ctx.createAccount();
    expect((await quote(one, probe.apiKey)).headers.ratelimit).toMatch(remaining(LIMIT - 1));

    let pausedAt = Number.POSITIVE_INFINITY;
    const results = await load(one, BEFORE_KILL + AFTER_KILL, BEFORE_KILL, async () => {
      server.pause();
      pausedAt = performance.now();
    });
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
    // Only the requests in flight when it stopped wait out the 200 ms time-out.
    expectNoWaitOnRedis(results, pausedAt);
    expect(said(one, REDIS_DOWN_MESSAGE)).toBe(before.down + 1);

    server.resume();
    await until('Redis to be back', 15_000, () => said(one, REDIS_BACK_MESSAGE) === before.back + 1);
    expect((await quote(one, (await one.ctx.createAccount()).apiKey)).headers.ratelimit).toMatch(remaining(LIMIT - 1));
  });
});
