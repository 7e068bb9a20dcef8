import { and, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { apiKeys, auditLog, members } from '../../base/db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditEntry = Omit<typeof auditLog.$inferInsert, 'id'>;

/** One entry's insert; `actorName` may be a subquery (memberEmailOf, keyLabelOf) the statement answers. */
export function auditInsert(entry: Omit<AuditEntry, 'actorName'> & { actorName: SQL | string }): SQL {
  return sql`insert into ${auditLog} (account_id, at, actor_type, actor_id, actor_name, ip, user_agent, action, object_type, object_id, changes)
    values (${entry.accountId}, ${entry.at.toISOString()}::timestamptz, ${entry.actorType}, ${entry.actorId ?? null},
      ${entry.actorName}, ${entry.ip ?? null}, ${entry.userAgent ?? null}, ${entry.action}, ${entry.objectType},
      ${entry.objectId ?? null}, ${entry.changes == null ? null : JSON.stringify(entry.changes)}::jsonb)`;
}

/** A member's e-mail, the name they are written down with (a removed member's row stays, so it is found). */
export const memberEmailOf = (accountId: string, memberId: string): SQL =>
  sql`coalesce((select ${members.email} from ${members} where ${members.accountId} = ${accountId} and ${members.id} = ${memberId}), 'a removed member')`;

/** A key's prefix and name, as `dky_Q3v9XkP2… (Warehouse label printer)`. */
export const keyLabelOf = (accountId: string, keyId: string): SQL =>
  sql`coalesce((select ${apiKeys.prefix} || '…' || coalesce(' (' || ${apiKeys.name} || ')', '') from ${apiKeys} where ${apiKeys.accountId} = ${accountId} and ${apiKeys.id} = ${keyId}), 'an API key')`;

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
