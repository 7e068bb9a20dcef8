import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Principal } from '../../domain/access/permissions.js';
import { roleHolds } from '../../domain/access/roles.js';
import * as repo from './accounts.repository.js';
import type { CredentialCache } from './credential-cache.js';
import { hashCredential, newSessionToken } from './credentials.js';
import type { CheckLogin } from './logins.js';
import * as members from './members.repository.js';
import type { TwoFactorService } from './two-factor.service.js';

/** A panel sign-in lasts a working day and a half; then the panel asks for the password again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface Account {
  id: string;
  name: string;
  username: string | null;
}

export const toAccount = (row: repo.AccountRow): Account => ({ id: row.id, name: row.name, username: row.username });

/** The member a session is signed in as, and what their role lets them do (null: everything). */
export interface SignedInMember {
  id: string;
  name: string | null;
  email: string;
  role: string;
  permissions: string[] | null;
  /** The stores they see and act on; null: every store. */
  stores: string[] | null;
}

/** What a member's role lets them do, copied (null: everything); a custom role since deleted: nothing. */
function memberPermissions(role: string, custom: readonly string[] | null): string[] | null {
  const held = roleHolds(role, custom);
  return held === null ? null : [...held];
}

const toSignedIn = (
  member: { id: string; name: string | null; email: string; role: string; storeIds: string[] | null },
  custom: readonly string[] | null,
): SignedInMember => ({
  id: member.id,
  name: member.name,
  email: member.email,
  role: member.role,
  stores: member.storeIds,
  permissions: memberPermissions(member.role, custom),
});

type FoundSession = NonNullable<Awaited<ReturnType<typeof repo.findSession>>>;

/** Whether the session is an owner's whom the account requires two-factor of, not yet set up. */
const setupOnly = (found: FoundSession): boolean =>
  found.account.ownersNeedTwoFactor &&
  (found.member === null || found.member.role === 'owner') &&
  found.twoFactorSince === null;

/** What the panel is told of a session: whose it is, and whether it must set up two-factor first. */
const describe = (found: FoundSession) => ({
  account: toAccount(found.account),
  member: found.member && toSignedIn(found.member, found.rolePermissions),
  twoFactorSetupRequired: setupOnly(found),
});

export type SessionsService = ReturnType<typeof createSessionsService>;

/**
 * The panel's sessions: signing in (the account's own login, or a member by e-mail), who a cookie
 * stands for (cached as API keys are), and signing out, here or everywhere.
 */
export function createSessionsService({
  db,
  clock,
  checkLogin,
  cache,
  twoFactor,
}: {
  db: Db;
  clock: Clock;
  checkLogin: CheckLogin;
  cache: CredentialCache;
  twoFactor: TwoFactorService;
}) {
  return {
    /**
     * Signs in: the same check and limits as POST /auth-token, then the second factor when the
     * login has one on (`code`), answered with a session token.
     */
    async openSession(username: string, password: string, clientAddress: string, code?: string) {
      const { account, member } = await checkLogin(username, password, clientAddress, true, (login) =>
        twoFactor.check({ accountId: login.account.id, memberId: login.member?.id ?? null }, code),
      );
      const token = newSessionToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      await repo.insertSession(db, account.id, {
        tokenHash: hashCredential(token),
        createdAt: now,
        expiresAt,
        memberId: member?.id ?? null,
      });
      const opened = await repo.findSession(db, hashCredential(token), now);
      return { token, ...describe(opened!), expiresAt };
    },

    /** The live session a panel cookie names, with its account and member; undefined for an unknown, expired or ended one. */
    async findSession(token: string) {
      const found = await repo.findSession(db, hashCredential(token), clock.now());
      return found && { ...describe(found), expiresAt: found.expiresAt };
    },

    /** Whom a live session stands for, cached like credentials, so the panel's requests cost what API keys cost. */
    authenticateSession(token: string): Principal | null | Promise<Principal | null> {
      const key = `session:${hashCredential(token)}`;
      const now = clock.now().getTime();
      const cached = cache.get(key, now);
      if (cached) return cached;
      return repo.findSession(db, hashCredential(token), new Date(now)).then((found) => {
        if (!found) return null;
        // An owner the account requires two-factor of, without it on, may only set it up (the panel's
        // own door, /panel/v1/two-factor): nothing of the account API until then.
        const scopes = setupOnly(found)
          ? []
          : found.member
            ? memberPermissions(found.member.role, found.rolePermissions)
            : null;
        const principal: Principal = {
          accountId: found.account.id,
          scopes,
          memberId: found.member?.id ?? null,
          via: 'session',
          stores: found.member?.storeIds ?? null,
        };
        cache.remember(key, principal, now, found.expiresAt.getTime());
        return principal;
      });
    },

    /** Signing out: the session ends on the server, whatever the browser keeps. */
    async closeSession(token: string) {
      const hash = hashCredential(token);
      await repo.expireSession(db, hash, clock.now());
      cache.forget(`session:${hash}`);
    },

    /**
     * Signing out everywhere: every panel session of whoever holds `token` (a member's own, or the
     * account login's) ends, here at once and in other processes within the credential cache's second.
     */
    async closeAllSessions(token: string) {
      const now = clock.now();
      const found = await repo.findSession(db, hashCredential(token), now);
      if (!found) return;
      if (found.member) await members.expireMemberSessions(db, found.account.id, found.member.id, now);
      else await repo.expireAccountLoginSessions(db, found.account.id, now);
      cache.clear();
    },
  };
}
