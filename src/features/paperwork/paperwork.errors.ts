import { errorCodes } from '../../domain/errors.js';

/** E-way bill generation through a GST Suvidha Provider (docs/paperwork.md, "Generation through a GSP"). */
export const PAPERWORK_ERRORS = errorCodes({
  eway_bill_gateway_invalid: [
    'invalid',
    "The e-way bill gateway's settings are incomplete or malformed: each field named (base_url, gstin, email, client_id, client_secret, username, password).",
  ],
  eway_bill_gateway_missing: [
    'unprocessable',
    'The account has no e-way bill gateway: set its GSP credentials with PUT /paperwork-settings/eway-bill-gateway first.',
  ],
  eway_bill_not_needed: [
    'unprocessable',
    "The order's value does not exceed the e-way bill limit that applies to it (rule 138): no bill is generated for it.",
  ],
  eway_bill_exists: ['conflict', 'The order already has an e-way bill number.'],
  eway_bill_order_incomplete: [
    'unprocessable',
    'The order lacks what Part A needs or has it in a form the e-way bill API refuses (a document number over 16 characters, an item without an HSN code of 4 digits or more, a State without a GST code, a GSTIN of another State than the warehouse): each field named.',
  ],
  eway_bill_refused: [
    'unprocessable',
    "The e-way bill portal refused the request: each field it named, with the portal's error code and words.",
  ],
  eway_bill_duplicate: [
    'conflict',
    'The portal already has an e-way bill for this document number (its error 604): put that number on the order with PUT /order.',
  ],
  eway_bill_gateway_auth_failed: [
    'upstream_failed',
    "The GSP or the portal refused the account's credentials (client id or secret, e-way bill user, GSTIN not registered with the GSP): the portal's code is in the message; correct them with PUT /paperwork-settings/eway-bill-gateway.",
  ],
  eway_bill_gateway_unreadable: [
    'upstream_failed',
    'The GSP answered in a form Dakiya cannot read: nothing was stored; look for a bill of the document on the portal before trying again.',
  ],
  eway_bill_gateway_unavailable: [
    'unavailable',
    'The GSP or the e-way bill portal could not be reached, timed out or reported a fault of its own: nothing was stored; try again later.',
  ],
});
