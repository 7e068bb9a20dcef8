import type { Clock } from '../../base/clock.js';
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
 * Writes an entry of the audit log in the caller's transaction (issue 51), so a write and its entry
 * are kept or lost together. The actor is named as they are now: a member by e-mail, a key by its
 * prefix and name, else the account's own login or its access token.
 */
export function auditRecorder(clock: Clock): RecordAudit {
  return async (tx, actor, event) => {
    const { accountId } = actor;
    let actorType: string;
    let actorId: string | null = null;
    let actorName: string;
    if (actor.memberId) {
      actorType = 'member';
      actorId = actor.memberId;
      actorName = (await repo.memberEmail(tx, accountId, actor.memberId)) ?? 'a removed member';
    } else if (actor.keyId) {
      actorType = 'api_key';
      actorId = actor.keyId;
      actorName = (await repo.keyLabel(tx, accountId, actor.keyId)) ?? 'an API key';
    } else if (actor.via === 'system') {
      actorType = 'system';
      actorName = actor.label ?? 'Dakiya';
    } else if (actor.via === 'operator') {
      actorType = 'operator';
      actorName = 'the operator (ADMIN_TOKEN)';
    } else if (actor.via === 'access_token') {
      actorType = 'access_token';
      actorName = "the account login's access token";
    } else {
      actorType = 'account';
      actorName = 'the account login';
    }
    await repo.appendAudit(tx, {
      accountId,
      at: clock.now(),
      actorType,
      actorId,
      actorName,
      ip: actor.ip ?? null,
      userAgent: actor.userAgent ?? null,
      action: event.action,
      objectType: event.objectType,
      objectId: event.objectId,
      changes: event.changes ?? null,
    });
  };
}
