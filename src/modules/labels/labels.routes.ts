import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, errorResponses, notFound } from '../../http/errors.js';
import { EXAMPLE } from '../../http/examples.js';
import type { LabelsService } from './labels.service.js';

const LabelQuery = Type.Object(
  {
    expires: Type.String({ pattern: '^\\d{1,12}$', description: 'Unix seconds; set by label_url.', examples: [EXAMPLE.labelExpires] }),
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
            'Answers the PDF. 403: the link was not issued by this server; 410: the link has expired, or the shipment was ' +
            'cancelled (its label is void); 404: no label for this shipment.',
          security: [],
          params: Type.Object({ id: Type.String({ format: 'uuid', description: "The shipment's id.", examples: [EXAMPLE.bookedShipmentId] }) }),
          querystring: LabelQuery,
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The label, a 4x6 inch PDF (application/pdf).' }),
            ...errorResponses(403, 404, 410),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const check = labels.checkLink(id, Number(request.query.expires), request.query.signature);
        if (check === 'forged') throw new AppError(403, ['This label link is not valid']);
        if (check === 'expired') throw new AppError(410, ['This label link has expired: fetch a new one']);
        const pdf = await labels.render(id);
        if (!pdf) throw notFound('Label not found');
        return reply
          .type('application/pdf')
          .header('cache-control', 'private, max-age=300')
          .header('content-disposition', `inline; filename="label-${pdf.awb}.pdf"`)
          .send(pdf.bytes);
      },
    );
  };
}
