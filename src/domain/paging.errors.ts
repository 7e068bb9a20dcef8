import { errorCodes } from './errors.js';

export const PAGING_ERRORS = errorCodes({
  cursor_unknown: [
    'invalid',
    'A paging cursor (cursor, after, before) that is not one this listing answered, or names a row that is not yours.',
  ],
});

/** A cursor the listing did not answer, named by its field (cursor, after, before). */
export const cursorUnknown = (message: string, field: string) => PAGING_ERRORS.cursor_unknown.error(message, field);
