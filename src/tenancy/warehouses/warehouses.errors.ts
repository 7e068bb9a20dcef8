import { errorCodes } from '../../domain/errors.js';

export const WAREHOUSE_ERRORS = errorCodes({
  warehouse_not_found: ['not_found', 'No warehouse of this account has this id.'],
  order_warehouse_unknown: [
    'unprocessable',
    "An order's warehouse_id names no warehouse of the account: create it first.",
  ],
  pickup_location_unknown: ['unprocessable', "An order's pickup_location names no warehouse of the account."],
  pickup_location_ambiguous: [
    'unprocessable',
    "An order's pickup_location names more than one warehouse of the account: send warehouse_id.",
  ],
});
