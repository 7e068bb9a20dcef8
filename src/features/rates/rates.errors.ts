import { errorCodes } from '../../domain/errors.js';

export const RATE_ERRORS = errorCodes({
  pincode_not_found: ['not_found', 'The pincode is not in the pincode directory.'],
});
