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
  account_deletion_owner_only: [
    'forbidden',
    "Only the account's owner (its own login, an owner member, a key made without scopes) may delete the account or take the request back.",
  ],
  account_name_mismatch: ['invalid', "confirm_account_name is not the account's name: nothing was scheduled."],
  account_deletion_not_requested: ['not_found', 'The account has no deletion pending.'],
});
