import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { ACCOUNT_REALM, unauthorized } from './errors.js';
import { AUTH_ERRORS } from './auth.errors.js';
import type { Principal } from '../domain/access/permissions.js';

const CREDENTIAL = /^[A-Za-z0-9._~+/=-]{1,512}$/;
const LONE_SCHEME = /^(?:bearer|token)$/i;
const SCHEME = /^(?:bearer|token)\s+(.+)$/i;
const BASIC = /^basic(?:\s|$)/i;

/**
 * Where a credential is checked: the realm its 401s name in `WWW-Authenticate` (every 401 carries
 * one, RFC 9110 11.6.1), and what to send instead of HTTP Basic, which no scope accepts: `curl -u`
 * is what many try first.
 */
export interface AuthScope {
  realm: string;
  /** The credential the scope takes, as a missing header's 401 names it. */
  credential: string;
  insteadOfBasic: string;
}

export const ACCOUNT_SCOPE: AuthScope = {
  realm: ACCOUNT_REALM,
  credential: 'API key or access token',
  insteadOfBasic:
    'exchange the username and password for an access token with POST /custom/api/v1/auth-token {"username": "…", "password": "…"}, ' +
    'then send "Authorization: Bearer <token>" (or "Authorization: Bearer <API key>")',
};
export const CARRIER_SCOPE: AuthScope = {
  realm: 'dakiya-carrier',
  credential: 'carrier token',
  insteadOfBasic: 'send "Authorization: Bearer <carrier token>" (the operator issues carrier tokens)',
};
export const OPERATOR_SCOPE: AuthScope = {
  realm: 'dakiya-operator',
  credential: 'ADMIN_TOKEN',
  insteadOfBasic: 'send "Authorization: Bearer <ADMIN_TOKEN>"',
};

/**
 * The Bearer challenge of a scope (RFC 6750 3): `error` says a credential was sent and was
 * malformed (invalid_request) or not valid (invalid_token); without one, none was sent.
 */
export const bearerChallenge = (scope: AuthScope, error?: 'invalid_request' | 'invalid_token') =>
  `Bearer realm="${scope.realm}"${error ? `, error="${error}"` : ''}`;

/** The 401 for HTTP Basic credentials, naming what the scope takes instead. */
const basicRefused = (scope: AuthScope) =>
  unauthorized(
    `HTTP Basic authentication is not accepted: ${scope.insteadOfBasic}`,
    bearerChallenge(scope),
    AUTH_ERRORS.basic_auth_not_accepted,
  );

/**
 * Reads `Authorization: <credential>`, `Authorization: Bearer <credential>` or
 * `Authorization: Token <credential>` (any case of the scheme word). The first two appear in
 * SPEC.md's examples; integrations written for Velocity send all three, so all are accepted everywhere.
 */
export function readCredential(header: string | undefined, scope: AuthScope = ACCOUNT_SCOPE): string {
  // The usual form, checked without the general path's trimming and case-insensitive matching.
  if (header?.startsWith('Bearer ')) {
    const credential = header.slice(7);
    if (CREDENTIAL.test(credential) && !LONE_SCHEME.test(credential)) return credential;
  }
  const value = header?.trim();
  if (!value)
    throw unauthorized(
      `Missing Authorization header: send "Authorization: Bearer <${scope.credential}>"`,
      bearerChallenge(scope),
      AUTH_ERRORS.missing_credential,
    );
  if (BASIC.test(value)) throw basicRefused(scope);
  const scheme = SCHEME.exec(value);
  const credential = scheme ? scheme[1]!.trim() : value;
  // A lone "Bearer" or "Token" is the scheme without its credential, not a credential so named.
  if (!CREDENTIAL.test(credential) || LONE_SCHEME.test(credential)) {
    throw unauthorized(
      'Malformed Authorization header: expected "Bearer <credential>", "Token <credential>" or the bare credential',
      bearerChallenge(scope, 'invalid_request'),
      AUTH_ERRORS.malformed_credential,
    );
  }
  return credential;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The account the request's credential belongs to; set by the account auth hook. */
    accountId: string;
  }
}

/** The panel's session cookie (HttpOnly: the panel's script never sees it). */
export const SESSION_COOKIE = 'dakiya_session';
/** The header the panel adds to every request; a page on another site can neither read nor forge it. */
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the account hook needs of panel sessions; the composition root hands it in. */
export interface SessionCheck {
  /** Whom a live session stands for, or null. */
  authenticate(token: string): Principal | null | Promise<Principal | null>;
  /** The CSRF token that belongs to a session token. */
  csrfTokenOf(token: string): string;
}

/** The session cookie's value, if the request carries one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) {
      const value = part.slice(at + 1).trim();
      return CREDENTIAL.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Whether a state-changing request from the panel carries its session's CSRF token. */
export function csrfHeaderMatches(expected: string, sent: string | string[] | undefined): boolean {
  return typeof sent === 'string' && constantTimeEqual(sent, expected);
}

/**
 * onRequest hook for account routes: resolves the credential to an account or answers 401.
 * Without an Authorization header, a panel session cookie stands for the account, and then any
 * method but GET, HEAD and OPTIONS needs the session's CSRF token in X-CSRF-Token (403 without).
 * Callback-style, so a credential the service answers synchronously (from its cache) costs the
 * request no promise.
 */
export function accountAuth(
  authenticate: (credential: string) => Principal | null | Promise<Principal | null>,
  sessions?: SessionCheck,
): onRequestHookHandler {
  return (request, _reply, done) => {
    let found: Principal | null | Promise<Principal | null>;
    try {
      const session =
        sessions && request.headers.authorization === undefined ? readSessionCookie(request.headers.cookie) : undefined;
      if (session !== undefined && sessions) {
        if (
          !SAFE_METHODS.has(request.method) &&
          !csrfHeaderMatches(sessions.csrfTokenOf(session), request.headers[CSRF_HEADER])
        ) {
          throw AUTH_ERRORS.csrf_token_mismatch.error(
            'Missing or wrong X-CSRF-Token header: the panel sends it with every change',
          );
        }
        found = sessions.authenticate(session);
      } else {
        found = authenticate(readCredential(request.headers.authorization));
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    if (found instanceof Promise) found.then((principal) => admit(request, principal, done), done);
    else admit(request, found, done);
  };
}

function admit(request: FastifyRequest, found: Principal | null, done: HookHandlerDoneFunction): void {
  if (!found) {
    done(
      unauthorized(
        'Invalid, revoked or expired credential',
        bearerChallenge(ACCOUNT_SCOPE, 'invalid_token'),
        AUTH_ERRORS.invalid_credential,
      ),
    );
    return;
  }
  request.accountId = found.accountId;
  request.scopes = found.scopes;
  request.memberId = found.memberId;
  request.principal = found;
  done();
}

/** onRequest hook for the operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminAuth(adminToken: string) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization?.trim() ?? '';
    if (BASIC.test(header)) throw basicRefused(OPERATOR_SCOPE);
    const match = /^bearer\s+(.+)$/i.exec(header);
    if (!match || !constantTimeEqual(match[1]!.trim(), adminToken)) {
      throw unauthorized(
        'Operator routes need "Authorization: Bearer <ADMIN_TOKEN>"',
        bearerChallenge(OPERATOR_SCOPE, match ? 'invalid_token' : undefined),
        AUTH_ERRORS.invalid_operator_token,
      );
    }
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}
