import { errorCodes } from '../../domain/errors.js';

export const INVOICE_ERRORS = errorCodes({
  invoice_details_missing: [
    'unprocessable',
    "The shipment's store has no invoice details (or the shipment has no store): set the seller's legal name, GSTIN, " +
      'address and invoice prefix with PUT /client-stores/{id}/invoice-details; bookings after that are invoiced.',
  ],
  invoice_not_numbered: [
    'conflict',
    'The shipment has no invoice number: it has no courier booked yet, or was booked before its store had invoice details.',
  ],
  bulk_invoices_refused: [
    'unprocessable',
    "An AWB of the print run is not the account's, or its shipment cannot be invoiced; `details` names each and why, and no PDF is made.",
  ],
  invoice_gstin_other_state: [
    'unprocessable',
    "The store's GSTIN is registered in another State than the warehouse the parcel leaves from, and that warehouse has no " +
      'GSTIN of its own State (gst_no): a supply is invoiced under the registration of the State it leaves.',
  ],
});
