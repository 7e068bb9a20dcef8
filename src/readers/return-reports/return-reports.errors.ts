import { errorCodes } from '../../domain/errors.js';

export const RETURN_REPORT_ERRORS = errorCodes({
  return_report_range_invalid: [
    'invalid',
    "The return report's from and to are not calendar dates (YYYY-MM-DD), or to is before from.",
  ],
});
