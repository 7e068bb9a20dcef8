import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RedisBreaker } from '../base/redis.js';
import { errorResponses } from './errors.js';
import { rateLimited } from '../domain/errors.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface AccountRateLimitOptions {
  /** Requests per minute per account; 0 turns the limit off. */
  perMinute: number;
  /** Shared counters in Redis, behind their circuit breaker; in process when absent. */
  redis?: RedisBreaker | undefined;
  /** Prefix of the Redis keys, so several deployments (or test runs) can share one server. */
  keyPrefix: string;
}

interface Policy {
  /** The IETF draft's policy name, and the Redis namespace's. */
  name: 'account' | 'address';
  key: (request: FastifyRequest) => string;
  /** What the 429 says the budget is. */
  per: string;
}

/**
 * Limits every request of a scope per account (not per address: one merchant's servers sit behind
 * many addresses, and many merchants behind one). Must be installed after the auth hook, whose
 * account id is the key. Answers the IETF draft's `RateLimit-Policy` and `RateLimit` headers on
 * every answer, and a 429 with `Retry-After` in the error envelope past the budget.
 *
 * With Redis, the count is shared by every process; while Redis fails (the breaker is open) each
 * process counts on its own, so the budget then applies per process.
 */
export function installAccountRateLimit(scope: FastifyInstance, options: AccountRateLimitOptions): Promise<void> {
  return installRateLimit(scope, options, { name: 'account', key: (request) => request.accountId, per: 'per account' });
}

/**
 * Limits the public routes of a scope (the customers' tracking page) per client address: they take
 * no credential, so the address is all there is to count (behind a proxy, the proxy's, as for
 * logins). The same headers, 429 and Redis fallback as the account limit.
 */
export function installAddressRateLimit(scope: FastifyInstance, options: AccountRateLimitOptions): Promise<void> {
  return installRateLimit(scope, options, { name: 'address', key: (request) => request.ip, per: 'per client address' });
}

async function installRateLimit(
  scope: FastifyInstance,
  options: AccountRateLimitOptions,
  policy: Policy,
): Promise<void> {
  const { perMinute, redis } = options;
  if (perMinute <= 0) return;
  const policyHeader = `"${policy.name}";q=${perMinute};w=${RATE_LIMIT_WINDOW_MS / 1000}`;

  function answer(
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
    remaining: number,
    resetSeconds: number,
    exceeded: boolean,
  ) {
    reply.header('ratelimit-policy', policyHeader);
    reply.header('ratelimit', `"${policy.name}";r=${remaining};t=${resetSeconds}`);
    if (!exceeded) return done();
    done(
      rateLimited(
        `Rate limit exceeded: ${perMinute} requests per minute ${policy.per}; retry in ${resetSeconds} s`,
        resetSeconds,
      ),
    );
  }

  // In process the count is a Map lookup, answered synchronously: the plugin's own path costs
  // every request three promises (about 3 µs of a /rates request's 25).
  const count = memoryWindows();
  const countInProcess = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const now = Date.now();
    // The window itself, counted: the answer's numbers are read off it, no object made per request.
    const window = count(policy.key(request), now);
    answer(
      reply,
      done,
      Math.max(0, perMinute - window.count),
      Math.ceil((window.resetAt - now) / 1000),
      window.count > perMinute,
    );
  };
  if (!redis) {
    scope.addHook('onRequest', countInProcess);
  } else {
    await scope.register(rateLimit, {
      // Only through createRateLimit below: the plugin's own hook writes the older draft's
      // RateLimit-Limit/-Remaining/-Reset headers and its own error body.
      global: false,
      max: perMinute,
      timeWindow: RATE_LIMIT_WINDOW_MS,
      keyGenerator: policy.key,
      redis: redis.redis,
      nameSpace: `${options.keyPrefix}rl:${policy.name}:`,
    });
    const check = scope.createRateLimit();
    scope.addHook('onRequest', (request, reply, done) => {
      // A dead Redis must neither slow the shipping API nor lift its limit: count here meanwhile.
      if (!redis.shared) return countInProcess(request, reply, done);
      redis
        .run(() => check(request))
        .then(
          (result) => {
            // No allow list is configured, so every answer carries the counts.
            if (result.isAllowed) return done();
            answer(reply, done, result.remaining, result.ttlInSeconds, result.isExceeded);
          },
          () => countInProcess(request, reply, done),
        );
    });
  }

  // Every route of the scope can now answer 429: document it where the route documents its errors.
  scope.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
    if (!schema?.response || schema.hide) return;
    route.schema = { ...schema, response: { ...schema.response, ...errorResponses(429) } };
  });
}

/**
 * Fixed one-minute windows per key, as the plugin's stores count them. At most `maxKeys` windows:
 * past that, ended ones go first, then the oldest (an evicted account starts a new window). Answers
 * the key's window with this request counted.
 */
function memoryWindows(maxKeys = 100_000) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (key: string, now: number): { readonly count: number; readonly resetAt: number } => {
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      if (!window && windows.size >= maxKeys) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        for (const k of windows.keys()) {
          if (windows.size < maxKeys) break;
          windows.delete(k);
        }
      }
      window = { count: 0, resetAt: now + RATE_LIMIT_WINDOW_MS };
      windows.set(key, window);
    }
    window.count += 1;
    return window;
  };
}
