import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, allows, type Permission, type Principal } from '../domain/access/permissions.js';
import { ACCESS_ERRORS } from '../domain/access/access.errors.js';

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
export function permissionGuard(table: ReadonlyMap<string, Permission>, prefix: string) {
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
      const stale = [...table.keys()].filter((key) => !seen.has(key));
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
      // A path no route serves is its 404 for any credential.
      const url = request.routeOptions.url;
      if (request.scopes === null || url === undefined) return done();
      const needed = table.get(routeKey(request.method, url, prefix));
      if (needed !== undefined && allows(request.scopes, needed)) return done();
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

export interface DocumentedOperation {
  responses?: Record<string, { description?: string } & Record<string, unknown>>;
  [extension: `x-${string}`]: unknown;
}

/**
 * The table in the OpenAPI document: each account operation names the permission it needs
 * (`x-permission`) and documents the 403 a credential without it gets, shaped as its 401.
 */
export function documentPermissions<D extends { paths?: Record<string, Record<string, DocumentedOperation>> }>(
  document: D,
  table: ReadonlyMap<string, Permission>,
  prefix: string,
): D {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(prefix)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const permission = table.get(routeKey(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'), prefix));
      if (permission === undefined) continue;
      operation['x-permission'] = permission;
      const unauthorized = operation.responses?.['401'];
      if (operation.responses && unauthorized && !operation.responses['403'])
        operation.responses['403'] = {
          ...unauthorized,
          description: `The credential lacks the permission ${permission} (permission_denied).`,
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
