import { errorCodes } from '../../domain/errors.js';

export const COD_REPORT_ERRORS = errorCodes({
  cod_export_too_large: ['unprocessable', 'More rows match than one export holds: narrow the dates or add a filter.'],
});
