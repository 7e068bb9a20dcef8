import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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

/** The import route's body in either encoding: multipart's file part arrives as its text, like JSON's `file`. */
async function takesFiles(app: Parameters<FastifyPluginAsyncTypebox>[0]) {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: REMITTANCE_FILE_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    async onFile(part) {
      const holder = part as unknown as { value: string };
      holder.value = (await part.toBuffer()).toString('utf8');
      fileNames.set(this, part.filename);
    },
  });
}
const fileNames = new WeakMap<object, string>();

const importRoute =
  (ledger: CodLedger, source: ImportSource, accountOf: (request: { accountId: string; params: unknown }) => string) =>
  async (request: { accountId: string; params: unknown; body: { file: string; file_name?: string } }) =>
    ledger.importFile(accountOf(request), {
      text: request.body.file,
      fileName: request.body.file_name ?? fileNames.get(request) ?? null,
      source,
    });

const IMPORT_DESCRIPTION =
  'Takes in one file in one transaction: every line with a problem is reported with its line number and reason (problems), the ' +
  'good lines are applied. The same courier, UTR and AWB taken twice changes nothing (duplicates), so a file may be sent again. ' +
  'Each applied line adds to its receivable: equal to the COD amount → reconciled; otherwise remitted, with a short_paid or ' +
  'over_paid discrepancy; a line for a shipment that was not delivered records paid_not_delivered. Events: cod.remittance_applied ' +
  `and cod.discrepancy_found. At most ${REMITTANCE_FILE_MAX_BYTES / 1024 / 1024} MiB.`;

export function codLedgerRoutes(ledger: CodLedger): FastifyPluginAsyncTypebox {
  return async (app) => {
    await takesFiles(app);
    app.post(
      '/cod/remittance-files',
      {
        bodyLimit: REMITTANCE_FILE_MAX_BYTES + 64 * 1024,
        config: { upload: REMITTANCE_UPLOAD },
        schema: {
          tags,
          summary: "Import a courier's COD remittance file (CSV)",
          description: `multipart/form-data with the file field \`file\`, or JSON {file: "<the CSV text>"}. ${IMPORT_DESCRIPTION}`,
          body: RemittanceFileBody,
          response: {
            200: answer(RemittanceImport, 'What the file did, line by line.'),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      importRoute(ledger, 'api', (request) => request.accountId),
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
export function codLedgerAdminRoutes(ledger: CodLedger): FastifyPluginAsyncTypebox {
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
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      importRoute(ledger, 'cli', (request) => (request.params as { id: string }).id),
    );
  };
}
