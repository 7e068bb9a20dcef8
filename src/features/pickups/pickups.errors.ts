import { errorCodes } from '../../domain/errors.js';

export const PICKUP_ERRORS = errorCodes({
  pickup_not_found: ['not_found', 'No pickup of the account has this id.'],
  pickup_request_invalid: [
    'unprocessable',
    "The pickup's warehouse, courier or date is refused (unknown, or a date outside the days a pickup can be asked for); `details` names each.",
  ],
  pickup_parcels_refused: [
    'unprocessable',
    'An AWB of the pickup is unknown, or not a parcel of this warehouse and courier waiting for a pickup; `details` names each.',
  ],
  no_parcel_waiting: ['unprocessable', 'No parcel of the warehouse booked with the courier is waiting for a pickup.'],
  pickup_parcels_taken: [
    'conflict',
    'Some parcels went on another pickup or were picked up while this one was asked for: ask again.',
  ],
});
