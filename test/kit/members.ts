import { expect } from 'vitest';
import type { TestContext } from '../app.js';
import { authed, V1 } from './http.js';

export interface JoinedMember {
  id: string;
  /** The panel session's cookie (`dakiya_session=…`) and its CSRF token, as the join answered them. */
  cookie: string;
  csrf: string;
  /** The headers a panel request sends: the cookie, and the CSRF token a write needs. */
  headers: { cookie: string; 'x-csrf-token': string };
  permissions: string[];
}

/**
 * A member invited by the account's key with `role` (and limited to `stores` when given; no SMTP relay: the answer carries the link)
 * who has joined through it with `password`: signed in to the panel.
 */
export async function inviteAndJoin(
  ctx: Pick<TestContext, 'app'>,
  ownerKey: string,
  {
    email,
    role,
    password,
    name = role,
    stores,
  }: { email: string; role: string; password: string; name?: string; stores?: string[] },
): Promise<JoinedMember> {
  const invited = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/members`,
    headers: authed(ownerKey),
    payload: { email, role, ...(stores && { stores }) },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const joined = await ctx.app.inject({
    method: 'POST',
    url: '/panel/v1/invitation/accept',
    payload: { token: invited.json().invitation.accept_url.split('#')[1], name, password },
  });
  expect(joined.statusCode, joined.body).toBe(200);
  const cookie = String(joined.headers['set-cookie']).split(';')[0]!;
  const csrf: string = joined.json().csrf_token;
  return {
    id: invited.json().data.id,
    cookie,
    csrf,
    headers: { cookie, 'x-csrf-token': csrf },
    permissions: joined.json().member.permissions,
  };
}
