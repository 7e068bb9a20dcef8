import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Permission } from '../domain/access/permissions.js';
import { permissionGuard, routeKey } from './permission-guard.js';

// The table's hold on the routes: an app whose routes and table disagree does not start.

async function appWith(table: Record<string, Permission>, routes: (scope: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  await app.register(
    async (scope) => {
      await permissionGuard(new Map(Object.entries(table)), '/api')(scope);
      routes(scope);
    },
    { prefix: '/api' },
  );
  return app;
}

describe('the permission guard', () => {
  it.each([
    ['GET', '/api/shipments/:id', 'GET /shipments/:id'],
    // HEAD is GET's, as Fastify serves it.
    ['HEAD', '/api/shipments/:id', 'GET /shipments/:id'],
    ['POST', '/api', 'POST /'],
    ['DELETE', '/elsewhere', 'DELETE /elsewhere'],
  ])('names %s %s as %s', (method, url, key) => {
    expect(routeKey(method, url, '/api')).toBe(key);
  });

  it('refuses to start with a route the table lacks, or an entry naming no route, naming each', async () => {
    const app = await appWith({ 'GET /shipments': 'shipments:read', 'POST /gone': 'shipments:write' }, (scope) => {
      scope.get('/shipments', async () => ({}));
      scope.post('/shipments', async () => ({}));
      scope.delete('/shipments/:id', async () => ({}));
      scope.get('/refunds', async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(
      'routes without a permission in src/route-permissions.ts: POST /shipments, DELETE /shipments/:id, GET /refunds; ' +
        'src/route-permissions.ts names routes that do not exist: POST /gone',
    );
  });

  it('starts when the table and the routes agree', async () => {
    const app = await appWith({ 'GET /shipments': 'shipments:read' }, (scope) => {
      scope.get('/shipments', async () => ({}));
    });
    await expect(app.ready()).resolves.toBe(app);
    await app.close();
  });
});
