import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../base/clock.js';
import { type Db, queryRows, type Tx } from '../base/db/client.js';
import { idempotencyKeys } from '../base/db/schema.js';
import { DomainError } from '../domain/errors.js';
import { asAppError, errorBody } from './errors.js';
import { GUARD_ERRORS } from './guards.errors.js';
import { reportIgnoredFields } from './lenient-input.js';

/** How long a key's answer is kept and replayed; expired keys are pruned by the retention job. */
export const IDEMPOTENCY_KEY_KEEP_MS = 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honours the Idempotency-Key header. The route's handler returns its payload (never sends it). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /**
     * Set while the handler of a request with an Idempotency-Key runs: the transaction its writes
     * must use, so that they commit together with the stored answer, or not at all.
     */
    transaction?: Tx;
  }
}

/** JSON with object keys sorted, so the same fields in another order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What identifies a request's body for its key: the same fields and values, in any key order. Kept
 * for a day beside the key, so keyed (`mac`, the sealing key's HMAC) where a body may hold what the
 * database must not give away (a buyer's bank account, decision 154); a plain SHA-256 without one.
 */
export function bodyHash(body: unknown, mac?: (text: string) => string): string {
  const canonical = canonicalJson(body ?? null);
  return mac ? mac(canonical) : createHash('sha256').update(canonical).digest('hex');
}

/** The advisory lock number of a key: 64 bits of a hash (a collision costs a spurious 409, no more). */
export const keyLease = (accountId: string, key: string) =>
  sql`hashtextextended(${accountId}::text || ':' || ${key}, 0)`;

interface Answer {
  statusCode: number;
  body: string;
  replayed: boolean;
}

/**
 * Stripe's semantics, per account: the first response to a key (status and body) is kept for 24
 * hours and replayed, with `Idempotent-Replayed: true`, to a retry with the same body; the same
 * key with another body or route is a 422, and a retry while the first is still running a 409.
 * Server errors are not kept, so a retry after one runs again.
 *
 * Crash safety: the handler runs inside one transaction that first takes a transaction-level
 * advisory lock on (account, key), then writes the request's effects and its answer, and the
 * answer is sent only after that commits. A process that dies leaves either both or neither, and
 * its lock dies with its connection, so a retry never waits out a timer.
 */
export function installIdempotency(
  app: FastifyInstance,
  { db, clock, mac }: { db: Db; clock: Clock; mac?: (text: string) => string },
) {
  // Attached only to the routes that declare `config.idempotent`, so no other route pays for it.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const handler = route.handler;
    route.handler = async function idempotentHandler(this: FastifyInstance, request, reply) {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string') return handler.call(this, request, reply);
      const answer = await answerOnce(request, reply, key, async (tx) => {
        request.transaction = tx;
        try {
          return await handler.call(this, request, reply);
        } finally {
          request.transaction = undefined;
        }
      });
      // The error handler is bypassed for a kept refusal, and a replay never reaches the handler.
      reportIgnoredFields(request, reply);
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.statusCode).type('application/json; charset=utf-8').send(answer.body);
    };
  });

  function answerOnce(request: FastifyRequest, reply: FastifyReply, key: string, handle: (tx: Tx) => Promise<unknown>) {
    const accountId = request.accountId;
    const route = `${request.method} ${request.routeOptions.url}`;
    const hash = bodyHash(request.body, mac);
    const now = clock.now();
    const thisKey = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));
    // Read committed (the default) matters: the stored answer is read by a statement that starts
    // after the lock is held, so it sees an answer committed by the lock's previous holder.
    return db.transaction(async (tx): Promise<Answer> => {
      // Try, not wait: a duplicate of a request still running is told so at once (409) rather
      // than holding a pooled connection while it waits. Released at commit, rollback, or when
      // the connection dies with its process. (PGlite runs one transaction at a time: always free.)
      const [lease] = await queryRows<{ held: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${keyLease(accountId, key)}) as held`,
      );
      if (!lease?.held)
        throw GUARD_ERRORS.idempotency_key_in_progress.error(
          'A request with this Idempotency-Key is still in progress',
        );

      const [stored] = await tx.select().from(idempotencyKeys).where(thisKey);
      // A row without a status is a reservation left by the earlier, timer-based scheme: no answer.
      if (
        stored &&
        stored.statusCode !== null &&
        now.getTime() - stored.createdAt.getTime() < IDEMPOTENCY_KEY_KEEP_MS
      ) {
        // A key kept before request hashes were keyed holds the plain one (until it expires).
        const sameBody = stored.requestHash === hash || (mac && stored.requestHash === bodyHash(request.body));
        if (stored.route !== route || !sameBody) {
          throw GUARD_ERRORS.idempotency_key_reused.error(
            'This Idempotency-Key was already used with a different request',
          );
        }
        return { statusCode: stored.statusCode, body: stored.responseBody ?? '', replayed: true };
      }

      const answer = await runHandler(tx, reply, handle);
      const values = {
        route,
        requestHash: hash,
        statusCode: answer.statusCode,
        responseBody: answer.body,
        createdAt: now,
      };
      await tx
        .insert(idempotencyKeys)
        .values({ accountId, key, ...values })
        .onConflictDoUpdate({ target: [idempotencyKeys.accountId, idempotencyKeys.key], set: values });
      return answer;
    });
  }

  /**
   * The handler's answer, serialized as it will be sent. Its writes run in a savepoint: a refusal
   * (4xx) is kept without them, even after a failed statement (a duplicate order_id) has aborted
   * the savepoint. A server error (or anything unexpected) rolls the whole transaction back.
   */
  async function runHandler(tx: Tx, reply: FastifyReply, handle: (tx: Tx) => Promise<unknown>): Promise<Answer> {
    try {
      const payload = await tx.transaction((savepoint) => handle(savepoint));
      return { statusCode: reply.statusCode, body: String(reply.serialize(payload)), replayed: false };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const answer = asAppError(error);
      if (answer.statusCode >= 500) throw error;
      return {
        statusCode: answer.statusCode,
        body: JSON.stringify(errorBody(answer.code, answer.messages, answer.details)),
        replayed: false,
      };
    }
  }
}
