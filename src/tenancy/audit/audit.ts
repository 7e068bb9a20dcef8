import type { Clock } from '../../base/clock.js';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import * as repo from './audit.repository.js';

/** What was done: `member.invited` on `member` 2d7e…, and a summary of the fields it changed. */
export interface AuditEvent {
  action: string;
  objectType: string;
  objectId: string | null;
  /** Fields before and after, or what was made; never a secret or a buyer's data in clear. */
  changes?: Record<string, unknown>;
}

export type RecordAudit = (tx: Executor, actor: Actor, event: AuditEvent) => Promise<void>;

/**
 * The entry as one insert statement, naming the actor as they are now (a member by e-mail, a key by
 * its prefix and name, found by the statement itself), else the account's own login or its access
 * token: a write that is one statement (a booking) carries its entry inside it.
 */
export function auditStatement(actor: Actor, event: AuditEvent, at: Date): SQL {
  const { accountId } = actor;
  const who: Pick<repo.AuditEntry, 'actorType' | 'actorId'> & { actorName: SQL | string } = actor.memberId
    ? { actorType: 'member', actorId: actor.memberId, actorName: repo.memberEmailOf(accountId, actor.memberId) }
    : actor.keyId
      ? { actorType: 'api_key', actorId: actor.keyId, actorName: repo.keyLabelOf(accountId, actor.keyId) }
      : actor.via === 'system'
        ? { actorType: 'system', actorId: null, actorName: actor.label ?? 'Dakiya' }
        : actor.via === 'operator'
          ? { actorType: 'operator', actorId: null, actorName: 'the operator (ADMIN_TOKEN)' }
          : actor.via === 'access_token'
            ? { actorType: 'access_token', actorId: null, actorName: "the account login's access token" }
            : { actorType: 'account', actorId: null, actorName: 'the account login' };
  return repo.auditInsert({
    accountId,
    at,
    ...who,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ?? null,
    action: event.action,
    objectType: event.objectType,
    objectId: event.objectId,
    changes: event.changes ?? null,
  });
}

/** Writes an entry of the audit log in the caller's transaction (issue 51), so a write and its entry are kept or lost together. */
export function auditRecorder(clock: Clock): RecordAudit {
  return async (tx, actor, event) => {
    await tx.execute(auditStatement(actor, event, clock.now()));
  };
}
