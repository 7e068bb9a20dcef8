import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import type { Retention } from './retention.service.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
/** The time before which a kind of row was removed: its setting's period before the run. */
const Before = (rows: string, setting: string) =>
  Type.String({ format: 'date-time', description: `${rows} before this time were removed (${setting} ago).` });
const PruneAnswer = Type.Object(
  {
    data: Type.Object({
      pruned: Type.Object({
        webhook_deliveries: Count('Finished webhook deliveries removed.'),
        webhook_attempts: Count('Their attempts, removed with them.'),
        channel_webhook_receipts: Count("Ids of stores' webhooks, kept to take a store's retry once."),
        channel_writebacks: Count('Finished write-backs to stores removed.'),
        notifications: Count('Finished customer e-mails removed.'),
        buyer_messages: Count('Finished messages to buyers removed.'),
        kept_scans: Count("Couriers' records Dakiya could not apply, kept for a replay, removed."),
        audit_log: Count('Audit log entries removed.'),
        idempotency_keys: Count('Idempotency keys past their 24 hours removed.'),
        tracking_events: Count("Couriers' scans of finished shipments removed (each shipment keeps its last)."),
        return_events: Count("Couriers' scans of finished returns removed (each return keeps its last)."),
        events: Count(
          'Events every consumer had read and nothing names any more removed (each subject keeps its last).',
        ),
        shipment_daily_totals: Count(
          "Rows of the reports' daily totals of past days folded into one per day, store, status and COD (each connection writes a row of its own).",
        ),
        shipment_monthly_totals: Count(
          "Rows of the reports' monthly totals of past months folded into one per month, store, status and COD (each connection writes a row of its own).",
        ),
      }),
      before: Type.Object({
        webhook_deliveries: Before('Deliveries last changed', 'WEBHOOK_DELIVERIES_RETENTION_DAYS'),
        channel_webhook_receipts: Before('Ids received', 'CHANNEL_WEBHOOK_RECEIPTS_RETENTION_DAYS'),
        channel_writebacks: Before('Write-backs last changed', 'CHANNEL_WRITEBACKS_RETENTION_DAYS'),
        notifications: Before('E-mails last changed', 'EMAILS_RETENTION_DAYS'),
        buyer_messages: Before('Messages last changed', 'BUYER_MESSAGES_RETENTION_DAYS'),
        kept_scans: Before('Kept scans last seen, replayed or applied', 'KEPT_SCANS_RETENTION_DAYS'),
        audit_log: Before('Audit log entries written', 'AUDIT_LOG_RETENTION_DAYS'),
        idempotency_keys: Type.String({
          format: 'date-time',
          description:
            'Idempotency keys first used before this time were removed (24 hours ago: their answers are replayed that long).',
        }),
        tracking_events: Before('Scans of shipments finished', 'TRACKING_HISTORY_RETENTION_DAYS'),
        return_events: Before('Scans of returns finished', 'TRACKING_HISTORY_RETENTION_DAYS'),
        events: Before('Events written', 'EVENTS_RETENTION_DAYS'),
        shipment_daily_totals: Type.String({
          format: 'date-time',
          description: "Daily totals of the days before this time (today's start in India) were folded.",
        }),
        shipment_monthly_totals: Type.String({
          format: 'date-time',
          description: "Monthly totals of the months before this time (this month's start in India) were folded.",
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
            channel_writebacks: 880,
            notifications: 2040,
            buyer_messages: 655,
            kept_scans: 12,
            audit_log: 4210,
            idempotency_keys: 18200,
            tracking_events: 25300,
            return_events: 410,
            events: 9650,
            shipment_daily_totals: 214,
            shipment_monthly_totals: 9,
          },
          before: {
            webhook_deliveries: '2026-10-28T09:00:00.000Z',
            channel_webhook_receipts: '2026-10-28T09:00:00.000Z',
            channel_writebacks: '2026-10-28T09:00:00.000Z',
            notifications: '2026-08-29T09:00:00.000Z',
            buyer_messages: '2026-08-29T09:00:00.000Z',
            kept_scans: '2026-05-31T09:00:00.000Z',
            audit_log: '2025-11-27T09:00:00.000Z',
            idempotency_keys: '2026-11-26T09:00:00.000Z',
            tracking_events: '2025-11-27T09:00:00.000Z',
            return_events: '2025-11-27T09:00:00.000Z',
            events: '2026-08-29T09:00:00.000Z',
            shipment_daily_totals: '2026-11-26T18:30:00.000Z',
            shipment_monthly_totals: '2026-10-31T18:30:00.000Z',
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
