import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { constantTimeEqual } from '../tenancy/accounts/credentials.js';
import { unauthorized } from './errors.js';

const CREDENTIAL = /^[A-Za-z0-9._~+/=-]{1,512}$/;
const LONE_BEARER = /^bearer$/i;

/**
 * Reads `Authorization: <credential>` or `Authorization: Bearer <credential>` (any case of
 * "Bearer"). Both forms appear in SPEC.md's examples, so both are accepted everywhere.
 */
export function readCredential(header: string | undefined): string {
  // The usual form, checked without the general path's trimming and case-insensitive matching.
  if (header?.startsWith('Bearer ')) {
    const credential = header.slice(7);
    if (CREDENTIAL.test(credential) && !LONE_BEARER.test(credential)) return credential;
  }
  const value = header?.trim();
  if (!value) throw unauthorized('Missing Authorization header: send "Authorization: Bearer <API key or access token>"');
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const credential = bearer ? bearer[1]!.trim() : value;
  // A lone "Bearer" is the scheme without its credential, not a credential named "Bearer".
  if (!CREDENTIAL.test(credential) || LONE_BEARER.test(credential)) {
    throw unauthorized('Malformed Authorization header: expected "Bearer <credential>" or the bare credential');
  }
  return credential;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The account the request's credential belongs to; set by the account auth hook. */
    accountId: string;
  }
}

/**
 * onRequest hook for account routes: resolves the credential to an account or answers 401.
 * Callback-style, so a credential the service answers synchronously (from its cache) costs the
 * request no promise.
 */
export function accountAuth(
  authenticate: (credential: string) => string | null | Promise<string | null>,
): onRequestHookHandler {
  return (request, _reply, done) => {
    let found: string | null | Promise<string | null>;
    try {
      found = authenticate(readCredential(request.headers.authorization));
    } catch (error) {
      done(error as Error);
      return;
    }
    if (found instanceof Promise) found.then((accountId) => admit(request, accountId, done), done);
    else admit(request, found, done);
  };
}

function admit(request: FastifyRequest, accountId: string | null, done: HookHandlerDoneFunction): void {
  if (!accountId) {
    done(unauthorized('Invalid, revoked or expired credential'));
    return;
  }
  request.accountId = accountId;
  done();
}

/** onRequest hook for the operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminAuth(adminToken: string) {
  return async (request: FastifyRequest) => {
    const match = /^bearer\s+(.+)$/i.exec(request.headers.authorization?.trim() ?? '');
    if (!match || !constantTimeEqual(match[1]!.trim(), adminToken)) {
      throw unauthorized('Operator routes need "Authorization: Bearer <ADMIN_TOKEN>"');
    }
  };
}
