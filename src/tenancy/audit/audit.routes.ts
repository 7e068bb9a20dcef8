import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toCsv } from '../../domain/csv.js';
import { checkListingDays, csvContent, pageSize, sendCsv } from '../../http/csv.js';
import { errorResponses } from '../../http/errors.js';
import { AUDIT_PAGE_EXAMPLE, AuditListEnvelope, AuditQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

const COLUMNS = [
  'at',
  'actor_type',
  'actor_id',
  'actor',
  'ip',
  'user_agent',
  'action',
  'object_type',
  'object_id',
  'changes',
];

/** `GET /audit-log`: who did what in the account, when and from where; JSON pages or a CSV. */
export function auditRoutes(audit: AuditService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/audit-log',
      {
        schema: {
          tags: ['Members'],
          summary: "The account's audit log, newest first, with filters and cursor paging; or its CSV",
          description:
            'Every change to members, roles, API keys and sign-in rules, with who made it (member, key or the account login), from which address and what changed. Entries are never changed or deleted. from and to are India days.',
          querystring: AuditQuery,
          response: {
            200: {
              description: 'A page of entries (JSON), or a CSV file of them.',
              content: {
                'application/json': { schema: AuditListEnvelope, example: AUDIT_PAGE_EXAMPLE() },
                ...csvContent,
              },
            },
            ...errorResponses(400, 401, 422),
          },
        },
      },
      async (request, reply) => {
        checkListingDays(request.query);
        const page = await audit.list(request.accountId, {
          ...request.query,
          limit: pageSize(request.query),
        });
        if (request.query.format !== 'csv') return page;
        const rows = page.data.map((e) => [
          e.at,
          e.actor.type,
          e.actor.id,
          e.actor.name,
          e.ip,
          e.user_agent,
          e.action,
          e.object.type,
          e.object.id,
          e.changes === null ? null : JSON.stringify(e.changes),
        ]);
        return sendCsv(reply, 'audit-log', toCsv(COLUMNS, rows), page.next_cursor);
      },
    );
  };
}
