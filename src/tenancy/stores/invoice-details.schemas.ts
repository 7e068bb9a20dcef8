import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Name, Text, Uuid } from '../../http/schemas.js';
import { GSTIN_FORM } from '../../domain/paperwork/gstin.js';
import { INVOICE_PREFIX_MAX, INVOICE_PREFIX_PATTERN } from '../../domain/paperwork/invoice-number.js';

// The seller's particulars a store's buyers' tax invoices carry (docs/paperwork.md, "The buyer's
// tax invoice"): PUT and GET /client-stores/:id/invoice-details.

export const INVOICE_DETAILS_EXAMPLE = {
  legal_name: 'Acme Apparel Private Limited',
  gstin: '07AAGCB7383J1ZA',
  address: 'Plot 14, Okhla Industrial Estate Phase 3, New Delhi, Delhi 110020',
  invoice_prefix: 'ACME',
};

export const InvoiceDetailsInput = Type.Object(
  {
    legal_name: Name(200, "The seller's legal name, as registered for GST (rule 46(a))."),
    gstin: Type.String({
      pattern: GSTIN_FORM,
      'x-error': 'must be a 15-character GSTIN such as 07AAGCB7383J1ZA',
      description:
        "The seller's GSTIN (upper-cased). Its state code must be a GST state's and its last character the check " +
        'character of the first 14 (docs/paperwork.md), else 400. The State it names is where invoices are issued from: ' +
        "a parcel leaving a warehouse in another State is invoiced under that warehouse's own GSTIN (gst_no) if it has one.",
      examples: ['07AAGCB7383J1ZA'],
    }),
    address: Text(500, "The seller's registered address, printed on its invoices."),
    invoice_prefix: Type.String({
      pattern: INVOICE_PREFIX_PATTERN,
      'x-error': `must be 1 to ${INVOICE_PREFIX_MAX} letters or digits, with - or / between them (an invoice number is at most 16 characters)`,
      description:
        `Starts the store's invoice numbers, \`<prefix>/<YY-YY>/<sequence>\` ("ACME/25-26/00123"): 1 to ${INVOICE_PREFIX_MAX} ` +
        'letters or digits, with - or / between them, so that a number stays within the 16 characters rule 46(b) allows. ' +
        'The sequence runs from 1 each financial year (1 April, India time), one series per store; a new prefix continues it.',
      examples: ['ACME'],
    }),
  },
  { additionalProperties: false, examples: [INVOICE_DETAILS_EXAMPLE] },
);

export interface InvoiceDetailsBody {
  legal_name: string;
  gstin: string;
  address: string;
  invoice_prefix: string;
}

const nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const InvoiceDetailsView = Type.Object({
  store_id: Uuid,
  legal_name: nullable('null until set: a store without invoice details numbers no invoices.'),
  gstin: nullable('Upper case.'),
  state: nullable('The State or Union Territory the GSTIN is registered in (its first two digits).'),
  address: nullable("The seller's registered address."),
  invoice_prefix: nullable('Starts the invoice numbers.'),
});

export const INVOICE_DETAILS_VIEW_EXAMPLE = {
  store_id: EXAMPLE.storeId,
  ...INVOICE_DETAILS_EXAMPLE,
  state: 'Delhi',
};
