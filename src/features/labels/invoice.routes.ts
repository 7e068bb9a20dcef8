import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/errors.js';
import {
  BulkInvoicesBody,
  INVOICE_EXAMPLE,
  InvoiceAnswer,
  InvoiceParams,
  InvoiceQuery,
  MAX_BULK_INVOICES,
} from './invoice.schemas.js';
import type { InvoicesService } from './invoice.service.js';

const PdfBody = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The A4 PDF invoice.' });

/** The buyer's tax invoice of the account's shipment (docs/paperwork.md). */
export function invoiceRoutes(invoices: InvoicesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/shipments/:id/invoice',
      {
        config: { resource: 'Shipment' },
        schema: {
          tags: ['Paperwork'],
          summary: "A shipment's GST tax invoice, as JSON or (format=pdf) an A4 PDF",
          description:
            "The buyer's tax invoice (CGST Rules, rule 46) in the store's brand: the seller's legal name, GSTIN and address " +
            "(PUT /client-stores/{id}/invoice-details), the buyer, the place of supply (the delivery pincode's State), the " +
            'invoice number its booking issued and the date, each item with its HSN, quantity, unit price, discount, taxable ' +
            'value, rate and tax (CGST and SGST, or UTGST, within a State; IGST across States), the totals by kind, the ' +
            'rounding line, the total and the amount in words. Prices are taken as tax included. 422 ' +
            "`invoice_details_missing`: the shipment's store has no invoice details (or it has no store); 409 " +
            '`invoice_not_numbered`: it was booked before they were set, or has no courier yet; 422 ' +
            "`invoice_gstin_other_state`: the store's GSTIN is of another State than the warehouse's, which has no GSTIN of its own. " +
            "A multi-piece shipment has one invoice: named by a box's own AWB, it is the shipment's.",
          params: InvoiceParams,
          querystring: InvoiceQuery,
          response: {
            200: {
              description: 'The invoice (JSON), or with format=pdf the A4 PDF.',
              content: {
                'application/json': { schema: InvoiceAnswer, example: INVOICE_EXAMPLE },
                'application/pdf': { schema: PdfBody },
              },
            },
            ...errorResponses(400, 401, 404, 409, 422),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (request.query.format !== 'pdf') return invoices.json(request.accountId, id);
        const pdf = await invoices.pdf(request.accountId, id);
        return reply
          .type('application/pdf')
          .header('cache-control', 'private, no-cache')
          .header('content-disposition', `inline; filename="invoice-${pdf.number.replace(/\//g, '-')}.pdf"`)
          .send(pdf.bytes);
      },
    );

    app.post(
      '/invoices',
      {
        config: { resource: 'Shipment' },
        schema: {
          tags: ['Paperwork'],
          summary: "One PDF of many tax invoices: a pickup's print run",
          description:
            `Up to ${MAX_BULK_INVOICES} AWBs of this account's shipments (a pickup's, from GET /pickups/{id}), each invoice ` +
            'as GET /shipments/{id}/invoice?format=pdf prints it, from a page of its own, in the order sent. All or nothing: ' +
            "422 `bulk_invoices_refused` names every AWB that is not this account's or cannot be invoiced (its store has " +
            'no invoice details, it was booked before them, its GSTIN is of another State), with why, and no PDF is made. ' +
            "A multi-piece shipment's box AWB prints its shipment's invoice, once however many of its AWBs are sent.",
          body: BulkInvoicesBody,
          response: {
            200: { description: 'The invoices: one A4 PDF.', content: { 'application/pdf': { schema: PdfBody } } },
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const bytes = await invoices.bulkPdf(request.accountId, request.body.awbs);
        return reply
          .type('application/pdf')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `inline; filename="invoices-${request.body.awbs.length}.pdf"`)
          .send(bytes);
      },
    );
  };
}
