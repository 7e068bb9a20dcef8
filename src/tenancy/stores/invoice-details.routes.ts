import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import {
  INVOICE_DETAILS_VIEW_EXAMPLE,
  type InvoiceDetailsBody,
  InvoiceDetailsInput,
  InvoiceDetailsView,
} from './invoice-details.schemas.js';
import type { InvoiceDetailsService } from './invoice-details.service.js';
import { STORE_ERRORS } from './stores.errors.js';
import { StoreIdParams } from './stores.schemas.js';

const tags = ['Paperwork'];
// A store id that is not a UUID names no store: 404, as for any unknown one.
const config = { resource: 'Store', notFound: STORE_ERRORS.store_not_found };
const Envelope = Type.Object({ data: InvoiceDetailsView });

export function invoiceDetailsRoutes(details: InvoiceDetailsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/client-stores/:id/invoice-details',
      {
        config,
        schema: {
          tags,
          summary: "Read the seller's details on a store's tax invoices",
          description:
            "The legal name, GSTIN, registered address and invoice number prefix the store's buyers' GST invoices carry " +
            '(GET /shipments/{id}/invoice; docs/paperwork.md). Each null until set: such a store numbers no invoices.',
          params: StoreIdParams,
          response: {
            200: answer(Envelope, "The store's invoice details.", { data: INVOICE_DETAILS_VIEW_EXAMPLE }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await details.get(request.accountId, request.params.id) }),
    );

    app.put(
      '/client-stores/:id/invoice-details',
      {
        config,
        schema: {
          tags,
          summary: "Set the seller's details on a store's tax invoices",
          description:
            "All four together. From then on every booking of the store numbers its shipment's invoice in the store's " +
            'series for the financial year (`<prefix>/<YY-YY>/<sequence>`, consecutive, at most 16 characters: CGST Rules, ' +
            'rule 46(b)). 400 names `gstin` when its state code or check character is wrong, and `invoice_prefix` when a ' +
            'number under it could not fit 16 characters.',
          params: StoreIdParams,
          body: InvoiceDetailsInput,
          response: {
            200: answer(Envelope, 'The invoice details as set.', { data: INVOICE_DETAILS_VIEW_EXAMPLE }),
            ...errorResponses(400, 401, 404, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await details.set(actorOf(request), request.params.id, request.body as InvoiceDetailsBody),
      }),
    );
  };
}
