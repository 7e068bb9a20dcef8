import { errorCodes } from '../../domain/errors.js';

export const STORE_ERRORS = errorCodes({
  store_not_found: ['not_found', 'No store of this account has this id.'],
  store_name_taken: ['unprocessable', 'Another store of the account has this name (names compare in any case).'],
  store_name_reserved: [
    'unprocessable',
    'A deleted store of the account used this name, which stays reserved so its shipments keep their brand: restore that store, or choose another name.',
  ],
  store_logo_invalid: [
    'unprocessable',
    'The logo is not a PNG, JPEG, WebP or GIF image, is over 2 MiB, or its pixels cannot be read within the limits.',
  ],
  store_logo_not_found: ['not_found', 'The store has no public logo.'],
  order_store_unknown: ['unprocessable', "An order's store_name names no store of the account: create it first."],
  order_store_inactive: ['unprocessable', "An order's store_name names a store that is not connected."],
});
