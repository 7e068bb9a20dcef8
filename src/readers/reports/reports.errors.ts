import { errorCodes } from '../../domain/errors.js';

export const REPORT_ERRORS = errorCodes({
  report_range_invalid: [
    'invalid',
    "The report's start_date_time and end_date_time are not ISO 8601 date-times in order, or span more days than a report covers.",
  ],
});
