import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { accounts, members, panelSessions } from '../../base/db/schema.js';

export type MemberRow = typeof members.$inferSelect;

export async function insertMember(
  db: Executor,
  accountId: string,
  values: Omit<typeof members.$inferInsert, 'accountId' | 'id'>,
): Promise<MemberRow> {
  const [row] = await db
    .insert(members)
    .values({ accountId, ...values })
    .returning();
  return row!;
}

/** The account's members still on it, in the order they were invited. */
export function listMembers(db: Executor, accountId: string): Promise<MemberRow[]> {
  return db
    .select()
    .from(members)
    .where(and(eq(members.accountId, accountId), ne(members.status, 'removed')))
    .orderBy(asc(members.createdAt), asc(members.id));
}

/** One of the account's members still on it; another account's is not found. */
export async function findMember(db: Executor, accountId: string, id: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.id, id), ne(members.status, 'removed')));
  return row;
}

/** The member, of any account, whose login an e-mail address is (compared ignoring case). */
export async function findMemberByEmail(db: Executor, email: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(sql`lower(${members.email}) = lower(${email})`, ne(members.status, 'removed')));
  return row;
}

/** An invitation still open at `now`, with the name of the account it is to. */
export async function findInvitation(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ member: members, accountName: accounts.name })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(
      and(eq(members.inviteTokenHash, tokenHash), eq(members.status, 'invited'), gt(members.inviteExpiresAt, now)),
    );
  return row;
}

export async function updateMember(
  db: Executor,
  accountId: string,
  id: string,
  values: Partial<Omit<MemberRow, 'id' | 'accountId' | 'email' | 'createdAt' | 'invitedBy'>> & { updatedAt: Date },
): Promise<MemberRow | undefined> {
  const [row] = await db
    .update(members)
    .set(values)
    .where(and(eq(members.accountId, accountId), eq(members.id, id)))
    .returning();
  return row;
}

/** Ends a member's panel sessions now (sign-out everywhere); the rows stay, like a revoked token's. */
export async function expireMemberSessions(db: Executor, accountId: string, memberId: string, at: Date) {
  await db
    .update(panelSessions)
    .set({ expiresAt: at })
    .where(
      and(
        eq(panelSessions.accountId, accountId),
        eq(panelSessions.memberId, memberId),
        gt(panelSessions.expiresAt, at),
      ),
    );
}

/** The active member a password reset's token belongs to while it is open at `now`, with their account's name. */
export async function findReset(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ member: members, accountName: accounts.name })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(and(eq(members.resetTokenHash, tokenHash), eq(members.status, 'active'), gt(members.resetExpiresAt, now)));
  return row;
}
