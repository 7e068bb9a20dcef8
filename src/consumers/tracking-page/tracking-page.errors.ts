import { errorCodes } from '../../domain/errors.js';

export const TRACKING_PAGE_ERRORS = errorCodes({
  page_font_not_found: ['not_found', 'The tracking page serves no font of this name.'],
});
