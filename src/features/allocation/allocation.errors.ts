import { errorCodes } from '../../domain/errors.js';

export const ALLOCATION_ERRORS = errorCodes({
  allocation_rule_not_found: ['not_found', 'No allocation rule of the account has this id.'],
});
