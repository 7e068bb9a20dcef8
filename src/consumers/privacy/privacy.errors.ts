import { errorCodes } from '../../domain/errors.js';

export const PRIVACY_ERRORS = errorCodes({
  buyer_not_found: [
    'not_found',
    'Nothing of the account names this phone, e-mail or order id (no order, return, return request, store order, or RTO history of the phone): nothing to erase.',
  ],
  buyer_parcels_on_the_way: [
    'conflict',
    "Some of the buyer's parcels are on their way or not yet shipped, and need the address; `details` names each AWB (or shipment_id). Erase once they are delivered, returned, cancelled or lost.",
  ],
  account_deletion_owner_only: [
    'forbidden',
    "Only the account's owner (its own login, an owner member, a key made without scopes) may delete the account or take the request back.",
  ],
  account_name_mismatch: ['invalid', "confirm_account_name is not the account's name: nothing was scheduled."],
  account_deletion_not_requested: ['not_found', 'The account has no deletion pending.'],
  account_export_owner_or_admin: [
    'forbidden',
    "Only the account's owner or an admin (a credential holding every permission) may export the account: the archive holds everything, buyers' details unmasked.",
  ],
  account_export_running: [
    'conflict',
    'An export of the account is already being written; the message names it. Follow it with GET /account/exports/{id}, then start another if needed.',
  ],
  account_export_not_found: ['not_found', 'No export of the account has this id, or it has expired and been deleted.'],
  export_not_ready: [
    'conflict',
    'The export has no archive to download: it is still being written (`status` running: wait and ask again) or it failed (start another).',
  ],
});
