import { and, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { apiKeys, auditLog, members } from '../../base/db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditEntry = Omit<typeof auditLog.$inferInsert, 'id'>;

export async function appendAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
}

/** The name an actor is written down with: a member's e-mail, a key's prefix and name. */
export async function memberEmail(db: Executor, accountId: string, memberId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: members.email })
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.id, memberId)));
  return row?.email;
}

export async function keyLabel(db: Executor, accountId: string, keyId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ prefix: apiKeys.prefix, name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId)));
  return row && `${row.prefix}…${row.name ? ` (${row.name})` : ''}`;
}

export interface AuditFilter {
  actorId?: string;
  action?: string;
  objectType?: string;
  objectId?: string;
  from?: Date;
  to?: Date;
  after: { at: Date; id: string } | null;
  limit: number;
}

/** The account's entries, newest first, after the cursor's. */
export function listAudit(db: Executor, accountId: string, filter: AuditFilter): Promise<AuditRow[]> {
  const { after } = filter;
  const conditions: (SQL | undefined)[] = [
    eq(auditLog.accountId, accountId),
    filter.actorId === undefined ? undefined : eq(auditLog.actorId, filter.actorId),
    filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
    filter.objectType === undefined ? undefined : eq(auditLog.objectType, filter.objectType),
    filter.objectId === undefined ? undefined : eq(auditLog.objectId, filter.objectId),
    filter.from === undefined ? undefined : gte(auditLog.at, filter.from),
    filter.to === undefined ? undefined : lt(auditLog.at, filter.to),
    after ? or(lt(auditLog.at, after.at), and(eq(auditLog.at, after.at), lt(auditLog.id, after.id))) : undefined,
  ];
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(filter.limit);
}
