import { errorCodes } from '../../domain/errors.js';

export const REFUND_ERRORS = errorCodes({
  refund_not_found: ['not_found', 'No refund of this account has this id.'],
  refund_not_due: [
    'conflict',
    "The refund has not fallen due by the store's release rule (`released_at` is null): the return is not yet picked up, at the warehouse or through QC, as the store's policy says.",
  ],
  refund_payee_unreadable: [
    'conflict',
    "The buyer's payee details were sealed under a key this server no longer has (SECRETS_KEY changed since): ask the buyer for them again, or restore the key. The refund's masked payee still names the method.",
  ],
  refund_state: [
    'conflict',
    "The refund's state does not take this step: initiate a pending or failed refund, complete a pending or initiated one, fail an initiated one; a completed refund is final.",
  ],
});
