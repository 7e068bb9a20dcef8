import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { rateLimited } from '../../domain/errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import * as repo from './accounts.repository.js';
import type { PasswordHasher } from './credentials.js';
import type { LoginLimiter } from './login-limits.js';
import * as members from './members.repository.js';

/**
 * The stored usernames a username may stand for, best match first: itself, then for an Indian
 * mobile number its canonical `+919876543210` and the raw forms (`91…`, `0…`, ten digits) that
 * accounts created before usernames were made canonical may still carry.
 */
export function usernameSpellings(username: string): string[] {
  const canonical = canonicalIndianMobile(username);
  if (!canonical) return [username];
  const number = canonical.slice(3);
  return [...new Set([username, canonical, `91${number}`, `0${number}`, number])];
}

/** The one spelling a username's failed logins are counted under: all spellings of a mobile number are one account. */
function loginKey(username: string): string {
  return (canonicalIndianMobile(username) ?? username).toLowerCase();
}

/** The row stored under the earliest of the spellings (usernames are unique ignoring case). */
function bestMatch(rows: repo.AccountRow[], spellings: string[]): repo.AccountRow | undefined {
  for (const spelling of spellings) {
    const row = rows.find((r) => r.username?.toLowerCase() === spelling.toLowerCase());
    if (row) return row;
  }
  return undefined;
}

/** Who a username and password are: the account, and the member when it is a member's e-mail. */
export interface Login {
  account: repo.AccountRow;
  member: members.MemberRow | null;
}

export type CheckLogin = (
  username: string,
  password: string,
  clientAddress: string,
  withMembers?: boolean,
  /** A second step once the password is right (a TOTP code); what it throws counts as a failed login. */
  secondStep?: (login: Login) => Promise<void>,
) => Promise<Login>;

/**
 * The password check of every sign-in. Any spelling of a mobile number finds its account, whether
 * stored canonical or raw (see usernameSpellings). Failed attempts are limited per (username,
 * address) pair, per address and, softly, per username (login-limits.ts); `clientAddress` is the
 * socket's peer address. With `withMembers`, a username no account has may be an active member's
 * e-mail (the panel's sign-in); the Velocity token flow stays the account's own login's.
 */
export function loginCheck({
  db,
  clock,
  loginLimiter,
  passwords,
}: {
  db: Db;
  clock: Clock;
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
}): CheckLogin {
  return async (username, password, clientAddress, withMembers = false, secondStep) => {
    const login = { username: loginKey(username), address: clientAddress };
    const wait = await loginLimiter.attempt(login, clock.now().getTime());
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw rateLimited(
        `Too many failed logins from this address; retry in ${seconds} s`,
        seconds,
        ACCOUNT_ERRORS.too_many_logins,
      );
    }
    const spellings = usernameSpellings(username);
    let account = bestMatch(await repo.findAccountsByUsernames(db, spellings), spellings);
    let member: members.MemberRow | null = null;
    let passwordHash = account?.passwordHash ?? null;
    if (!account && withMembers) {
      const found = await members.findMemberByEmail(db, username);
      if (found?.status === 'active') {
        member = found;
        passwordHash = found.passwordHash;
        account = await repo.findAccount(db, found.accountId);
      }
    }
    // The check runs scrypt even for an unknown user, so timing does not reveal which part was wrong.
    const valid = await passwords.verify(password, passwordHash);
    // The login itself takes no HTTP credential; its 401's challenge names the realm its token opens.
    if (!account || !valid) throw ACCOUNT_ERRORS.invalid_login.error('Invalid username or password');
    await secondStep?.({ account, member });
    // Best effort: a success that cannot be given back costs the address one attempt, nothing more.
    await loginLimiter.succeeded(login, clock.now().getTime()).catch(() => undefined);
    return { account, member };
  };
}
