import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { rateLimited } from '../../domain/errors.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import * as repo from './accounts.repository.js';
import {
  API_KEY_VISIBLE_CHARS,
  hashCredential,
  hashPassword,
  newAccessToken,
  newApiKey,
  newSessionToken,
  verifyPassword,
} from './credentials.js';
import type { LoginLimiter } from './login-limits.js';
import { beyond, type Principal, within } from '../../domain/access/permissions.js';
import { isRole, permissionsOf } from '../../domain/access/roles.js';
import * as members from './members.repository.js';
import { ACCESS_ERRORS } from '../../domain/access/access.errors.js';

/** What a new API key is made with: a name, scopes (absent: its maker's) and an end. */
export interface NewKeyTerms {
  name?: string | null;
  scopes?: readonly string[] | null;
  expiresAt?: Date | null;
}

export const ACCESS_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** A panel sign-in lasts a working day and a half; then the panel asks for the password again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/**
 * How long a credential check is remembered in this process. A revocation made through this
 * process is seen at once; one made through another process within this many milliseconds. At one
 * lookup per second per active credential and process, the database does not notice it.
 */
export const CREDENTIAL_CACHE_TTL_MS = 1_000;
/** An API key's `last_used_at` is true to within this. */
export const LAST_USED_PRECISION_MS = 60_000;
const CREDENTIAL_CACHE_MAX_ENTRIES = 10_000;

export interface Account {
  id: string;
  name: string;
  username: string | null;
}

const toAccount = (row: repo.AccountRow): Account => ({ id: row.id, name: row.name, username: row.username });

/** The member a session is signed in as, and what their role lets them do (null: everything). */
export interface SignedInMember {
  id: string;
  name: string | null;
  email: string;
  role: string;
  permissions: string[] | null;
}

const toSignedIn = (member: { id: string; name: string | null; email: string; role: string }): SignedInMember => ({
  id: member.id,
  name: member.name,
  email: member.email,
  role: member.role,
  permissions: memberPermissions(member.role),
});

/** What a member's role lets them do, copied (null: everything); a role no longer known: nothing. */
function memberPermissions(role: string): string[] | null {
  if (!isRole(role)) return [];
  const held = permissionsOf(role);
  return held === null ? null : [...held];
}

/**
 * The stored usernames a username may stand for, best match first: itself, then for an Indian
 * mobile number its canonical `+919876543210` and the raw forms (`91…`, `0…`, ten digits) that
 * accounts created before usernames were made canonical may still carry.
 */
function usernameSpellings(username: string): string[] {
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

export type AccountsService = ReturnType<typeof createAccountsService>;

export function createAccountsService({
  db,
  clock,
  loginLimiter,
}: {
  db: Db;
  clock: Clock;
  loginLimiter: LoginLimiter;
}) {
  // credential hash → whom it stands for (account and scopes), and until when that answer may be reused.
  const credentialCache = new Map<string, { principal: Principal; validUntil: number }>();

  async function issueApiKey(
    executor: Executor,
    accountId: string,
    terms: NewKeyTerms = {},
    memberId: string | null = null,
  ) {
    const apiKey = newApiKey();
    const createdAt = clock.now();
    const row = await repo.insertApiKey(executor, accountId, {
      prefix: apiKey.slice(0, API_KEY_VISIBLE_CHARS),
      keyHash: hashCredential(apiKey),
      createdAt,
      name: terms.name ?? null,
      scopes: terms.scopes ? [...terms.scopes] : null,
      expiresAt: terms.expiresAt ?? null,
      memberId,
    });
    return { ...row, apiKey };
  }

  /**
   * Any spelling of a mobile number finds its account, whether stored canonical or raw (see
   * usernameSpellings). Failed attempts are limited per (username, address) pair, per address
   * and, softly, per username (login-limits.ts); `clientAddress` is the socket's peer address.
   * With `members`, a username no account has may be an active member's e-mail (the panel's
   * sign-in); the Velocity token flow stays the account's own login's.
   */
  async function checkLogin(
    username: string,
    password: string,
    clientAddress: string,
    withMembers = false,
  ): Promise<{ account: repo.AccountRow; member: members.MemberRow | null }> {
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
    // verifyPassword runs scrypt even for an unknown user, so timing does not reveal which part was wrong.
    const valid = await verifyPassword(password, passwordHash);
    // The login itself takes no HTTP credential; its 401's challenge names the realm its token opens.
    if (!account || !valid) throw ACCOUNT_ERRORS.invalid_login.error('Invalid username or password');
    // Best effort: a success that cannot be given back costs the address one attempt, nothing more.
    await loginLimiter.succeeded(login, clock.now().getTime()).catch(() => undefined);
    return { account, member };
  }

  function remember(key: string, principal: Principal, now: number, expiresAt: number): void {
    if (credentialCache.size >= CREDENTIAL_CACHE_MAX_ENTRIES) credentialCache.clear();
    credentialCache.set(key, { principal, validUntil: Math.min(now + CREDENTIAL_CACHE_TTL_MS, expiresAt) });
  }

  async function findAndRemember(hash: string, now: number): Promise<Principal | null> {
    const found = await repo.findCredential(db, hash);
    if (!found) return null;
    const expiresAt = found.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
    if (expiresAt <= now) return null;
    // A key's last use is seen here, once per cache period, and written once a minute at most.
    const lastUsed = found.apiKeyLastUsedAt;
    if (lastUsed !== undefined && (lastUsed === null || lastUsed.getTime() <= now - LAST_USED_PRECISION_MS)) {
      await repo.touchApiKey(db, found.accountId, hash, new Date(now), LAST_USED_PRECISION_MS);
    }
    // A member's key holds what it was made with and what its member's role holds now, both.
    const role = found.memberRole;
    const scopes = role && isRole(role) ? within(found.scopes ?? null, permissionsOf(role)) : (found.scopes ?? null);
    const principal = { accountId: found.accountId, scopes, memberId: found.memberId ?? null };
    remember(hash, principal, now, expiresAt);
    return principal;
  }

  return {
    async createAccount(input: { name: string; username?: string; password?: string }) {
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const username = input.username === undefined ? null : (canonicalIndianMobile(input.username) ?? input.username);
      const taken = () => ACCOUNT_ERRORS.username_taken.error('Username has already been taken', 'username');
      return db.transaction(async (tx) => {
        // The unique index sees only the exact (lower-cased) string; an older account may hold the
        // same mobile number in a raw spelling. New mobile usernames are all canonical, so two
        // racing creations still meet at the index.
        if (
          input.username !== undefined &&
          ((await repo.findAccountsByUsernames(tx, usernameSpellings(input.username))).length > 0 ||
            (await members.findMemberByEmail(tx, input.username)) !== undefined)
        ) {
          throw taken();
        }
        let row: repo.AccountRow;
        try {
          row = await repo.insertAccount(tx, {
            name: input.name,
            username,
            passwordHash,
            createdAt: clock.now(),
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw taken();
          throw error;
        }
        const key = await issueApiKey(tx, row.id);
        return { account: toAccount(row), apiKey: key.apiKey, apiKeyId: key.id };
      });
    },

    /**
     * A new key of the account: named, limited to `scopes` and ending at `expiresAt` when asked.
     * Made by a credential holding `makerScopes` (null: all), it never holds more: asked for none, it
     * holds its maker's; asked for one its maker lacks, it is refused with each such one named. Made
     * by a member, it is theirs: it ends when they are suspended or removed.
     */
    async createApiKey(
      accountId: string,
      terms: NewKeyTerms = {},
      maker: { scopes: readonly string[] | null; memberId: string | null } = { scopes: null, memberId: null },
    ) {
      const makerScopes = maker.scopes;
      if (!(await repo.findAccount(db, accountId))) throw ACCOUNT_ERRORS.account_not_found.error('Account not found');
      const asked = terms.scopes ?? null;
      const over = asked === null ? [] : beyond(asked, makerScopes);
      if (over.length > 0)
        throw ACCESS_ERRORS.permission_denied.error(
          over.map((permission) => `scopes: this credential lacks ${permission}, so a key it makes cannot hold it`),
          over.map((permission) => ({
            field: `scopes.${asked!.indexOf(permission)}`,
            message: `${permission} is beyond this credential's own scopes`,
          })),
        );
      if (terms.expiresAt && terms.expiresAt.getTime() <= clock.now().getTime())
        throw ACCOUNT_ERRORS.api_key_expiry_past.error('expires_at must be in the future', 'expires_at');
      return issueApiKey(
        db,
        accountId,
        { ...terms, scopes: asked ?? (makerScopes === null ? null : [...makerScopes]) },
        maker.memberId,
      );
    },

    listApiKeys(accountId: string) {
      return repo.listApiKeys(db, accountId);
    },

    /** The account's own key; revoking the key the request came with is allowed and ends it at once. */
    async revokeOwnApiKey(accountId: string, id: string) {
      const revoked = await repo.revokeOwnApiKey(db, accountId, id, clock.now());
      if (!revoked) throw ACCOUNT_ERRORS.api_key_not_found.error('API key not found');
      credentialCache.clear();
      return revoked;
    },

    async revokeApiKey(idOrPrefix: string) {
      const revoked = await repo.revokeApiKey(db, idOrPrefix, clock.now());
      if (!revoked) throw ACCOUNT_ERRORS.api_key_not_found.error('API key not found');
      credentialCache.clear();
      return revoked;
    },

    /** A 24-hour access token for a username and password (checkLogin's limits apply). */
    async issueAccessToken(username: string, password: string, clientAddress: string) {
      const { account } = await checkLogin(username, password, clientAddress);
      const token = newAccessToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_MS);
      await repo.insertAccessToken(db, account.id, { tokenHash: hashCredential(token), createdAt: now, expiresAt });
      return { token, expiresAt };
    },

    /**
     * Signs in to the panel, as the account's own login or as one of its active members (by e-mail):
     * the same check and limits as issueAccessToken, answered with a session token.
     */
    async openSession(username: string, password: string, clientAddress: string) {
      const { account, member } = await checkLogin(username, password, clientAddress, true);
      const token = newSessionToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      await repo.insertSession(db, account.id, {
        tokenHash: hashCredential(token),
        createdAt: now,
        expiresAt,
        memberId: member?.id ?? null,
      });
      return { token, account: toAccount(account), member: member && toSignedIn(member), expiresAt };
    },

    /** The live session a panel cookie names, with its account and member; undefined for an unknown, expired or ended one. */
    async findSession(token: string) {
      const found = await repo.findSession(db, hashCredential(token), clock.now());
      return (
        found && {
          account: toAccount(found.account),
          member: found.member && toSignedIn(found.member),
          expiresAt: found.expiresAt,
        }
      );
    },

    /** Whom a live session stands for, cached like credentials, so the panel's requests cost what API keys cost. */
    authenticateSession(token: string): Principal | null | Promise<Principal | null> {
      const key = `session:${hashCredential(token)}`;
      const now = clock.now().getTime();
      const cached = credentialCache.get(key);
      if (cached && cached.validUntil > now) return cached.principal;
      return repo.findSession(db, hashCredential(token), new Date(now)).then((found) => {
        if (!found) return null;
        const principal: Principal = found.member
          ? {
              accountId: found.account.id,
              scopes: memberPermissions(found.member.role),
              memberId: found.member.id,
            }
          : { accountId: found.account.id, scopes: null, memberId: null };
        remember(key, principal, now, found.expiresAt.getTime());
        return principal;
      });
    },

    /** Forgets every remembered credential check: a member's sessions and keys end in this process at once. */
    forgetCredentials() {
      credentialCache.clear();
    },

    /** Signing out: the session ends on the server, whatever the browser keeps. */
    async closeSession(token: string) {
      const hash = hashCredential(token);
      await repo.expireSession(db, hash, clock.now());
      credentialCache.delete(`session:${hash}`);
    },

    /** Ends the access token presented; an API key is the operator's to revoke. */
    async revokeAccessToken(accountId: string, credential: string) {
      const hash = hashCredential(credential);
      const revoked = await repo.expireAccessToken(db, accountId, hash, clock.now());
      if (!revoked) {
        throw ACCOUNT_ERRORS.not_an_access_token.error(
          'Only an access token can be revoked here; revoke an API key with DELETE /api-keys/{id}',
        );
      }
      credentialCache.delete(hash);
      return revoked;
    },

    /**
     * The account a credential belongs to, or null for an unknown, revoked or expired one.
     * Synchronous when this process checked the credential within the cache TTL, which is nearly
     * every request of a busy client, so those cost no promise; a promise when the database must
     * be asked.
     */
    authenticate(credential: string): Principal | null | Promise<Principal | null> {
      const hash = hashCredential(credential);
      const now = clock.now().getTime();
      const cached = credentialCache.get(hash);
      if (cached && cached.validUntil > now) return cached.principal;
      return findAndRemember(hash, now);
    },
  };
}
