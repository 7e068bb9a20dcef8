import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { errorResponses, tooManyRequests } from './errors.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;
const POLICY = 'account';

export interface AccountRateLimitOptions {
  /** Requests per minute per account; 0 turns the limit off. */
  perMinute: number;
  /** Shared counters; in process when absent. */
  redis?: Redis | undefined;
  /** Prefix of the Redis keys, so several deployments (or test runs) can share one server. */
  keyPrefix: string;
}

/**
 * Limits every request of a scope per account (not per address: one merchant's servers sit behind
 * many addresses, and many merchants behind one). Must be installed after the auth hook, whose
 * account id is the key. Answers the IETF draft's `RateLimit-Policy` and `RateLimit` headers on
 * every answer, and a 429 with `Retry-After` in the error envelope past the budget.
 */
export async function installAccountRateLimit(scope: FastifyInstance, options: AccountRateLimitOptions): Promise<void> {
  const { perMinute } = options;
  if (perMinute <= 0) return;
  await scope.register(rateLimit, {
    // Only through createRateLimit below: the plugin's own hook is async and writes the older
    // draft's RateLimit-Limit/-Remaining/-Reset headers.
    global: false,
    max: perMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => request.accountId,
    // Room for every active account of a large deployment; an evicted account starts a new window.
    cache: 100_000,
    redis: options.redis,
    nameSpace: `${options.keyPrefix}rl:account:`,
  });
  const check = scope.createRateLimit();
  const policy = `"${POLICY}";q=${perMinute};w=${RATE_LIMIT_WINDOW_MS / 1000}`;

  scope.addHook('onRequest', (request, reply, done) => {
    check(request).then(
      (result) => {
        // No allow list is configured, so every answer carries the counts.
        if (result.isAllowed) return done();
        reply.header('ratelimit-policy', policy);
        reply.header('ratelimit', `"${POLICY}";r=${result.remaining};t=${result.ttlInSeconds}`);
        if (!result.isExceeded) return done();
        done(
          tooManyRequests(
            `Rate limit exceeded: ${perMinute} requests per minute per account; retry in ${result.ttlInSeconds} s`,
            result.ttlInSeconds,
          ),
        );
      },
      (error: unknown) => {
        // An unreachable Redis must not take the shipping API down with it: serve, unlimited, and say so.
        request.log.warn({ err: error }, 'rate-limit store unavailable; request served without a limit');
        done();
      },
    );
  });

  // Every route of the scope can now answer 429: document it where the route documents its errors.
  scope.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
    if (!schema?.response || schema.hide) return;
    route.schema = { ...schema, response: { ...schema.response, ...errorResponses(429) } };
  });
}
