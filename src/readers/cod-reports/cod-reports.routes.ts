import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  DiscrepanciesExportQuery,
  DiscrepanciesQuery,
  DiscrepanciesResponse,
  ReceivablesExportQuery,
  ReceivablesQuery,
  ReceivablesResponse,
  ReconciliationQuery,
  ReconciliationResponse,
  RemittancesExportQuery,
  RemittancesQuery,
  RemittancesResponse,
} from './cod-reports.schemas.js';
import { CSV_COLUMNS, type CodReports, csvOf, MAX_EXPORT_ROWS } from './cod-reports.service.js';

const tags = ['COD remittances'];
const limitOf = (query: { limit?: string }) => (query.limit === undefined ? undefined : Number(query.limit));

const csvAnswer = (kind: keyof typeof CSV_COLUMNS) => ({
  description:
    `CSV (RFC 4180, UTF-8), columns ${CSV_COLUMNS[kind].join(', ')}. A text cell starting with =, +, -, @, a tab or a carriage return ` +
    'is written with a leading apostrophe, so a spreadsheet shows it and never runs it as a formula.',
  content: { 'text/csv': { schema: Type.String() } },
});

const EXPORT_NOTE = `Every matching row (at most ${MAX_EXPORT_ROWS}; more is a 422 asking for a narrower filter).`;

function sendCsv(reply: FastifyReply, kind: keyof typeof CSV_COLUMNS, rows: readonly object[]) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="cod-${kind}.csv"`)
    .send(csvOf(kind, rows));
}

export function codReportsRoutes(reports: CodReports): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/cod/receivables',
      {
        schema: {
          tags,
          summary: 'List COD receivables: what couriers owe for delivered COD shipments',
          description:
            'Newest delivery first, 50 a page (limit up to 500); send next_cursor as cursor for the next page. Filters combine.',
          querystring: ReceivablesQuery,
          response: { 200: answer(ReceivablesResponse, 'A page of receivables.'), ...errorResponses(400, 401) },
        },
      },
      async (request) =>
        reports.receivables(
          request.accountId,
          { ...request.query, limit: limitOf(request.query) },
          false,
          storesOf(request),
        ),
    );
    app.get(
      '/cod/receivables/export',
      {
        schema: {
          tags,
          summary: 'COD receivables as CSV',
          description: EXPORT_NOTE,
          querystring: ReceivablesExportQuery,
          response: { 200: csvAnswer('receivables'), ...errorResponses(400, 401, 422) },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          'receivables',
          (await reports.receivables(request.accountId, request.query, true, storesOf(request))).data,
        ),
    );

    app.get(
      '/cod/remittances',
      {
        schema: {
          tags,
          summary: 'List COD remittance lines: what couriers paid, per AWB and bank transfer (UTR)',
          description: 'Newest remittance date first, 50 a page (limit up to 500); next_cursor pages on.',
          querystring: RemittancesQuery,
          response: { 200: answer(RemittancesResponse, 'A page of remittance lines.'), ...errorResponses(400, 401) },
        },
      },
      async (request) =>
        reports.remittances(
          request.accountId,
          { ...request.query, limit: limitOf(request.query) },
          false,
          storesOf(request),
        ),
    );
    app.get(
      '/cod/remittances/export',
      {
        schema: {
          tags,
          summary: 'COD remittance lines as CSV',
          description: EXPORT_NOTE,
          querystring: RemittancesExportQuery,
          response: { 200: csvAnswer('remittances'), ...errorResponses(400, 401, 422) },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          'remittances',
          (await reports.remittances(request.accountId, request.query, true, storesOf(request))).data,
        ),
    );

    app.get(
      '/cod/discrepancies',
      {
        schema: {
          tags,
          summary:
            'List COD discrepancies: short and over payments, RTOs paid as delivered, remittances missing past their day',
          description:
            'Newest first, 50 a page (limit up to 500); next_cursor pages on. Discrepancies are kept as found, never changed.',
          querystring: DiscrepanciesQuery,
          response: { 200: answer(DiscrepanciesResponse, 'A page of discrepancies.'), ...errorResponses(400, 401) },
        },
      },
      async (request) =>
        reports.discrepancies(
          request.accountId,
          { ...request.query, limit: limitOf(request.query) },
          false,
          storesOf(request),
        ),
    );
    app.get(
      '/cod/discrepancies/export',
      {
        schema: {
          tags,
          summary: 'COD discrepancies as CSV',
          description: EXPORT_NOTE,
          querystring: DiscrepanciesExportQuery,
          response: { 200: csvAnswer('discrepancies'), ...errorResponses(400, 401, 422) },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          'discrepancies',
          (await reports.discrepancies(request.accountId, request.query, true, storesOf(request))).data,
        ),
    );

    app.get(
      '/cod/reconciliation',
      {
        schema: {
          tags,
          summary: 'COD reconciliation per remittance cycle: expected, received, difference and counts',
          description:
            "A cycle is one courier service's payout day: the receivables its remittance cycle makes due that day. Filter by service and by " +
            'the payout days (from, to); totals sum the rows listed.',
          querystring: ReconciliationQuery,
          response: {
            200: answer(ReconciliationResponse, 'One row per cycle, and their totals.'),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => reports.reconciliation(request.accountId, request.query, storesOf(request)),
    );
    app.get(
      '/cod/reconciliation/export',
      {
        schema: {
          tags,
          summary: 'COD reconciliation per cycle as CSV',
          querystring: ReconciliationQuery,
          response: { 200: csvAnswer('reconciliation'), ...errorResponses(400, 401) },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          'reconciliation',
          (await reports.reconciliation(request.accountId, request.query, storesOf(request))).data,
        ),
    );
  };
}
