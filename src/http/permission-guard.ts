import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, allows, type Permission, type Principal } from '../domain/access/permissions.js';
import { maskBuyerData, searchesForBuyer } from '../domain/access/buyer-data.js';
import { ACCESS_ERRORS } from '../domain/access/access.errors.js';
import type { StoreReach } from '../domain/access/store-reach.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's credential may do; null: everything (set by the account auth hook). */
    scopes: readonly string[] | null;
    /** The member the credential was made by or signed in as; null: the account's own login. */
    memberId: string | null;
    /** Whom the credential stands for, whole (set by the account auth hook). */
    principal: Principal | null;
  }
}

/** A route of a scope as the permission table names it: `GET /shipments/:id`, without the scope's prefix. */
export const routeKey = (method: string, url: string, prefix: string) =>
  `${method === 'HEAD' ? 'GET' : method} ${url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url}`;

/**
 * The one place a route's permission is checked (issue 51): each route of the scope needs the
 * permission `table` maps it to, and a credential without it is refused (403, the permission named)
 * before the route's own checks run, so a refused request writes nothing. A route the table does
 * not name fails the app's start, every one of them named: no route is left unguarded by mistake,
 * and none checks permissions by hand. Entries naming no route fail the start too, so the table
 * cannot drift from the routes.
 */
export function permissionGuard(
  table: ReadonlyMap<string, Permission>,
  prefix: string,
  buyerDocuments: ReadonlySet<string> = new Set(),
) {
  return (scope: FastifyInstance) => {
    const unmapped: string[] = [];
    const seen = new Set<string>();
    scope.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        const key = routeKey(method, route.url, prefix);
        // A GET route's HEAD twin is the same key: named once.
        if (!table.has(key) && !seen.has(key)) unmapped.push(key);
        seen.add(key);
      }
    });
    scope.addHook('onReady', async () => {
      const stale = [...table.keys(), ...buyerDocuments].filter((key) => !seen.has(key));
      if (unmapped.length > 0 || stale.length > 0)
        throw new Error(
          [
            unmapped.length > 0 && `routes without a permission in src/route-permissions.ts: ${unmapped.join(', ')}`,
            stale.length > 0 && `src/route-permissions.ts names routes that do not exist: ${stale.join(', ')}`,
          ]
            .filter(Boolean)
            .join('; '),
        );
    });
    scope.addHook('onRequest', (request, _reply, done) => {
      // A credential holding everything passes before the route is looked at: Fastify builds
      // request.routeOptions afresh on every read, and nearly every request is such a credential's.
      if (request.scopes === null) return done();
      // A path no route serves is its 404 for any credential.
      const url = request.routeOptions.url;
      if (url === undefined) return done();
      const key = routeKey(request.method, url, prefix);
      const needed = table.get(key);
      if (needed !== undefined && allows(request.scopes, needed)) {
        if (!buyerDocuments.has(key) || allows(request.scopes, 'buyers:read')) return done();
        return done(
          ACCESS_ERRORS.permission_denied.error(
            "This answer prints buyers' details: the credential lacks the permission buyers:read",
            'authorization',
          ),
        );
      }
      done(
        ACCESS_ERRORS.permission_denied.error(
          needed === undefined
            ? 'This route is not open to scoped credentials'
            : `This credential lacks the permission ${needed}`,
          'authorization',
        ),
      );
    });
  };
}

/**
 * Buyers' details for credentials without `buyers:read` (issue 51): every JSON answer of the scope
 * masked by one list of buyer fields (domain/access/buyer-data.ts), so no route can forget, and a
 * listing's search for a phone or an e-mail refused (a match would say who bought what). Registered
 * after idempotency, which so keeps (and replays through this hook) the whole answer. Credentials
 * holding everything pay one comparison.
 */
export function buyerDataGuard(scope: FastifyInstance) {
  scope.addHook('preHandler', (request, _reply, done) => {
    if (allows(request.scopes, 'buyers:read')) return done();
    const search = (request.body as { search?: unknown } | undefined)?.search;
    if (typeof search === 'string' && searchesForBuyer(search))
      return done(
        ACCESS_ERRORS.permission_denied.error(
          "Searching by a buyer's phone or e-mail needs the permission buyers:read",
          'search',
        ),
      );
    done();
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (allows(request.scopes, 'buyers:read') || typeof payload !== 'string') return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return done(null, payload);
    done(null, JSON.stringify(maskBuyerData(JSON.parse(payload))));
  });
}

export interface DocumentedOperation {
  responses?: Record<string, { description?: string } & Record<string, unknown>>;
  [extension: `x-${string}`]: unknown;
}

/**
 * The table in the OpenAPI document: each account operation names the permission it needs
 * (`x-permission`) and how it keeps to a store-limited credential (`x-stores`: `account`, nothing
 * of a store; `filtered`, its answer limited to them; `named`, the objects it names checked;
 * `every`, refused to them), and documents the 403 a credential without it gets, and the 404 of
 * another store's object, shaped as its 401.
 */
export function documentPermissions<D extends { paths?: Record<string, Record<string, DocumentedOperation>> }>(
  document: D,
  table: ReadonlyMap<string, Permission>,
  prefix: string,
  buyerDocuments: ReadonlySet<string> = new Set(),
  storeReach: ReadonlyMap<string, StoreReach> = new Map(),
): D {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(prefix)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const key = routeKey(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'), prefix);
      const permission = table.get(key);
      if (permission === undefined) continue;
      operation['x-permission'] = permission;
      if (buyerDocuments.has(key)) operation['x-also-needs'] = 'buyers:read';
      // How it keeps to a credential limited to stores (http/store-guard.ts).
      const reach = storeReach.get(key);
      operation['x-stores'] = reach === undefined ? 'every' : typeof reach === 'function' ? 'named' : reach;
      const unauthorized = operation.responses?.['401'];
      const also = buyerDocuments.has(key) ? " and buyers:read (the answer prints buyers' details)" : '';
      if (operation.responses && unauthorized && !operation.responses['403'])
        operation.responses['403'] = {
          ...unauthorized,
          description: `The credential lacks the permission ${permission}${also} (permission_denied)${
            storeReach.size > 0 && reach === undefined
              ? ', or it is limited to stores and this route answers for every store (store_limited)'
              : ''
          }.`,
        };
      // A limited credential naming another store's shipment, order or store is answered as if it
      // did not exist: documented where the route's own answers have no 404.
      if (typeof reach === 'function' && operation.responses && unauthorized && !operation.responses['404'])
        operation.responses['404'] = {
          ...unauthorized,
          description:
            'What the request names belongs to a store the credential is not limited to (outside_credential_stores).',
        };
    }
  }
  return document;
}

/** Who makes an account request, and from where: what a service writes in the audit log. */
export function actorOf(request: FastifyRequest): Actor {
  const user = request.headers['user-agent'];
  return {
    ...(request.principal ?? { accountId: request.accountId, scopes: request.scopes, memberId: request.memberId }),
    ip: request.ip,
    ...(typeof user === 'string' && { userAgent: user.slice(0, 300) }),
  };
}
