import multipart from '@fastify/multipart';
import { type Actor, operatorFor } from '../../domain/access/permissions.js';
import { actorOf } from '../../http/permission-guard.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { CHARGE_ERRORS } from './charges.errors.js';
import { type FileImports, IMPORT_RUNNING } from '../../http/file-imports.js';
import type { WeightReport } from './weight-report.js';
import {
  AccountParams,
  EXAMPLE_IMPORT,
  ImportEnvelope,
  REPORT_MAX_BYTES,
  WeightReportBody,
} from './weight-disputes.schemas.js';
import type { WeightDisputesService } from './weight-disputes.service.js';

/** A report over its size is refused while it streams in, naming file. */
const REPORT_UPLOAD = { field: 'file', maxBytes: REPORT_MAX_BYTES };

const DESCRIPTION =
  'CSV as JSON `{"file": "..."}` or a multipart/form-data upload in the field `file` (at most 5 MiB, 10,000 rows; a longer ' +
  'file is refused whole, 422). The charged weight is read in the unit its header states: charged_weight_g or "Charged Weight ' +
  '(g)" in grams, charged_weight_kg or "Charged Weight (kg)" in kilograms. Under a header that states none (charged_weight, ' +
  'Charged Weight) a weight below 50 for a parcel declared at 100 g or more is refused by its line, and a file whose weights ' +
  "are all so is refused whole (422 naming the header). Each row whose AWB is one of the account's booked shipments and " +
  "whose charged weight, priced on the shipment's own slabs, costs more than the booked freight opens a discrepancy (state " +
  'open) whose extra charge is pending until the merchant accepts or disputes it, or the window (WEIGHT_DISPUTE_WINDOW_DAYS) ' +
  'runs out. Rows with a problem are listed with their line (the first 100, and error_count); the rest are applied, in one ' +
  'transaction. The same file again changes nothing (docs/money.md). One import per account at a time: a second while one ' +
  'runs is answered 409, naming the one that runs.';

/**
 * A weight report, by multipart (streamed to its parser in a thread as it arrives) or as JSON
 * text, under the account's import slot (http/file-imports.ts); the operator's names an account,
 * which must exist.
 */
function reportImport(
  disputes: WeightDisputesService,
  imports: FileImports,
  actorFor: (request: FastifyRequest) => Actor,
  operator: boolean,
) {
  const accountOf = (request: FastifyRequest) => actorFor(request).accountId;
  const upload = imports.forRoute<undefined, WeightReport>(
    {
      kind: 'weight report',
      field: 'file',
      maxBytes: REPORT_MAX_BYTES,
      parser: new URL('./weight-report-parser.js', import.meta.url),
      options: () => undefined,
      refused: (message) => CHARGE_ERRORS.weight_report_invalid.error(message, 'file'),
    },
    accountOf,
    operator ? (accountId) => disputes.requireAccount(accountId) : undefined,
  );
  return {
    hooks: { preValidation: upload.preValidation, onError: upload.onError },
    async handle(request: FastifyRequest, body: { file: string }) {
      const taken = await upload.take(request, { text: body.file, fileName: null });
      try {
        return { data: await disputes.applyReport(actorFor(request), taken.parsed, taken.slot.db) };
      } finally {
        await taken.slot.release();
      }
    },
  };
}

const routeOptions = (hooks: ReturnType<typeof reportImport>['hooks']) => ({
  bodyLimit: REPORT_MAX_BYTES + 64 * 1024,
  config: { upload: REPORT_UPLOAD },
  ...hooks,
});

/** POST /custom/api/v1/weight-reports, in a scope of its own: its file is read by its own hook, never whole. */
export function weightReportRoutes(disputes: WeightDisputesService, imports: FileImports): FastifyPluginAsyncTypebox {
  const report = reportImport(disputes, imports, actorOf, false);
  return async (app) => {
    await app.register(multipart);
    app.post(
      '/weight-reports',
      {
        ...routeOptions(report.hooks),
        schema: {
          tags: ['Money'],
          summary:
            "Import a courier's weight report: a charged weight above the applied one opens a weight discrepancy",
          description: DESCRIPTION,
          body: WeightReportBody,
          response: {
            200: answer(ImportEnvelope, 'What the file opened, and the rows not applied.', EXAMPLE_IMPORT),
            409: IMPORT_RUNNING,
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => report.handle(request, request.body),
    );
  };
}

/** The operator's import for an account (the CLI's `weight-reports import`). */
export function weightReportAdminRoutes(
  disputes: WeightDisputesService,
  imports: FileImports,
): FastifyPluginAsyncTypebox {
  const report = reportImport(disputes, imports, (request) => operatorFor((request.params as { id: string }).id), true);
  return async (app) => {
    await app.register(multipart);
    app.post(
      '/accounts/:id/weight-reports',
      {
        ...routeOptions(report.hooks),
        schema: {
          tags: ['Operator'],
          security: [{ adminToken: [] }],
          summary: "Import a courier's weight report for an account (as POST /custom/api/v1/weight-reports)",
          params: AccountParams,
          body: WeightReportBody,
          response: {
            200: answer(ImportEnvelope, 'What the file opened, and the rows not applied.', EXAMPLE_IMPORT),
            409: IMPORT_RUNNING,
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      async (request) => report.handle(request, request.body),
    );
  };
}
