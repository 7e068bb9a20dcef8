import type { Db } from '../../base/db/client.js';
import { unprocessable } from '../../domain/errors.js';
import { decodeCursor, encodeCursor, indiaDayStart } from '../../domain/paging.js';
import * as repo from './audit.repository.js';

export interface AuditQuery {
  actor_id?: string;
  action?: string;
  object_type?: string;
  object_id?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

const toView = (row: repo.AuditRow) => ({
  id: row.id,
  at: row.at.toISOString(),
  actor: { type: row.actorType, id: row.actorId, name: row.actorName },
  ip: row.ip,
  user_agent: row.userAgent,
  action: row.action,
  object: { type: row.objectType, id: row.objectId },
  changes: (row.changes ?? null) as Record<string, unknown> | null,
});
export type AuditView = ReturnType<typeof toView>;

export type AuditService = ReturnType<typeof createAuditService>;

/** Reading the audit log: newest first, filtered, a page at a time (the entries themselves never change). */
export function createAuditService({ db }: { db: Db }) {
  return {
    async list(accountId: string, query: AuditQuery) {
      const limit = query.limit ?? 50;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && after === null)
        throw unprocessable('cursor is not one this API gave', 'cursor');
      const rows = await repo.listAudit(db, accountId, {
        actorId: query.actor_id,
        action: query.action,
        objectType: query.object_type,
        objectId: query.object_id,
        from: query.from === undefined ? undefined : indiaDayStart(query.from),
        to: query.to === undefined ? undefined : indiaDayStart(query.to, 1),
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        data: page.map(toView),
        next_cursor: rows.length > limit && last ? encodeCursor(last.at, last.id) : null,
      };
    },
  };
}
