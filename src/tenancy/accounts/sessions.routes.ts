import { createHmac } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  ACCOUNT_SCOPE,
  bearerChallenge,
  CSRF_HEADER,
  csrfHeaderMatches,
  readSessionCookie,
  SESSION_COOKIE,
  type SessionCheck,
} from '../../http/auth.js';
import { unauthorized } from '../../http/errors.js';
import { AUTH_ERRORS } from '../../http/auth.errors.js';
import { AuthTokenBody } from './accounts.schemas.js';
import { SESSION_TTL_MS, type SessionsService } from './sessions.service.js';

/** The panel's sessions as the account hook checks them: the CSRF token is an HMAC of the session token, so nothing more is stored. */
export function panelSessions(accounts: SessionsService, csrfSecret: string): SessionCheck {
  return {
    authenticate: (token) => accounts.authenticateSession(token),
    csrfTokenOf: (token) => createHmac('sha256', csrfSecret).update(token).digest('base64url'),
  };
}

/** The panel's sign-in: POST /auth-token's body, and the second factor's code when the login has one on. */
const SignInBody = Type.Object(
  { ...AuthTokenBody.properties, code: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);

export const SessionBody = Type.Object({
  account: Type.Object({ id: Type.String(), name: Type.String(), username: Type.Union([Type.String(), Type.Null()]) }),
  // Null for the account's own login, which may do everything.
  member: Type.Union([
    Type.Object({
      id: Type.String(),
      name: Type.Union([Type.String(), Type.Null()]),
      email: Type.String(),
      role: Type.String(),
      permissions: Type.Union([Type.Array(Type.String()), Type.Null()]),
      // The stores they see and act on; null: every store.
      stores: Type.Union([Type.Array(Type.String()), Type.Null()]),
    }),
    Type.Null(),
  ]),
  csrf_token: Type.String(),
  expires_at_utc: Type.String(),
  // The account requires two-factor of its owners and this one has not set it up: only that, until they do.
  two_factor_setup_required: Type.Boolean(),
});

/**
 * Secure whenever the browser reached us over https: directly, or through a proxy TRUST_PROXY names
 * (Fastify reads its X-Forwarded-Proto then, and only then). Any client can send that header.
 */
function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Sets (or, with an empty value and no age, clears) the panel's session cookie. */
export function setCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number) {
  const flags = [
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(isHttps(request) ? ['Secure'] : []),
  ];
  reply.header('set-cookie', `${SESSION_COOKIE}=${value}; ${flags.join('; ')}`);
}

/** A session just opened: its cookie set, and what the panel is told of it (with its CSRF token). */
export function signedIn(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionCheck,
  opened: Awaited<ReturnType<SessionsService['openSession']>>,
) {
  setCookie(request, reply, opened.token, SESSION_TTL_MS / 1000);
  return {
    account: opened.account,
    member: opened.member,
    csrf_token: sessions.csrfTokenOf(opened.token),
    expires_at_utc: opened.expiresAt.toISOString(),
    two_factor_setup_required: opened.twoFactorSetupRequired,
  };
}

/** The session cookie a request of the panel came with: present, and for a change with its CSRF token. */
export function signedChange(request: FastifyRequest, sessions: SessionCheck): string {
  const token = readSessionCookie(request.headers.cookie);
  if (!token) throw unauthorized('Not signed in', bearerChallenge(ACCOUNT_SCOPE), AUTH_ERRORS.not_signed_in);
  if (request.method !== 'GET' && !csrfHeaderMatches(sessions.csrfTokenOf(token), request.headers[CSRF_HEADER])) {
    throw AUTH_ERRORS.csrf_token_mismatch.error(
      'Missing or wrong X-CSRF-Token header: the panel sends it with every change',
    );
  }
  return token;
}

/**
 * `/panel/v1/session`: signing in to the panel with the account's username and password (the same
 * limits as POST /auth-token), who is signed in (with the CSRF token the panel sends back), and
 * signing out. Hidden from the OpenAPI document: the panel's own door, not part of the API.
 */
export function sessionRoutes(accounts: SessionsService, sessions: SessionCheck): FastifyPluginAsyncTypebox {
  const hide = true;
  return async (app) => {
    app.post(
      '/session',
      { schema: { hide, body: SignInBody, response: { 200: SessionBody } } },
      async (request, reply) => {
        const { username, password, code } = request.body;
        return signedIn(request, reply, sessions, await accounts.openSession(username, password, request.ip, code));
      },
    );

    app.get('/session', { schema: { hide, response: { 200: SessionBody } } }, async (request) => {
      const token = readSessionCookie(request.headers.cookie);
      const found = token && (await accounts.findSession(token));
      if (!token || !found)
        throw unauthorized('Not signed in', bearerChallenge(ACCOUNT_SCOPE), AUTH_ERRORS.not_signed_in);
      return {
        account: found.account,
        member: found.member,
        csrf_token: sessions.csrfTokenOf(token),
        expires_at_utc: found.expiresAt.toISOString(),
        two_factor_setup_required: found.twoFactorSetupRequired,
      };
    });

    app.delete('/session', { schema: { hide } }, async (request, reply) => {
      await accounts.closeSession(signedChange(request, sessions));
      setCookie(request, reply, '', 0);
      return { message: 'Signed out' };
    });

    // Every session of whoever is signed in: a lost laptop, a shared computer.
    app.delete('/sessions', { schema: { hide } }, async (request, reply) => {
      await accounts.closeAllSessions(signedChange(request, sessions));
      setCookie(request, reply, '', 0);
      return { message: 'Signed out everywhere' };
    });
  };
}
