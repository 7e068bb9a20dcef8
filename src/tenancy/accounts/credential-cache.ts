import type { Principal } from '../../domain/access/permissions.js';

/**
 * How long a credential check is remembered in this process. A revocation made through this
 * process is seen at once; one made through another process within this many milliseconds. At one
 * lookup per second per active credential and process, the database does not notice it.
 */
export const CREDENTIAL_CACHE_TTL_MS = 1_000;
const CREDENTIAL_CACHE_MAX_ENTRIES = 10_000;

export type CredentialCache = ReturnType<typeof createCredentialCache>;

/**
 * Whom a credential (an API key's or token's hash, `session:` and a session token's) stands for,
 * and until when that answer may be reused: what makes the account routes' credential check cost
 * no query for a busy client. Shared by keys and sessions, so one forgetting ends both.
 */
export function createCredentialCache() {
  const entries = new Map<string, { principal: Principal; validUntil: number }>();
  return {
    /** The remembered answer, while still good at `now`. */
    get(key: string, now: number): Principal | undefined {
      const cached = entries.get(key);
      return cached && cached.validUntil > now ? cached.principal : undefined;
    },
    /** Remembers an answer for the TTL, never past the credential's own end. */
    remember(key: string, principal: Principal, now: number, expiresAt: number): void {
      if (entries.size >= CREDENTIAL_CACHE_MAX_ENTRIES) entries.clear();
      entries.set(key, { principal, validUntil: Math.min(now + CREDENTIAL_CACHE_TTL_MS, expiresAt) });
    },
    forget(key: string): void {
      entries.delete(key);
    },
    /** Forgets every answer: a revocation, suspension or role change holds in this process at once. */
    clear(): void {
      entries.clear();
    },
  };
}
