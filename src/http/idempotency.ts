import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { AppError, conflict, unprocessable } from './errors.js';
import { reportIgnoredFields } from './lenient-input.js';

const KEEP_MS = 24 * 60 * 60 * 1000;
/** A first request still "running" after this long died with its process; its key may be reused. */
const ABANDONED_MS = 60 * 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honours the Idempotency-Key header. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey?: string;
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

/** What identifies a request's body for its key: the same fields and values, in any key order. */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');
}

/**
 * Stripe's semantics, per account: the first response to a key (status and body) is kept for 24
 * hours and replayed, with `Idempotent-Replayed: true`, to a retry with the same body; the same
 * key with another body or route is a 422, and a retry while the first is still running a 409.
 * Server errors are not kept, so a retry after one runs again.
 */
export function installIdempotency(app: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) {
  // Attached only to the routes that declare `config.idempotent`, so no other route pays for it.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...toArray(route.preHandler), replayOrReserve];
    route.onSend = [...toArray(route.onSend), recordResponse];
  });

  async function replayOrReserve(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const accountId = request.accountId;
    const route = `${request.method} ${request.routeOptions.url}`;
    const hash = bodyHash(request.body);
    const now = clock.now();

    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ accountId, key, route, requestHash: hash, createdAt: now })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length > 0) {
        request.idempotencyKey = key;
        return;
      }
      const [existing] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
      if (!existing) continue;
      const age = now.getTime() - existing.createdAt.getTime();
      if (age >= KEEP_MS || (existing.statusCode === null && age >= ABANDONED_MS)) {
        await db
          .delete(idempotencyKeys)
          .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
        continue;
      }
      if (existing.route !== route || existing.requestHash !== hash) {
        throw unprocessable('This Idempotency-Key was already used with a different request');
      }
      if (existing.statusCode === null) throw conflict('A request with this Idempotency-Key is still in progress');
      // The replay never reaches the handler, which names the ignored fields on a first answer.
      reportIgnoredFields(request, reply);
      return reply
        .status(existing.statusCode)
        .header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8')
        .send(existing.responseBody);
    }
    throw new AppError(500, ['Could not record the Idempotency-Key']);
  }

  async function recordResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    request.idempotencyKey = undefined;
    const where = and(eq(idempotencyKeys.accountId, request.accountId), eq(idempotencyKeys.key, key));
    if (reply.statusCode >= 500) {
      await db.delete(idempotencyKeys).where(where);
    } else {
      await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, responseBody: String(payload) }).where(where);
    }
    // Housekeeping only (lookups already treat expired keys as absent), so one request in a
    // hundred sweeps its account's expired keys rather than every booking paying for it.
    if (Math.random() < 0.01) {
      await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, request.accountId), lt(idempotencyKeys.createdAt, new Date(clock.now().getTime() - KEEP_MS))));
    }
    return payload;
  }
}

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
