import { errorCodes } from '../../domain/errors.js';

export const SHIPMENT_LISTING_ERRORS = errorCodes({
  paging_forms_differ: ['invalid', 'Two forms of one paging value (page[number] and page, say) disagree.'],
  filter_range_inverted: [
    'invalid',
    "A filter's lower bound is above its upper bound (applied_weight_min, attempts_count__gte).",
  ],
});
