import { errorCodes } from '../errors.js';

/** Refusals of choosing a courier for a parcel, forward or return: the same codes wherever one is booked. */
export const COURIER_CHOICE_ERRORS = errorCodes({
  no_courier_serves: [
    'unprocessable',
    'No courier service can carry this parcel: its pincodes, weight or payment method are served by none.',
  ],
  courier_service_unknown: ['unprocessable', 'carrier_id names no known courier service.'],
  courier_cannot_carry: [
    'unprocessable',
    'The courier service carrier_id names cannot carry this parcel (its lane, weight, payment method or QC); the message says why.',
  ],
});
