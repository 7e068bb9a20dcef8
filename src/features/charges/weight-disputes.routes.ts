import multipart from '@fastify/multipart';
import { storesOf } from '../../http/store-guard.js';
import { actorOf } from '../../http/permission-guard.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { toCsv } from '../../domain/csv.js';
import { answer } from '../../http/answer.js';
import { checkListingDays, csvContent, pageSize, sendCsv } from '../../http/csv.js';
import { errorHandler, errorResponses } from '../../http/errors.js';
import { invalid } from '../../domain/errors.js';
import { CHARGE_ERRORS } from './charges.errors.js';
import {
  AccountDisputeParams,
  DiscrepancyEnvelope,
  DisputeBody,
  DisputeIdParams,
  DisputeListEnvelope,
  DisputeListQuery,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_IMAGES,
  EvidenceParams,
  EXAMPLE_DISCREPANCY,
  OutcomeBody,
} from './weight-disputes.schemas.js';
import type { WeightDisputesService } from './weight-disputes.service.js';

const tags = ['Money'];
const ImageBody = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });
const config = { resource: 'Weight discrepancy' };
// One image more than allowed is read, so that the answer names `images` rather than cutting the upload off.
const evidenceLimits = {
  limits: {
    fileSize: EVIDENCE_MAX_BYTES,
    files: EVIDENCE_MAX_IMAGES + 1,
    fields: 2,
    fieldSize: 4096,
    parts: EVIDENCE_MAX_IMAGES + 3,
  },
};

/**
 * Multipart for the evidence photos: each arrives as base64 (as JSON sends it), so that the route
 * has one schema for both encodings. toBuffer() stops at the route's fileSize while streaming: an
 * oversized upload is never held whole (422). A weight report is not read here: it streams to its
 * parser (reportImport), in a scope of its own.
 */
async function acceptPhotos(app: FastifyInstance) {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: evidenceLimits.limits,
    async onFile(part) {
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        // The framework's own answer to this code speaks of logos.
        if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
        throw CHARGE_ERRORS.dispute_evidence_invalid.error(
          `${part.fieldname} must be at most ${EVIDENCE_MAX_BYTES / 1024 / 1024} MiB (${EVIDENCE_MAX_BYTES} bytes) a file`,
          part.fieldname,
        );
      }
      (part as unknown as { value: string }).value = bytes.toString('base64');
    },
  });
}

const DISPUTE_COLUMNS = [
  'awb',
  'carrier_id',
  'state',
  'declared_weight_g',
  'charged_weight_g',
  'booked_freight',
  'charged_freight',
  'extra_charge',
  'opened_at',
  'due_at',
  'disputed_at',
  'settled_by',
  'settled_at',
  'comment',
  'resolution',
];

export function weightDisputesRoutes(disputes: WeightDisputesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    await acceptPhotos(app);

    app.get(
      '/weight-disputes',
      {
        schema: {
          tags,
          summary: "The account's weight discrepancies, newest first, with filters and cursor paging; or their CSV",
          querystring: DisputeListQuery,
          response: {
            200: {
              description:
                'A page of discrepancies (JSON), or up to 10,000 as CSV with the next cursor in Dakiya-Next-Cursor.',
              content: {
                'application/json': {
                  schema: DisputeListEnvelope,
                  example: { data: [EXAMPLE_DISCREPANCY], next_cursor: null },
                },
                ...csvContent,
              },
            },
            ...errorResponses(400, 401),
          },
        },
      },
      async (request, reply) => {
        checkListingDays(request.query);
        const page = await disputes.list(request.accountId, request.query, pageSize(request.query), storesOf(request));
        if (request.query.format !== 'csv') return page;
        const rows = page.data.map((d) => [
          d.awb,
          d.carrier_id,
          d.state,
          d.declared_weight,
          d.charged_weight,
          d.booked_freight.toFixed(2),
          d.charged_freight.toFixed(2),
          d.extra_charge.toFixed(2),
          d.opened_at,
          d.due_at,
          d.disputed_at,
          d.settled_by,
          d.settled_at,
          d.comment,
          d.resolution,
        ]);
        return sendCsv(reply, 'weight-disputes', toCsv(DISPUTE_COLUMNS, rows), page.next_cursor);
      },
    );

    app.get(
      '/weight-disputes/:id',
      {
        config,
        schema: {
          tags,
          summary: 'A weight discrepancy, with its evidence',
          params: DisputeIdParams,
          response: {
            200: answer(DiscrepancyEnvelope, 'The discrepancy.', { data: EXAMPLE_DISCREPANCY }),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => ({ data: await disputes.get(request.accountId, request.params.id) }),
    );

    app.get(
      '/weight-disputes/:id/evidence/:position',
      {
        config,
        schema: {
          tags,
          summary: 'One photo sent with a dispute',
          params: EvidenceParams,
          response: {
            200: {
              description: 'The image as uploaded, in the type its bytes show.',
              content: Object.fromEntries(
                ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [type, { schema: ImageBody }]),
              ),
            },
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request, reply) => {
        const image = await disputes.evidence(request.accountId, request.params.id, Number(request.params.position));
        return reply.type(image.contentType).header('cache-control', 'private, max-age=3600').send(image.bytes);
      },
    );

    app.post(
      '/weight-disputes/:id/accept',
      {
        config,
        schema: {
          tags,
          summary: 'Accept the extra charge of an open weight discrepancy',
          description: 'The weight adjustment line is charged. 409 when the discrepancy is not open.',
          params: DisputeIdParams,
          response: {
            200: answer(DiscrepancyEnvelope, 'The discrepancy, accepted.', {
              data: {
                ...EXAMPLE_DISCREPANCY,
                state: 'accepted',
                settled_by: 'merchant',
                settled_at: '2026-11-22T06:30:00.000Z',
              },
            }),
            ...errorResponses(400, 401, 404, 409),
          },
        },
      },
      async (request) => ({ data: await disputes.accept(actorOf(request), request.params.id) }),
    );

    app.post(
      '/weight-disputes/:id/dispute',
      {
        config: { ...config, multipartOptions: evidenceLimits },
        // Past the files limit the framework's answer would name the logo.
        errorHandler: (error, request, reply) =>
          error.code === 'FST_FILES_LIMIT'
            ? errorHandler(invalid(`images must be 1 to ${EVIDENCE_MAX_IMAGES} images`, 'images'), request, reply)
            : errorHandler(error, request, reply),
        bodyLimit: (EVIDENCE_MAX_IMAGES + 1) * Math.ceil((EVIDENCE_MAX_BYTES * 4) / 3) + 64 * 1024,
        schema: {
          tags,
          summary: 'Dispute an open weight discrepancy, with photos and a comment',
          description:
            `JSON with base64 images, or multipart/form-data: the text field comment and 1 to ${EVIDENCE_MAX_IMAGES} files in the ` +
            'field images, each a PNG, JPEG, WebP or GIF of at most 2 MiB (recognised by its bytes; a larger file is refused while ' +
            'it streams in, 422). Only while the discrepancy is open and its window has not run out (else 409); the operator then ' +
            "records the courier's verdict, won or lost.",
          params: DisputeIdParams,
          body: DisputeBody,
          response: {
            200: answer(DiscrepancyEnvelope, 'The discrepancy, disputed.', {
              data: {
                ...EXAMPLE_DISCREPANCY,
                state: 'disputed',
                comment: 'Packed at 480 g in a 20x15x10 cm box; photo of the scale attached.',
                disputed_at: '2026-11-22T06:30:00.000Z',
                evidence: [
                  {
                    position: 1,
                    content_type: 'image/png',
                    size: 70,
                    sha256: 'c7e5f0b1d3a2948e6f1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f',
                    url: `/custom/api/v1/weight-disputes/${EXAMPLE_DISCREPANCY.id}/evidence/1`,
                  },
                ],
              },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await disputes.dispute(actorOf(request), request.params.id, request.body) }),
    );
  };
}

/** The operator's side: a dispute's verdict (a report imported for an account is in weight-reports.routes.ts). */
export function weightDisputesAdminRoutes(disputes: WeightDisputesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const adminTags = ['Operator'];

    app.post(
      '/accounts/:account_id/weight-disputes/:id/outcome',
      {
        config,
        schema: {
          tags: adminTags,
          security: [{ adminToken: [] }],
          summary:
            "Record the courier's verdict on a disputed weight discrepancy: won (no extra charge) or lost (charged)",
          params: AccountDisputeParams,
          body: OutcomeBody,
          response: {
            200: answer(DiscrepancyEnvelope, 'The discrepancy, settled.', {
              data: {
                ...EXAMPLE_DISCREPANCY,
                state: 'won',
                settled_by: 'operator',
                resolution: 'The courier accepted the photos of the scale.',
                settled_at: '2026-11-23T06:30:00.000Z',
              },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await disputes.resolve(
          request.params.account_id,
          request.params.id,
          request.body.outcome,
          request.body.resolution,
        ),
      }),
    );
  };
}
