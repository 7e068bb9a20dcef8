import { hash as oneShotHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const SCRYPT = { r: 8, p: 1, keylen: 32 } as const;
const API_KEY_PREFIX = 'dky_';
const ACCESS_TOKEN_PREFIX = 'dkt_';
const SESSION_TOKEN_PREFIX = 'dks_';
/** How much of an API key is kept in clear, so an operator can name it to revoke it. */
export const API_KEY_VISIBLE_CHARS = 12;

/** Credentials are 256 random bits, so a fast hash is enough to keep them useless if the table leaks. */
export function hashCredential(credential: string): string {
  // The one-shot form: a Hash object per call cost twice as much, and every request hashes.
  return oneShotHash('sha256', credential, 'hex');
}

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function newAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** A panel session's cookie value: never a credential the Authorization header takes. */
export function newSessionToken(): string {
  return SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** scrypt's cost (N) when PASSWORD_HASH_COST is not set: about 50 ms of one core per sign-in. */
export const DEFAULT_PASSWORD_HASH_COST = 16384;

export type PasswordHasher = ReturnType<typeof passwordHasher>;

/**
 * Passwords hashed with scrypt at the operator's cost (N, PASSWORD_HASH_COST). Each hash says its
 * own parameters, so a changed cost applies to new passwords and every older hash still verifies.
 */
export function passwordHasher(cost: number) {
  // Verified against when the username is unknown, at the current cost, so both failures take the same time.
  const decoy = `scrypt$${cost}$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const params = { ...SCRYPT, N: cost };
      const hash = await scryptAsync(password, salt, SCRYPT.keylen, { ...params, maxmem: 64 * 1024 * 1024 });
      return ['scrypt', cost, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
    },

    async verify(password: string, stored: string | null): Promise<boolean> {
      const [scheme, n, r, p, salt, hash] = (stored ?? decoy).split('$');
      if (scheme !== 'scrypt' || !salt || !hash) return false;
      const expected = Buffer.from(hash, 'base64');
      const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
        N: Number(n),
        r: Number(r),
        p: Number(p),
        maxmem: 64 * 1024 * 1024,
      });
      return stored !== null && timingSafeEqual(actual, expected);
    },
  };
}

const CARRIER_TOKEN_PREFIX = 'dkc_';

export function newCarrierToken(): string {
  return CARRIER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** An invitation's link token: in the link's fragment, kept only hashed. */
export function newInvitationToken(): string {
  return `dki_${randomBytes(32).toString('base64url')}`;
}

/** A password reset's link token: in the link's fragment, kept only hashed. */
export function newResetToken(): string {
  return `dkr_${randomBytes(32).toString('base64url')}`;
}
