import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { hashCredential } from './credentials.js';
import * as repo from './two-factor.repository.js';

/** How many one-time recovery codes a login gets when its second factor is turned on. */
export const RECOVERY_CODES = 10;
/** A code from the step before or after counts too: phones' clocks drift, and typing takes time. */
const TOLERANCE_SECONDS = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `k7q2m-x9p4d`: ten characters a person copies from paper without mistaking 1 for l or 0 for o. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normalRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/**
 * A login's second factor (issue 51): a TOTP secret any authenticator app reads (RFC 6238: SHA-1,
 * six digits, 30 s), sealed like couriers' credentials, and ten recovery codes kept hashed. A code
 * works once: the time step it was made in is kept, and a code of that step or earlier is refused.
 */
export function createTwoFactorService({ db, clock, box }: { db: Db; clock: Clock; box: SecretBox }) {
  const epoch = () => Math.floor(clock.now().getTime() / 1000);

  /** The time step `code` was made in, or undefined when it is not a current code of `secret`. */
  async function timeStepOf(secret: string, code: string, after: number | null): Promise<number | undefined> {
    if (!/^\d{6}$/.test(code.trim())) return undefined;
    const result = await verify({
      secret,
      token: code.trim(),
      epoch: epoch(),
      epochTolerance: TOLERANCE_SECONDS,
      ...(after !== null && { afterTimeStep: after }),
    });
    // A TOTP verification (the default strategy) says its time step; the union type covers HOTP too.
    return result.valid ? (result as { timeStep: number }).timeStep : undefined;
  }

  /** Spends `code` (a current TOTP code, or one of the recovery codes) or answers false. */
  async function spend(login: repo.LoginRef, row: repo.TwoFactorRow, code: string): Promise<boolean> {
    const now = clock.now();
    const step = await timeStepOf(box.open(row.secretSealed), code, row.lastTimeStep);
    if (step !== undefined) {
      await repo.updateTwoFactor(db, login, { lastTimeStep: step, updatedAt: now });
      return true;
    }
    const hash = hashCredential(normalRecovery(code));
    if (!row.recoveryCodeHashes.includes(hash)) return false;
    await repo.updateTwoFactor(db, login, {
      recoveryCodeHashes: row.recoveryCodeHashes.filter((h) => h !== hash),
      updatedAt: now,
    });
    return true;
  }

  return {
    async status(login: repo.LoginRef) {
      const row = await repo.findTwoFactor(db, login);
      const on = row?.enabledAt != null;
      return {
        enabled: on,
        enabled_at: on ? row.enabledAt!.toISOString() : null,
        recovery_codes_left: on ? row.recoveryCodeHashes.length : 0,
      };
    },

    /** A new secret to scan, not in force until a code from it is confirmed. */
    async start(login: repo.LoginRef, label: string) {
      const row = await repo.findTwoFactor(db, login);
      if (row?.enabledAt)
        throw ACCOUNT_ERRORS.two_factor_on.error('Two-factor sign-in is on already: turn it off first');
      const secret = generateSecret();
      await repo.startTwoFactor(db, login, box.seal(secret), clock.now());
      return { secret, otpauth_url: generateURI({ issuer: 'Dakiya', label, secret }) };
    },

    /** Turns it on with a code from the app; answers the recovery codes, shown this once. */
    async confirm(login: repo.LoginRef, code: string) {
      const row = await repo.findTwoFactor(db, login);
      if (!row || row.enabledAt)
        throw ACCOUNT_ERRORS.two_factor_not_started.error('Start setting up two-factor sign-in first');
      const step = await timeStepOf(box.open(row.secretSealed), code, null);
      if (step === undefined)
        throw ACCOUNT_ERRORS.two_factor_code_wrong.error('That code is not the one your app shows now', 'code');
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const now = clock.now();
      await repo.updateTwoFactor(db, login, {
        enabledAt: now,
        lastTimeStep: step,
        recoveryCodeHashes: codes.map((c) => hashCredential(normalRecovery(c))),
        updatedAt: now,
      });
      return { recovery_codes: codes };
    },

    /** Turns it off, with a current code or a recovery code: a stolen session alone cannot. */
    async disable(login: repo.LoginRef, code: string) {
      const row = await repo.findTwoFactor(db, login);
      if (!row?.enabledAt) throw ACCOUNT_ERRORS.two_factor_not_started.error('Two-factor sign-in is not on');
      if (!(await spend(login, row, code)))
        throw ACCOUNT_ERRORS.two_factor_code_wrong.error('That code is not a current or recovery code', 'code');
      await repo.deleteTwoFactor(db, login);
    },

    /**
     * The second step of a sign-in whose password was right: nothing to do without a second factor
     * on; with one, a code is needed (401 two_factor_required, so the panel asks for it) and must be
     * a current or recovery code (401, counted as a failed sign-in by the caller).
     */
    async check(login: repo.LoginRef, code: string | undefined) {
      const row = await repo.findTwoFactor(db, login);
      if (!row?.enabledAt) return;
      if (code === undefined || code.trim() === '')
        throw ACCOUNT_ERRORS.two_factor_required.error(
          'Enter the code from your authenticator app, or a recovery code',
        );
      if (!(await spend(login, row, code)))
        throw ACCOUNT_ERRORS.invalid_two_factor_code.error('That code is not a current or recovery code');
    },
  };
}
