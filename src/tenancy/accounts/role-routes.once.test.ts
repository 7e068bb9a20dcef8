import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { allows } from '../../domain/access/permissions.js';
import { permissionsOf, ROLE_NAMES } from '../../domain/access/roles.js';
import { BUYER_DOCUMENTS, ROUTE_PERMISSIONS } from '../../route-permissions.js';

// Every built-in role × every route of the account API (issue 51), generated from the one
// permission table: a member signed in to the panel with the role is refused (403, the permission
// named) exactly where the role lacks the route's permission (and buyers:read, for an answer that
// prints buyers' details), and let through to the route's own
// checks everywhere else. Once: the guard decides from the session's role, not from the engine.

let ctx: TestContext;
const sessions = new Map<string, { cookie: string; csrf: string }>();
beforeAll(async () => {
  ctx = await createTestApp();
  const owner = await ctx.createAccount('Every Role');
  for (const role of ROLE_NAMES) {
    const member = await inviteAndJoin(ctx, owner.apiKey, {
      email: `${role}@every-role.example`,
      role,
      password: 'every role password',
    });
    sessions.set(role, { cookie: member.cookie, csrf: member.csrf });
  }
});
afterAll(async () => {
  await ctx?.close();
});

/** A path of the route with each parameter filled: the guard answers before any parameter is read. */
const pathOf = (route: string) => `${V1}${route.replace(/:[a-z_]+/g, UNKNOWN_ID)}`;

describe('every role on every route', () => {
  for (const role of ROLE_NAMES) {
    it(`${role}: refused exactly where the role lacks the route's permission, the permission named`, async () => {
      const session = sessions.get(role)!;
      const held = permissionsOf(role);
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const [route, permission] of ROUTE_PERMISSIONS) {
        const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
        const answer = await ctx.app.inject({
          method,
          url: pathOf(path),
          headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
          ...(method !== 'GET' && method !== 'DELETE' && { payload: {} }),
        });
        const json = String(answer.headers['content-type']).startsWith('application/json') ? answer.json() : {};
        outcomes.push(
          json.code === 'permission_denied' ? `${route}: refused, ${json.message}` : `${route}: let through`,
        );
        expected.push(
          !allows(held, permission)
            ? `${route}: refused, This credential lacks the permission ${permission}`
            : BUYER_DOCUMENTS.has(route) && !allows(held, 'buyers:read')
              ? `${route}: refused, This answer prints buyers' details: the credential lacks the permission buyers:read`
              : `${route}: let through`,
        );
      }
      expect(outcomes).toEqual(expected);
    });
  }
});
