import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import {
  accessTokens,
  accounts,
  apiKeys,
  customRoles,
  members,
  panelSessions,
  stores,
  twoFactorLogins,
} from '../../base/db/schema.js';

export type AccountRow = typeof accounts.$inferSelect;

export async function insertAccount(db: Executor, values: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values(values).returning();
  return row!;
}

export async function findAccount(db: Executor, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/**
 * Login has no account context yet: the username is what finds the account. Any of several
 * spellings may match (a mobile number stored before usernames were made canonical); the caller
 * chooses among the rows.
 */
export async function findAccountsByUsernames(db: Executor, usernames: string[]): Promise<AccountRow[]> {
  // lower(username) is what the unique index covers, so this is an index lookup per spelling.
  const lowered = usernames.map((name) => sql`lower(${name})`);
  return db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.username}) in (${sql.join(lowered, sql`, `)})`);
}

const keyColumns = {
  id: apiKeys.id,
  prefix: apiKeys.prefix,
  name: apiKeys.name,
  scopes: apiKeys.scopes,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  storeIds: apiKeys.storeIds,
};

export async function insertApiKey(
  db: Executor,
  accountId: string,
  values: {
    prefix: string;
    keyHash: string;
    createdAt: Date;
    name?: string | null;
    scopes?: string[] | null;
    expiresAt?: Date | null;
    memberId?: string | null;
    storeIds?: string[] | null;
  },
) {
  const [row] = await db
    .insert(apiKeys)
    .values({ accountId, ...values })
    .returning(keyColumns);
  return row!;
}

/** Revokes by id or by the key's visible prefix; returns the key, or undefined when none matched. */
export async function revokeApiKey(db: Executor, idOrPrefix: string, at: Date) {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(isUuid ? or(eq(apiKeys.id, idOrPrefix), eq(apiKeys.prefix, idOrPrefix)) : eq(apiKeys.prefix, idOrPrefix))
    .returning({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      prefix: apiKeys.prefix,
      revokedAt: apiKeys.revokedAt,
    });
  return row;
}

/** The account's keys, live and revoked, newest first (never their hashes). */
export async function listApiKeys(db: Executor, accountId: string) {
  return db
    .select(keyColumns)
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes one of the account's own keys by id; a key of another account is not found. */
export async function revokeOwnApiKey(db: Executor, accountId: string, id: string, at: Date) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, id)))
    .returning(keyColumns);
  return row;
}

export async function insertAccessToken(
  db: Executor,
  accountId: string,
  values: { tokenHash: string; createdAt: Date; expiresAt: Date },
) {
  await db.insert(accessTokens).values({ accountId, ...values });
}

/**
 * The account an unrevoked API key or an access token belongs to (token expiry is the caller's
 * check). A key made by a member works while they are active: suspending or removing them ends it.
 */
export async function findCredential(
  db: Executor,
  credentialHash: string,
): Promise<
  | {
      accountId: string;
      expiresAt: Date | null;
      scopes?: string[] | null;
      memberId?: string | null;
      keyId?: string;
      memberRole?: string | null;
      /** A custom role's permissions, when the member's role is one of the account's own. */
      rolePermissions?: string[] | null;
      /** The stores the key was limited to, and those its member is: it reaches both at once. */
      storeIds?: string[] | null;
      memberStoreIds?: string[] | null;
      apiKeyLastUsedAt?: Date | null;
    }
  | undefined
> {
  const [key] = await db
    .select({
      accountId: apiKeys.accountId,
      lastUsedAt: apiKeys.lastUsedAt,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      memberId: apiKeys.memberId,
      keyId: apiKeys.id,
      memberRole: members.role,
      rolePermissions: customRoles.permissions,
      storeIds: apiKeys.storeIds,
      memberStoreIds: members.storeIds,
    })
    .from(apiKeys)
    .leftJoin(members, eq(members.id, apiKeys.memberId))
    .leftJoin(customRoles, and(eq(customRoles.accountId, members.accountId), eq(customRoles.name, members.role)))
    .where(
      and(
        eq(apiKeys.keyHash, credentialHash),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.memberId), eq(members.status, 'active')),
      ),
    );
  if (key)
    return {
      accountId: key.accountId,
      expiresAt: key.expiresAt,
      scopes: key.scopes,
      memberId: key.memberId,
      keyId: key.keyId,
      memberRole: key.memberRole,
      rolePermissions: key.rolePermissions,
      storeIds: key.storeIds,
      memberStoreIds: key.memberStoreIds,
      apiKeyLastUsedAt: key.lastUsedAt,
    };
  const [token] = await db
    .select({ accountId: accessTokens.accountId, expiresAt: accessTokens.expiresAt })
    .from(accessTokens)
    .where(eq(accessTokens.tokenHash, credentialHash));
  return token;
}

/**
 * Marks a key used at `at` unless another request (or process) already did within `precisionMs`:
 * the condition, not the caller, keeps the writes to one a minute however many processes race.
 */
export async function touchApiKey(
  db: Executor,
  accountId: string,
  credentialHash: string,
  at: Date,
  precisionMs: number,
) {
  const staleBefore = new Date(at.getTime() - precisionMs);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(apiKeys.accountId, accountId),
        eq(apiKeys.keyHash, credentialHash),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore)),
      ),
    );
}

/**
 * Revoking a token is expiring it now: the row (and when it was made) stays for the record, and
 * every check of the credential already compares the expiry. Undefined when no live token matched.
 */
export async function expireAccessToken(db: Executor, accountId: string, tokenHash: string, at: Date) {
  const [row] = await db
    .update(accessTokens)
    .set({ expiresAt: at })
    .where(
      and(eq(accessTokens.accountId, accountId), eq(accessTokens.tokenHash, tokenHash), gt(accessTokens.expiresAt, at)),
    )
    .returning({ expiresAt: accessTokens.expiresAt });
  return row;
}

export async function insertSession(
  db: Executor,
  accountId: string,
  values: { tokenHash: string; createdAt: Date; expiresAt: Date; memberId: string | null },
) {
  await db.insert(panelSessions).values({ accountId, ...values });
}

/**
 * A session still live at `now`, with its account and, for a member's, the member: a suspended or
 * removed member's sessions are over.
 */
export async function findSession(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      account: accounts,
      expiresAt: panelSessions.expiresAt,
      member: {
        id: members.id,
        name: members.name,
        email: members.email,
        role: members.role,
        storeIds: members.storeIds,
      },
      rolePermissions: customRoles.permissions,
      twoFactorSince: twoFactorLogins.enabledAt,
    })
    .from(panelSessions)
    .innerJoin(accounts, eq(accounts.id, panelSessions.accountId))
    .leftJoin(members, eq(members.id, panelSessions.memberId))
    .leftJoin(customRoles, and(eq(customRoles.accountId, members.accountId), eq(customRoles.name, members.role)))
    .leftJoin(
      twoFactorLogins,
      and(
        eq(twoFactorLogins.accountId, panelSessions.accountId),
        sql`${twoFactorLogins.memberId} is not distinct from ${panelSessions.memberId}`,
      ),
    )
    .where(
      and(
        eq(panelSessions.tokenHash, tokenHash),
        gt(panelSessions.expiresAt, now),
        or(isNull(panelSessions.memberId), eq(members.status, 'active')),
      ),
    );
  return row;
}

/** Ending a session is expiring it now; the row stays, like a revoked access token's. */
export async function expireSession(db: Executor, tokenHash: string, at: Date) {
  await db
    .update(panelSessions)
    .set({ expiresAt: at })
    .where(and(eq(panelSessions.tokenHash, tokenHash), gt(panelSessions.expiresAt, at)));
}

/** Ends every live session of the account's own login (members' sessions are theirs to end). */
export async function expireAccountLoginSessions(db: Executor, accountId: string, at: Date) {
  await db
    .update(panelSessions)
    .set({ expiresAt: at })
    .where(
      and(eq(panelSessions.accountId, accountId), isNull(panelSessions.memberId), gt(panelSessions.expiresAt, at)),
    );
}

/** Whether the account's owners must sign in to the panel with two-factor on. */
export async function setOwnersNeedTwoFactor(db: Executor, accountId: string, required: boolean) {
  await db.update(accounts).set({ ownersNeedTwoFactor: required }).where(eq(accounts.id, accountId));
}

/** Of `ids`, those naming a store of the account (connected or not): what a limit to stores may name. */
export async function findStoreIds(db: Executor, accountId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: stores.id })
    .from(stores)
    .where(and(eq(stores.accountId, accountId), inArray(stores.id, [...ids])));
  return rows.map((row) => row.id);
}
