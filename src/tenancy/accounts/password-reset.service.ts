import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { rateLimited } from '../../domain/errors.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import * as accountsRepo from './accounts.repository.js';
import { hashCredential, newResetToken, type PasswordHasher } from './credentials.js';
import type { LoginLimiter } from './login-limits.js';
import { deliver, type MemberMail, passwordResetMail } from './member-mail.js';
import { MEMBER_ERRORS } from './members.errors.js';
import * as repo from './members.repository.js';

/** A reset link works for an hour, once. */
export const RESET_TTL_MS = 60 * 60 * 1000;

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

/**
 * A member's forgotten password (issue 51): a link by e-mail, then a new password, which signs them
 * out everywhere. The asking answers the same whoever asks, so it never tells whether an address
 * is a login; it is limited as failed logins are, so nobody floods a mailbox. The account's own
 * login has no e-mail: its password is the operator's to reset (docs/teams.md).
 */
export function createPasswordResetService({
  db,
  clock,
  mail,
  publicBaseUrl,
  limiter,
  forgetCredentials,
  passwords,
}: {
  db: Db;
  clock: Clock;
  mail: MemberMail;
  publicBaseUrl: string;
  limiter: LoginLimiter;
  forgetCredentials: () => void;
  passwords: PasswordHasher;
}) {
  return {
    async ask(email: string, clientAddress: string): Promise<void> {
      const attempt = { username: `reset:${email.toLowerCase()}`, address: clientAddress };
      const wait = await limiter.attempt(attempt, clock.now().getTime());
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        throw rateLimited(`Too many resets asked; retry in ${seconds} s`, seconds, ACCOUNT_ERRORS.too_many_logins);
      }
      const member = await repo.findMemberByEmail(db, email);
      if (member?.status !== 'active') return;
      const token = newResetToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
      await repo.updateMember(db, member.accountId, member.id, {
        resetTokenHash: hashCredential(token),
        resetExpiresAt: expiresAt,
        updatedAt: now,
      });
      const account = await accountsRepo.findAccount(db, member.accountId);
      // Not awaited: the answer takes the same time whether the address is a login or not.
      void deliver(
        mail,
        member.email,
        passwordResetMail({
          accountName: account?.name ?? 'your account',
          resetUrl: `${publicBaseUrl}/app/reset#${token}`,
          expiresAt,
        }),
      );
    },

    /** A new password through the link: the link is spent, and every session of the member ends. */
    async confirm(token: string, password: string): Promise<void> {
      const passwordHash = await passwords.hash(password);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const found = await repo.findReset(tx, hashCredential(token), now);
        if (!found) throw MEMBER_ERRORS.reset_not_found.error('This reset link is not valid any more');
        await repo.updateMember(tx, found.member.accountId, found.member.id, {
          passwordHash,
          resetTokenHash: null,
          resetExpiresAt: null,
          updatedAt: now,
        });
        await repo.expireMemberSessions(tx, found.member.accountId, found.member.id, now);
      });
      forgetCredentials();
    },
  };
}
