import { errorCodes } from '../../domain/errors.js';

export const PRIVACY_ERRORS = errorCodes({
  buyer_not_found: [
    'not_found',
    'No order, return or return request of the account names this phone, e-mail or order id: nothing to erase.',
  ],
  buyer_parcels_on_the_way: [
    'conflict',
    "Some of the buyer's parcels are on their way or not yet shipped, and need the address; `details` names each AWB (or shipment_id). Erase once they are delivered, returned or cancelled.",
  ],
});
