import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../http/errors.js';
import { LABEL_ERRORS } from './labels.errors.js';
import { EXAMPLE } from '../../http/examples.js';
import { answer } from '../../http/answer.js';
import { IdempotencyHeaders } from '../../http/schemas.js';
import { BulkLabelsBody, ReissueBody, ReissuedLabel, ReissueParams } from './labels.schemas.js';
import { type LabelsService, MAX_BULK_LABELS } from './labels.service.js';
import { drawInvoice } from './invoice-pdf.js';
import type { InvoicesService } from './invoice.service.js';
import { renderLabelThen } from './label-pdf.js';

const PdfBody = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The 4x6 inch PDF label.' });
/** The PDF as OpenAPI says a binary answer is: its own media type, a binary string. */
const pdfContent = { 'application/pdf': { schema: PdfBody } };

/**
 * A signed link names one issue of the label, so a browser may keep its answer a while; the
 * account's own address for a label stays the same across re-issues and order changes, so a
 * browser must ask again each time (`private, no-cache`).
 */
const sendPdf = (reply: FastifyReply, pdf: { awb: string; bytes: Buffer }, cacheControl = 'private, max-age=300') =>
  reply
    .type('application/pdf')
    .header('cache-control', cacheControl)
    .header('content-disposition', `inline; filename="label-${pdf.awb}.pdf"`)
    .send(pdf.bytes);

const LabelLinkParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      "The shipment_id, or its AWB (awb_code), or a multi-piece shipment's box AWB; for a return also its return_id.",
    examples: [EXAMPLE.bookedShipmentId, EXAMPLE.awb],
  }),
});

const LabelLinkQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('pdf')], {
        description: 'json (the default): a new label_url; pdf: the label itself.',
        examples: ['pdf'],
      }),
    ),
    include: Type.Optional(
      Type.Literal('invoice', {
        description:
          "invoice: one PDF of the label's page and then the buyer's tax invoice (GET /shipments/{id}/invoice), whatever " +
          'format says; refused as the invoice is (422 invoice_details_missing, 409 invoice_not_numbered) before the label is printed.',
      }),
    ),
  },
  { additionalProperties: false },
);

const LabelLink = Type.Object(
  {
    shipment_id: Type.String({ format: 'uuid' }),
    awb_code: Type.String(),
    label_url: Type.String({
      format: 'uri',
      description: 'Signed link to the 4x6 inch PDF label; no credential needed to fetch it.',
    }),
    expires_at: Type.String({
      format: 'date-time',
      description: 'When label_url stops working (LABEL_URL_TTL_SECONDS after this answer).',
    }),
  },
  {
    description: 'A new signed label link.',
    examples: [
      {
        shipment_id: '3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e04',
        awb_code: 'DKY0000012345',
        label_url:
          'https://ship.example.in/public/v1/labels/3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e04?expires=1795250400&signature=pV3mX8QbW1nR5tY7uI9oP2aS4dF6gH8jK0lZ1xC3vB5',
        expires_at: '2026-11-21T09:00:00.000Z',
      },
    ],
  },
);

const LabelQuery = Type.Object(
  {
    expires: Type.String({
      pattern: '^\\d{1,12}$',
      description: 'Unix seconds; set by label_url.',
      examples: [EXAMPLE.labelExpires],
    }),
    signature: Type.String({ maxLength: 128, description: 'Set by label_url.', examples: [EXAMPLE.labelSignature] }),
  },
  { additionalProperties: false },
);

/** The label PDF behind a signed, expiring link: printers fetch it without an API credential. */
export function labelsRoutes(labels: LabelsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/labels/:id',
      {
        config: { resource: 'Label' },
        schema: {
          tags: ['Orders'],
          summary: 'A shipping label (4x6 inch PDF), through the signed link in label_url',
          description:
            'Answers the PDF. 403: the link was not issued by this server; 410: the link has expired, the shipment was ' +
            'cancelled (its label is void), or its label was re-issued after the link was made; 404: no label for this shipment; ' +
            '409: the shipment is held (its buyer has not confirmed the COD order, under the hold policy).',
          security: [],
          params: Type.Object({
            id: Type.String({
              format: 'uuid',
              description: "The shipment's id.",
              examples: [EXAMPLE.bookedShipmentId],
            }),
          }),
          querystring: LabelQuery,
          response: {
            200: { description: 'The label: a 4x6 inch PDF, cacheable privately for 5 minutes.', content: pdfContent },
            ...errorResponses(403, 404, 409, 410),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const check = labels.checkLink(id, Number(request.query.expires), request.query.signature);
        if (check === 'forged') throw LABEL_ERRORS.label_link_invalid.error('This label link is not valid');
        if (check === 'expired')
          throw LABEL_ERRORS.label_link_expired.error('This label link has expired: fetch a new one');
        const pdf = await labels.render(id, labels.linkIssuedAt(Number(request.query.expires)));
        if (!pdf) throw LABEL_ERRORS.label_not_found.error('Label not found');
        return sendPdf(reply, pdf);
      },
    );
  };
}

/** A new label link (or the PDF) for the account's own shipment: label links expire, shipments do not. */
export function labelLinkRoutes(labels: LabelsService, invoices: InvoicesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/shipments/:id/label',
      {
        config: { resource: 'Shipment' },
        schema: {
          tags: ['Shipments'],
          summary: 'A new signed label_url for a shipment, or (format=pdf) the label itself',
          description:
            'Issues a fresh label_url each call, for a link that expired (they last LABEL_URL_TTL_SECONDS, 24 hours by ' +
            'default) or was never kept. With format=pdf, answers the 4x6 inch PDF label directly. The shipment is named by ' +
            'its shipment_id or its AWB; a return by its shipment_id, return_id or AWB (its label is addressed to the warehouse). 404: no such shipment in this account, or it has no AWB yet; 410: it was cancelled, ' +
            "so its label is void; 409: it is held (a COD order its buyer has not confirmed, under the account's hold policy): " +
            'it must not be handed to the courier until confirmed. A multi-piece shipment\'s label is a page per box ("Box 2 of ' +
            "3\", that box's AWB as its barcode, the master AWB printed); named by a box's own AWB (box 2 on), format=pdf " +
            "and include=invoice print that box's page alone, and the JSON answer is the shipment's (its master AWB and a " +
            'label_url printing every box). With include=invoice, one PDF of the label and then the ' +
            "buyer's A4 tax invoice (GET /shipments/{id}/invoice), refused as that route refuses (422, 409).",
          params: LabelLinkParams,
          querystring: LabelLinkQuery,
          response: {
            200: {
              description: 'The new label_url (JSON), or with format=pdf the label itself (PDF).',
              content: {
                'application/json': {
                  schema: LabelLink,
                  example: (LabelLink as { examples?: unknown[] }).examples?.[0],
                },
                ...pdfContent,
              },
            },
            ...errorResponses(400, 401, 404, 409, 410, 422),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (request.query.include === 'invoice') {
          // The invoice first: a shipment that cannot be invoiced leaves its label unprinted.
          const invoice = await invoices.data(request.accountId, id);
          const label = await labels.labelFor(request.accountId, id);
          const bytes = await renderLabelThen(label, (doc) => drawInvoice(doc, invoice));
          return sendPdf(reply, { awb: label.awb, bytes }, 'private, no-cache');
        }
        if (request.query.format === 'pdf')
          return sendPdf(reply, await labels.pdfFor(request.accountId, id), 'private, no-cache');
        return labels.link(request.accountId, id);
      },
    );

    app.post(
      '/labels',
      {
        config: { resource: 'Label' },
        schema: {
          tags: ['Shipments'],
          summary: 'One PDF of many labels: a 4x6 inch page per AWB',
          description:
            `For a print run: up to ${MAX_BULK_LABELS} AWBs of this account's shipments (or returns), a page each in the order ` +
            'sent, each page the label GET /shipments/{id}/label answers (a test booking keeps its TEST band; a multi-piece ' +
            "shipment, named by its master AWB, a page per box; named by a box's own AWB, that box's page alone, unless its " +
            'master AWB is asked too). All or nothing: ' +
            "422 names every AWB that is not this account's or whose shipment was cancelled, and no PDF is made. A held " +
            'shipment (a COD order its buyer has not confirmed, under the hold policy) is left out of the PDF and named in the ' +
            'Dakiya-Held-Awbs header (comma-separated); 409 when every AWB is held.',
          body: BulkLabelsBody,
          response: {
            200: { description: 'The labels: one PDF, a 4x6 inch page per AWB.', content: pdfContent },
            ...errorResponses(400, 401, 409, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const { pdf: bytes, held } = await labels.bulkPdf(request.accountId, request.body.awbs);
        if (held.length > 0) reply.header('dakiya-held-awbs', held.join(','));
        return reply
          .type('application/pdf')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `inline; filename="labels-${request.body.awbs.length}.pdf"`)
          .send(bytes);
      },
    );

    app.post(
      '/shipments/:id/label/reissue',
      {
        config: { resource: 'Shipment', idempotent: true, optionalBody: true },
        schema: {
          tags: ['Shipments'],
          summary: "Re-issue a shipment's label: a new version, the old links void",
          description:
            'For a label to print again after the order changed (PUT /order) or the printed one was lost or damaged. The AWB ' +
            'and the courier booking stay; the label\'s version goes up by one and is printed on it ("Label 2, re-issued …"), ' +
            'every label_url signed before the re-issue answers 410, and a shipment.label_reissued event is recorded. ' +
            'Only before pickup (409 after: the courier has scanned the label); 410 for a cancelled shipment; 404 for ' +
            'a shipment of another account or with no AWB yet; 422 for a return. Send an Idempotency-Key to make a retry safe.',
          headers: IdempotencyHeaders,
          params: ReissueParams,
          body: ReissueBody,
          response: {
            200: answer(ReissuedLabel, 'The new label version and a signed link to it.'),
            ...errorResponses(400, 401, 404, 409, 410, 413, 415, 422),
          },
        },
      },
      async (request) => labels.reissue(actorOf(request), request.params.id, request.body.reason, request.transaction),
    );
  };
}
