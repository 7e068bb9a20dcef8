import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { twoFactorLogins } from '../../base/db/schema.js';

export type TwoFactorRow = typeof twoFactorLogins.$inferSelect;

/** Whose second factor: the account's own login (member null) or one member. */
export interface LoginRef {
  accountId: string;
  memberId: string | null;
}

const of = (login: LoginRef): SQL =>
  and(
    eq(twoFactorLogins.accountId, login.accountId),
    login.memberId === null ? isNull(twoFactorLogins.memberId) : eq(twoFactorLogins.memberId, login.memberId),
  )!;

export async function findTwoFactor(db: Executor, login: LoginRef): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(twoFactorLogins).where(of(login));
  return row;
}

/** A new secret being set up, in place of one not yet confirmed. */
export async function startTwoFactor(db: Executor, login: LoginRef, secretSealed: string, at: Date) {
  await db
    .insert(twoFactorLogins)
    .values({ ...login, secretSealed, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [twoFactorLogins.accountId, twoFactorLogins.memberId],
      set: { secretSealed, updatedAt: at, enabledAt: null, lastTimeStep: null, recoveryCodeHashes: [] },
    });
}

export async function updateTwoFactor(
  db: Executor,
  login: LoginRef,
  values: Partial<Pick<TwoFactorRow, 'enabledAt' | 'lastTimeStep' | 'recoveryCodeHashes'>> & { updatedAt: Date },
) {
  await db.update(twoFactorLogins).set(values).where(of(login));
}

export async function deleteTwoFactor(db: Executor, login: LoginRef) {
  await db.delete(twoFactorLogins).where(of(login));
}
