import { errorCodes } from '../domain/errors.js';

export const COURIER_ERRORS = errorCodes({
  courier_refused: [
    'unprocessable',
    'The courier answered and said no (an unserviceable pincode, a parcel already picked up); the message gives its words.',
  ],
  courier_unreachable: [
    'upstream_failed',
    'The courier could not be reached, timed out or answered nonsense; nothing was changed, try again.',
  ],
  courier_unavailable: [
    'unavailable',
    'The courier is limiting our requests or failed repeatedly just now; `Retry-After` says when to try again.',
  ],
  courier_credentials_rejected: [
    'upstream_failed',
    "The courier refused the server's or the account's credentials for its API; the operator (or the account) must set them again.",
  ],
  courier_credentials_unreadable: [
    'upstream_failed',
    "The account's stored credentials for a courier API cannot be read (sealed with another key): set them again.",
  ],
  courier_credentials_invalid: [
    'unprocessable',
    'Credentials for a courier API that lack a required field or hold one it does not take; `details` names each field.',
  ],
  courier_credentials_not_found: [
    'not_found',
    'The account has no credentials of its own stored for this courier API.',
  ],
  courier_api_unknown: ['not_found', 'No courier API of this name takes credentials.'],
  awb_series_exhausted: [
    'unprocessable',
    'The courier has no AWB numbers left in the series it allotted: choose another courier, or set a new series.',
  ],
  awb_taken: [
    'conflict',
    'The waybill a booking drew is already issued to another shipment or return; nothing was booked.',
  ],
});
