import { errorCodes } from '../errors.js';

/** Refusals about a shipment that any module reading or answering for one may give. */
export const SHIPMENT_ERRORS = errorCodes({
  shipment_not_found: ['not_found', 'No shipment of the account has this id or AWB.'],
  tracking_link_not_found: ['not_found', "The tracking link's token names no shipment (or none with an AWB yet)."],
});
