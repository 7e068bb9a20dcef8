import { expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApp, type TestContext } from '../../test/app.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

it('compiles no schema until it is used, and every one of them compiles when warmed', async () => {
  const warmer = ctx.app.schemaWarmer;
  const before = warmer.waiting;
  // Every route's validators and response serializers wait: well over one per route.
  expect(before).toBeGreaterThan(ctx.app.printRoutes({ commonPrefix: false }).split('\n').length);

  // A request compiles its own route's schemas on the way (the list keeps them for the warm-up,
  // which finds them done).
  const refused = await ctx.app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: 7 },
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().errors).toEqual([
    'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
  ]);

  const { left, failures } = warmer.warm();
  expect(failures).toEqual([]);
  expect(left).toBe(0);
  expect(warmer.waiting).toBe(0);

  // Warmed schemas answer as lazily compiled ones do.
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: 'Warm Store' },
  });
  expect(created.statusCode).toBe(201);
  expect(created.json().data.name).toBe('Warm Store');
});
