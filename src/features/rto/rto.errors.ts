import { errorCodes } from '../../domain/errors.js';

export const RTO_ERRORS = errorCodes({
  rto_thresholds_invalid: [
    'unprocessable',
    'The RTO risk thresholds do not fit together (medium below high, a positive high-value COD amount); `details` names each.',
  ],
  ndr_rules_invalid: ['unprocessable', 'An NDR automation rule breaks a rule; `details` names each.'],
});
