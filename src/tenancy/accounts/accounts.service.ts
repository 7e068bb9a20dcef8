import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { ACCESS_ERRORS } from '../../domain/access/access.errors.js';
import { type Actor, type Principal, beyond, operatorFor, within } from '../../domain/access/permissions.js';
import type { RecordAudit } from '../audit/audit.js';
import { isOwnerScope, roleHolds } from '../../domain/access/roles.js';
import { MEMBER_ERRORS } from './members.errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { settleStores } from './store-limits.js';
import * as repo from './accounts.repository.js';
import type { CredentialCache } from './credential-cache.js';
import {
  API_KEY_VISIBLE_CHARS,
  hashCredential,
  newAccessToken,
  newApiKey,
  type PasswordHasher,
} from './credentials.js';
import { type CheckLogin, usernameSpellings } from './logins.js';
import * as members from './members.repository.js';
import { toAccount } from './sessions.service.js';

/** What a new API key is made with: a name, scopes (absent: its maker's) and an end. */
export interface NewKeyTerms {
  name?: string | null;
  scopes?: readonly string[] | null;
  expiresAt?: Date | null;
  /** The stores it reaches (null: every one; absent: its maker's). */
  stores?: readonly string[] | null;
}

export const ACCESS_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** An API key's `last_used_at` is true to within this. */
export const LAST_USED_PRECISION_MS = 60_000;
export type AccountsService = ReturnType<typeof createAccountsService>;

/**
 * Accounts and their API credentials: creating an account, its keys (scoped, named, ending), the
 * Velocity access tokens, and the check every account route's credential goes through.
 */
export function createAccountsService({
  db,
  clock,
  checkLogin,
  cache,
  passwords,
  record,
}: {
  db: Db;
  clock: Clock;
  checkLogin: CheckLogin;
  cache: CredentialCache;
  passwords: PasswordHasher;
  /** Writes each change down in the audit log, in the change's transaction. */
  record: RecordAudit;
}) {
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
      storeIds: terms.stores ? [...terms.stores] : null,
    });
    return { ...row, apiKey };
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
    const scopes = role
      ? within(found.scopes ?? null, roleHolds(role, found.rolePermissions ?? null))
      : (found.scopes ?? null);
    const principal: Principal = {
      accountId: found.accountId,
      scopes,
      memberId: found.memberId ?? null,
      via: found.keyId ? 'api_key' : 'access_token',
      keyId: found.keyId ?? null,
      stores: within(found.storeIds ?? null, found.memberStoreIds ?? null),
    };
    cache.remember(hash, principal, now, expiresAt);
    return principal;
  }

  return {
    async createAccount(input: { name: string; username?: string; password?: string }) {
      const passwordHash = input.password === undefined ? null : await passwords.hash(input.password);
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
        await record(tx, operatorFor(row.id), {
          action: 'account.created',
          objectType: 'account',
          objectId: row.id,
          changes: { name: row.name, username: row.username, api_key: key.prefix },
        });
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
      maker: Actor = { accountId, scopes: null, memberId: null, via: 'operator' },
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
      return db.transaction(async (tx) => {
        const stores = await settleStores(tx, maker, terms.stores);
        const key = await issueApiKey(
          tx,
          accountId,
          { ...terms, scopes: asked ?? (makerScopes === null ? null : [...makerScopes]), stores },
          maker.memberId,
        );
        await record(tx, maker, {
          action: 'api_key.created',
          objectType: 'api_key',
          objectId: key.id,
          changes: {
            prefix: key.prefix,
            name: key.name,
            scopes: key.scopes,
            expires_at: key.expiresAt,
            ...(stores && { stores }),
          },
        });
        return key;
      });
    },

    /** The account's sign-in rules: whether owners must use two-factor. */
    async security(accountId: string) {
      // The account of an authenticated request.
      const account = (await repo.findAccount(db, accountId))!;
      return { owners_need_two_factor: account.ownersNeedTwoFactor };
    },

    /**
     * Requires two-factor of the account's owners, or stops requiring it; only an owner may. From
     * then an owner without it on signs in only to set it up (their sessions at once).
     */
    async setSecurity(actor: Actor, ownersNeedTwoFactor: boolean) {
      if (!isOwnerScope(actor.scopes))
        throw MEMBER_ERRORS.owner_only.error('Only an owner may change what owners need to sign in');
      await db.transaction(async (tx) => {
        await repo.setOwnersNeedTwoFactor(tx, actor.accountId, ownersNeedTwoFactor);
        await record(tx, actor, {
          action: 'account.security_changed',
          objectType: 'account',
          objectId: actor.accountId,
          changes: { owners_need_two_factor: ownersNeedTwoFactor },
        });
      });
      cache.clear();
      return { owners_need_two_factor: ownersNeedTwoFactor };
    },

    listApiKeys(accountId: string) {
      return repo.listApiKeys(db, accountId);
    },

    /** The account's own key; revoking the key the request came with is allowed and ends it at once. */
    async revokeOwnApiKey(actor: Actor, id: string) {
      const revoked = await db.transaction(async (tx) => {
        const row = await repo.revokeOwnApiKey(tx, actor.accountId, id, clock.now());
        if (!row) throw ACCOUNT_ERRORS.api_key_not_found.error('API key not found');
        await record(tx, actor, { action: 'api_key.revoked', objectType: 'api_key', objectId: id });
        return row;
      });
      cache.clear();
      return revoked;
    },

    /** The operator's revocation, by id or prefix, of any account's key. */
    async revokeApiKey(idOrPrefix: string) {
      const revoked = await db.transaction(async (tx) => {
        const row = await repo.revokeApiKey(tx, idOrPrefix, clock.now());
        if (!row) throw ACCOUNT_ERRORS.api_key_not_found.error('API key not found');
        await record(tx, operatorFor(row.accountId), {
          action: 'api_key.revoked',
          objectType: 'api_key',
          objectId: row.id,
        });
        return row;
      });
      cache.clear();
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

    /** Forgets every remembered credential check: a member's sessions and keys end in this process at once. */
    forgetCredentials() {
      cache.clear();
    },

    /** Ends the access token presented; an API key is the operator's to revoke. */
    async revokeAccessToken(actor: Actor, credential: string) {
      const hash = hashCredential(credential);
      const revoked = await db.transaction(async (tx) => {
        const expired = await repo.expireAccessToken(tx, actor.accountId, hash, clock.now());
        if (!expired)
          throw ACCOUNT_ERRORS.not_an_access_token.error(
            'Only an access token can be revoked here; revoke an API key with DELETE /api-keys/{id}',
          );
        await record(tx, actor, { action: 'access_token.revoked', objectType: 'access_token', objectId: null });
        return expired;
      });
      cache.forget(hash);
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
      return cache.get(hash, now) ?? findAndRemember(hash, now);
    },
  };
}
