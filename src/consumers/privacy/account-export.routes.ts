import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { EXAMPLE } from '../../http/examples.js';
import { actorOf } from '../../http/permission-guard.js';
import { Uuid } from '../../http/schemas.js';
import type { AccountExports } from './account-export.service.js';
import { PRIVACY_ERRORS } from './privacy.errors.js';

const tags = ['Privacy'];
const Moment = (description: string) => Type.String({ format: 'date-time', description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

const ExportFields = Type.Object({
  id: Uuid,
  status: Type.Union([Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')], {
    description:
      'running: being written; ready: the archive can be downloaded until expires_at; failed: start another.',
  }),
  tables_total: Count('Tables the archive holds (every table of the account, and the account itself).'),
  tables_done: Count('Tables written so far.'),
  rows_total: Count("The account's rows when the export was asked for."),
  rows_written: Count('Rows written so far (may end above rows_total: rows added meanwhile are exported too).'),
  created_at: Moment('When it was asked for.'),
  finished_at: Type.Union([Moment('When it was written, or failed.'), Type.Null()]),
  expires_at: Type.Union([
    Moment('When the archive and this record are deleted (ACCOUNT_EXPORT_KEEP_HOURS after it finished).'),
    Type.Null(),
  ]),
  bytes: Type.Union([Count("The archive's size, once ready."), Type.Null()]),
  error: Type.Union([Type.String({ description: 'Why it failed, in words.' }), Type.Null()]),
});

const RUNNING = {
  id: EXAMPLE.accountExportId,
  status: 'running',
  tables_total: 58,
  tables_done: 0,
  rows_total: 48210,
  rows_written: 0,
  created_at: '2026-11-20T06:30:00.000Z',
  finished_at: null,
  expires_at: null,
  bytes: null,
  error: null,
};
const READY = {
  ...RUNNING,
  status: 'ready',
  tables_done: 58,
  rows_written: 48210,
  finished_at: '2026-11-20T06:31:12.000Z',
  expires_at: '2026-11-23T06:31:12.000Z',
  bytes: 2318452,
};

const ExportEnvelope = Type.Object({ data: ExportFields }, { examples: [{ data: READY }] });
const ExportList = Type.Object(
  { data: Type.Array(ExportFields, { description: "The account's exports not yet expired, newest first." }) },
  { examples: [{ data: [READY] }] },
);
const ExportParams = Type.Object({
  id: { ...Uuid, description: "The export's id.", examples: [EXAMPLE.accountExportId] },
});
const ArchiveBody = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description:
    'A gzipped tar: manifest.json, tables/<table>.jsonl for every table (one JSON object a row, columns as in the database, timestamps ISO 8601 in UTC, bytes base64) and shipments.csv, orders.csv, returns.csv, cod_remittances.csv.',
});
const config = { resource: 'Account export', notFound: PRIVACY_ERRORS.account_export_not_found };
const WHO =
  "Owner or admin only (a credential holding every permission): the archive holds everything, buyers' details unmasked.";

/** `/account/exports`: everything the account holds as one archive, written in the background (docs/data-lifecycle.md). */
export function accountExportRoutes(exports: AccountExports): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/account/exports',
      {
        schema: {
          tags,
          summary: 'Start an export of everything the account holds, as one downloadable archive',
          description: `${WHO} The archive is written in the background: follow it with GET /account/exports/{id}, then download it from /account/exports/{id}/archive until it expires (ACCOUNT_EXPORT_KEEP_HOURS, 72). Every table of the account as JSON lines, the main ones also as CSV; credentials (password and key hashes, tokens, sessions, second factors, signing secrets, sealed courier, store and messaging credentials) are left out, and the manifest says so. One export at a time: a second while one is written is a 409.`,
          response: {
            202: answer(Type.Object({ data: ExportFields }), 'The export, being written.', { data: RUNNING }),
            ...errorResponses(401, 403, 409),
          },
        },
      },
      async (request, reply) => {
        const data = await exports.start(actorOf(request));
        return reply.status(202).send({ data });
      },
    );
    app.get(
      '/account/exports',
      {
        schema: {
          tags,
          summary: "List the account's exports",
          description: WHO,
          response: { 200: answer(ExportList, 'The exports, newest first.'), ...errorResponses(401, 403) },
        },
      },
      async (request) => ({ data: await exports.list(actorOf(request)) }),
    );
    app.get(
      '/account/exports/:id',
      {
        config,
        schema: {
          tags,
          summary: "Follow an export's progress",
          description: `${WHO} Ask again until status is ready (or failed).`,
          params: ExportParams,
          response: { 200: answer(ExportEnvelope, 'The export and its progress.'), ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => ({ data: await exports.get(actorOf(request), request.params.id) }),
    );
    app.get(
      '/account/exports/:id/archive',
      {
        config,
        schema: {
          tags,
          summary: "Download an export's archive",
          description: `${WHO} A .tar.gz (open it with \`tar -xzf\`); 409 export_not_ready while it is written. Each download is in the audit log.`,
          params: ExportParams,
          response: {
            200: { description: 'The archive.', content: { 'application/gzip': { schema: ArchiveBody } } },
            ...errorResponses(401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const archive = await exports.archive(actorOf(request), request.params.id);
        return reply
          .type('application/gzip')
          .header('content-length', archive.bytes)
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `attachment; filename="${archive.filename}"`)
          .send(createReadStream(archive.file));
      },
    );
  };
}
