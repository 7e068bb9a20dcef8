import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import type { Retention } from './retention.service.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const PruneAnswer = Type.Object(
  {
    data: Type.Object({
      pruned: Type.Object({
        webhook_deliveries: Count('Finished webhook deliveries removed.'),
        webhook_attempts: Count('Their attempts, removed with them.'),
        channel_webhook_receipts: Count("Ids of stores' webhooks, kept to take a store's retry once."),
        notifications: Count('Finished customer e-mails removed.'),
        buyer_messages: Count('Finished messages to buyers removed.'),
        kept_scans: Count("Couriers' records Dakiya could not apply, kept for a replay, removed."),
      }),
      before: Type.Object({
        webhook_deliveries: Type.String({
          format: 'date-time',
          description: 'Deliveries last changed before this time were removed (WEBHOOK_DELIVERIES_RETENTION_DAYS ago).',
        }),
        channel_webhook_receipts: Type.String({
          format: 'date-time',
          description: 'Ids received before this time were removed (CHANNEL_WEBHOOK_RECEIPTS_RETENTION_DAYS ago).',
        }),
        notifications: Type.String({
          format: 'date-time',
          description: 'E-mails last changed before this time were removed (EMAILS_RETENTION_DAYS ago).',
        }),
        buyer_messages: Type.String({
          format: 'date-time',
          description: 'Messages last changed before this time were removed (BUYER_MESSAGES_RETENTION_DAYS ago).',
        }),
        kept_scans: Type.String({
          format: 'date-time',
          description:
            'Kept scans last seen, replayed or applied before this time were removed (KEPT_SCANS_RETENTION_DAYS ago).',
        }),
      }),
    }),
  },
  {
    examples: [
      {
        data: {
          pruned: {
            webhook_deliveries: 1200,
            webhook_attempts: 1375,
            channel_webhook_receipts: 310,
            notifications: 2040,
            buyer_messages: 655,
            kept_scans: 12,
          },
          before: {
            webhook_deliveries: '2026-10-28T09:00:00.000Z',
            channel_webhook_receipts: '2026-10-28T09:00:00.000Z',
            notifications: '2026-08-29T09:00:00.000Z',
            buyer_messages: '2026-08-29T09:00:00.000Z',
            kept_scans: '2026-05-31T09:00:00.000Z',
          },
        },
      },
    ],
  },
);

/** The operator's pruning on demand, under /admin/v1 (docs/operations.md, Retention). */
export function retentionAdminRoutes(retention: Retention): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/retention/prune',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Prune every table to its retention period now, and say what each lost',
          description:
            'What the background job does every hour, at once and without its pauses: rows past their period are deleted in ' +
            'batches of PRUNE_BATCH_ROWS, each its own transaction. `npm run cli -- retention prune` does the same from the shell.',
          security: [{ adminToken: [] }],
          response: { 200: answer(PruneAnswer, 'What each table lost.'), ...errorResponses(401) },
        },
      },
      async () => ({ data: await retention.pruneAll() }),
    );
  };
}
