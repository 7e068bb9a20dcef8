import { errorCodes } from '../../domain/errors.js';

export const RETURN_REQUEST_ERRORS = errorCodes({
  return_request_refused: [
    'unprocessable',
    "The store's return policy or the order refuses the request: `details` names each field at fault in the buyer's words (the order not delivered, the window closed, an item not returnable, more units than delivered or already asked for, an item already under review, a reason the store does not offer).",
  ],
  return_request_decided: [
    'conflict',
    'The return request is already approved, rejected or withdrawn: a request is decided once.',
  ],
  return_request_unbookable: [
    'unprocessable',
    "The request's return could not be booked (the pickup address a courier cannot serve, a return the shipment already has, …): `details` says why; the request stays pending.",
  ],
  return_policy_invalid: [
    'invalid',
    "A return policy's parts that hold only together: an auto rule that rejects needs the words the buyer is told (`message`).",
  ],
  return_request_not_found: ['not_found', 'No return request of this account has this id.'],
  return_request_photo_not_found: ['not_found', 'The return request has no photo at this position.'],
  return_request_shipment_not_found: ['not_found', 'No shipment of this account has this id.'],
});
