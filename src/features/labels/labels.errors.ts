import { errorCodes } from '../../domain/errors.js';

export const LABEL_ERRORS = errorCodes({
  label_void: ['gone', 'The shipment was cancelled: its label is void and must not be printed.'],
  label_not_ready: ['not_found', 'The shipment has no label yet: no courier has given it an AWB.'],
  label_not_found: ['not_found', 'No label could be drawn for this shipment.'],
  label_superseded: [
    'gone',
    "The label was re-issued after this link was made: the link's label must not be printed; fetch the new one.",
  ],
  label_link_invalid: ['forbidden', 'The label link is not valid (its signature does not match).'],
  label_link_expired: ['gone', 'The label link has expired: fetch a new one.'],
  bulk_labels_refused: [
    'unprocessable',
    "An AWB of the print run is not the account's, or its label is void; `details` names each, and no PDF is made.",
  ],
  return_label_not_reissuable: [
    'unprocessable',
    "A return's label cannot be re-issued: fetch it again with GET /shipments/{id}/label.",
  ],
});
