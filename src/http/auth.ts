import type { FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../modules/accounts/credentials.js';
import { unauthorized } from './errors.js';

const CREDENTIAL = /^[A-Za-z0-9._~+/=-]{1,512}$/;

/**
 * Reads `Authorization: <credential>` or `Authorization: Bearer <credential>` (any case of
 * "Bearer"). Both forms appear in SPEC.md's examples, so both are accepted everywhere.
 */
export function readCredential(header: string | undefined): string {
  const value = header?.trim();
  if (!value) throw unauthorized('Missing Authorization header: send "Authorization: Bearer <API key or access token>"');
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const credential = bearer ? bearer[1]!.trim() : value;
  // A lone "Bearer" is the scheme without its credential, not a credential named "Bearer".
  if (!CREDENTIAL.test(credential) || /^bearer$/i.test(credential)) {
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

/** onRequest hook for account routes: resolves the credential to an account or answers 401. */
export function accountAuth(authenticate: (credential: string) => Promise<string | null>) {
  return async (request: FastifyRequest) => {
    const accountId = await authenticate(readCredential(request.headers.authorization));
    if (!accountId) throw unauthorized('Invalid, revoked or expired credential');
    request.accountId = accountId;
  };
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
