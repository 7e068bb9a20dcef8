import multipart from '@fastify/multipart';
import { type Actor, operatorFor } from '../../domain/access/permissions.js';
import { actorOf } from '../../http/permission-guard.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { indiaDayOf } from '../../domain/calendar.js';
import { COD_LEDGER_ERRORS } from './cod-ledger.errors.js';
import { type FileImports, IMPORT_RUNNING } from '../../http/file-imports.js';
import { MAX_REMITTANCE_LINES } from '../../domain/remittance-files.js';
import { awbNotFound } from '../../domain/awb-not-found.js';
import { paiseToRupees } from '../../domain/money.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import type { AwbSettlement } from './cod-ledger.repository.js';
import {
  AccountParams,
  AwbsBody,
  CodRemittanceResponse,
  REMITTANCE_FILE_MAX_BYTES,
  RemittanceFileBody,
  RemittanceImport,
  SettlementResponse,
} from './cod-ledger.schemas.js';
import type { CodLedger, ImportSource } from './cod-ledger.service.js';
import type { PackedRemittanceFile } from './remittance-parser.js';

const tags = ['COD remittances'];
/** A remittance file over its size is refused while it streams in, naming file. */
const REMITTANCE_UPLOAD = { field: 'file', maxBytes: REMITTANCE_FILE_MAX_BYTES };

function remittanceEntry(row: AwbSettlement) {
  const status = row.state ?? (row.isCod ? 'not_delivered' : 'prepaid');
  return {
    awb: row.awb,
    found: 1 as const,
    cod_amount: paiseToRupees(row.isCod ? row.codAmountPaise : 0),
    remittance_status: status as 'pending' | 'remitted' | 'reconciled' | 'not_delivered' | 'prepaid',
    expected_remittance_date: row.expectedDate,
    remitted_amount: paiseToRupees(row.receivedPaise ?? 0),
    utr: row.utr,
    remittance_date: row.remittanceDate,
  };
}

function settlementStatus(row: AwbSettlement, today: string) {
  if (row.state === null) return 'not_applicable' as const;
  if (row.state === 'reconciled') return 'settled' as const;
  if (row.state === 'remitted')
    return (row.receivedPaise! < row.amountPaise! ? 'short_settled' : 'over_settled') as
      | 'short_settled'
      | 'over_settled';
  return row.expectedDate! < today ? ('overdue' as const) : ('unsettled' as const);
}

/**
 * The import: a multipart file streams to its parser in a thread as it arrives, JSON's text is
 * parsed there too, each under the account's import slot (http/file-imports.ts).
 */
function remittanceImport(
  ledger: CodLedger,
  imports: FileImports,
  source: ImportSource,
  actorFor: (request: FastifyRequest) => Actor,
) {
  const accountOf = (request: FastifyRequest) => actorFor(request).accountId;
  const upload = imports.forRoute<{ today: number }, PackedRemittanceFile>(
    {
      kind: 'remittance file',
      field: 'file',
      maxBytes: REMITTANCE_FILE_MAX_BYTES,
      parser: new URL('./remittance-parser.js', import.meta.url),
      options: (now) => ({ today: indiaDayOf(now) }),
      refused: (message) =>
        COD_LEDGER_ERRORS.cod_remittance_file_invalid.error([`file: ${message}`], [{ field: 'file', message }]),
    },
    accountOf,
    source === 'cli' ? (accountId) => ledger.requireAccount(accountId) : undefined,
  );
  return {
    hooks: { preValidation: upload.preValidation, onError: upload.onError },
    async handle(request: FastifyRequest, body: { file: string; file_name?: string }) {
      const actor = actorFor(request);
      const taken = await upload.take(request, { text: body.file, fileName: body.file_name ?? null });
      try {
        return await ledger.applyFile(
          actor,
          { id: taken.slot.running.id, parsed: taken.parsed, fileName: taken.fileName, source },
          taken.slot.db,
        );
      } finally {
        await taken.slot.release();
      }
    },
  };
}

const IMPORT_DESCRIPTION =
  'Takes in one file in one transaction: every line with a problem is reported with its line number and reason (problems: the ' +
  'first 100, and problem_count), the good lines are applied. The same courier, UTR and AWB taken twice changes nothing (duplicates), so a file may be sent again. ' +
  'Each applied line adds to its receivable: equal to the COD amount → reconciled; otherwise remitted, with a short_paid or ' +
  'over_paid discrepancy; a line for a shipment that was not delivered records paid_not_delivered. Events: cod.remittance_applied ' +
  `and cod.discrepancy_found. At most ${REMITTANCE_FILE_MAX_BYTES / 1024 / 1024} MiB and ` +
  `${MAX_REMITTANCE_LINES.toLocaleString('en-IN')} lines: a longer file is refused whole (422). One import per account at a ` +
  'time: a second while one runs is answered 409, naming the one that runs.';

export function codLedgerRoutes(ledger: CodLedger, imports: FileImports): FastifyPluginAsyncTypebox {
  const upload = remittanceImport(ledger, imports, 'api', actorOf);
  return async (app) => {
    // Files are read by the import's own hook (file-imports.ts), never attached to the body whole.
    await app.register(multipart);
    app.post(
      '/cod/remittance-files',
      {
        bodyLimit: REMITTANCE_FILE_MAX_BYTES + 64 * 1024,
        config: { upload: REMITTANCE_UPLOAD },
        ...upload.hooks,
        schema: {
          tags,
          summary: "Import a courier's COD remittance file (CSV)",
          description: `multipart/form-data with the file field \`file\`, or JSON {file: "<the CSV text>"}. ${IMPORT_DESCRIPTION}`,
          body: RemittanceFileBody,
          response: {
            200: answer(RemittanceImport, 'What the file did, line by line.'),
            409: IMPORT_RUNNING,
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => upload.handle(request, request.body),
    );

    app.post(
      '/cod-remittance',
      {
        schema: {
          tags,
          summary: 'COD amount, remittance state, expected date, UTR and remittance date per AWB (Velocity)',
          description:
            'At most 100 AWBs. An unknown AWB, or one of another account, answers {awb, found: 0, error} in its place; never the whole request. A found one has found: 1.',
          body: AwbsBody,
          response: {
            200: answer(CodRemittanceResponse, 'One entry per AWB, keyed by AWB.'),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => {
        const { rows } = await ledger.settlements(request.accountId, request.body.awbs);
        const payload = Object.fromEntries(
          request.body.awbs.map((awb) => [awb, rows.has(awb) ? remittanceEntry(rows.get(awb)!) : awbNotFound(awb)]),
        );
        return { status: 1 as const, payload };
      },
    );

    app.post(
      '/settlement-status',
      {
        schema: {
          tags,
          summary: 'Settlement state of the COD cash per AWB (Velocity)',
          description:
            'At most 100 AWBs. An unknown AWB, or one of another account, answers {awb, found: 0, error} in its place; a found one has found: 1.',
          body: AwbsBody,
          response: {
            200: answer(SettlementResponse, 'One entry per AWB, keyed by AWB.'),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => {
        const { rows, today } = await ledger.settlements(request.accountId, request.body.awbs);
        const entry = (row: AwbSettlement) => ({
          awb: row.awb,
          found: 1 as const,
          settlement_status: settlementStatus(row, today),
          cod_amount: paiseToRupees(row.isCod ? row.codAmountPaise : 0),
          settled_amount: paiseToRupees(row.receivedPaise ?? 0),
          expected_date: row.expectedDate,
          settled_on: row.remittanceDate,
          utr: row.utr,
        });
        const payload = Object.fromEntries(
          request.body.awbs.map((awb) => [awb, rows.has(awb) ? entry(rows.get(awb)!) : awbNotFound(awb)]),
        );
        return { status: 1 as const, payload };
      },
    );
  };
}

/** The operator's way in (and the CLI's): a file for a named account. */
export function codLedgerAdminRoutes(ledger: CodLedger, imports: FileImports): FastifyPluginAsyncTypebox {
  const upload = remittanceImport(ledger, imports, 'cli', (request) =>
    operatorFor((request.params as { id: string }).id),
  );
  return async (app) => {
    app.post(
      '/accounts/:id/cod/remittance-files',
      {
        bodyLimit: REMITTANCE_FILE_MAX_BYTES + 64 * 1024,
        config: { upload: REMITTANCE_UPLOAD },
        schema: {
          tags: ['Operator'],
          security: [{ adminToken: [] }],
          summary: "Import a courier's COD remittance file for an account (the CLI's cod import)",
          description: `JSON {file: "<the CSV text>", file_name}. ${IMPORT_DESCRIPTION}`,
          params: AccountParams,
          body: RemittanceFileBody,
          response: {
            200: answer(RemittanceImport, 'What the file did, line by line.'),
            409: IMPORT_RUNNING,
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      async (request) => upload.handle(request, request.body),
    );
  };
}
