import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { storesOf } from '../../http/store-guard.js';
import {
  RefundsOutstanding,
  RefundsOutstandingQuery,
  ReturnReport,
  type ReturnReportInput,
  ReturnReportQuery,
} from './return-reports.schemas.js';
import type { ReturnReportsService } from './return-reports.service.js';

const tags = ['Reports'];

export function returnReportsRoutes(reports: ReturnReportsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/return-reports',
      {
        schema: {
          tags,
          summary: 'Return rates by SKU, reason or delivery pincode',
          description:
            "Of the shipments delivered in the range (India days), what was asked back on their return requests, approved, rejected or still pending; the rates against what was delivered (by reason: each reason's share). Rejected and pending requests count in request_rate, not in return_rate.",
          querystring: ReturnReportQuery,
          response: {
            200: answer(ReturnReport, 'One row per SKU, reason or pincode, the most asked back first.', {
              data: [
                {
                  key: 'KURTA-M-BLUE',
                  delivered: 120,
                  requested: 14,
                  approved: 11,
                  rejected: 2,
                  pending: 1,
                  request_rate: 0.1167,
                  return_rate: 0.0917,
                },
              ],
              meta: { group_by: 'sku', from: '2026-10-27', to: '2026-11-26' },
            }),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => reports.returns(request.accountId, request.query as ReturnReportInput, storesOf(request)),
    );

    app.get(
      '/return-reports/refunds',
      {
        schema: {
          tags,
          summary: 'Refunds outstanding',
          description:
            'The refunds not completed, counted and summed by what they wait on: their return (not yet due), your payment (due), the payment system (initiated), or a retry (failed).',
          querystring: RefundsOutstandingQuery,
          response: {
            200: answer(RefundsOutstanding, 'The buckets, and their total.', {
              data: {
                waiting_on_return: { count: 3, amount: 2497.5 },
                due: { count: 2, amount: 1298 },
                initiated: { count: 1, amount: 449 },
                failed: { count: 0, amount: 0 },
                total: { count: 6, amount: 4244.5 },
              },
            }),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) =>
        reports.refundsOutstanding(
          request.accountId,
          (request.query as { store_id?: string }).store_id,
          storesOf(request),
        ),
    );
  };
}
