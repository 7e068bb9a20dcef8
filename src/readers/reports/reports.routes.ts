import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { ReportBody, ReportResponse } from './reports.schemas.js';
import { MAX_REPORT_DAYS, type ReportsService } from './reports.service.js';

export function reportsRoutes(reports: ReportsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/reports',
      {
        schema: {
          tags: ['Reports'],
          summary: "Summary report (Velocity's): shipments and order value per status over a creation-time range",
          description:
            'Counts the shipments whose order was created between start_date_time and end_date_time (both inclusive; ISO 8601, ' +
            `India time when no offset is given; at most ${MAX_REPORT_DAYS} days). For each status: count, and the order value ` +
            '(sub_total, rupees) of its prepaid and its cash-on-delivery shipments. forward lists the ten forward statuses, ' +
            "return Velocity's five return entries over the returns created in the range (return_requested and " +
            'return_pickup_scheduled count as return_pickup_scheduled, return_picked_up as return_in_transit, return_cancelled as ' +
            'cancelled; all prepaid), zeros included. Exact, read from an index.',
          body: ReportBody,
          response: {
            200: answer(ReportResponse, 'Per status, the count and the prepaid and COD order value over the range.'),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => reports.summary(request.accountId, request.body, storesOf(request)),
    );
  };
}
