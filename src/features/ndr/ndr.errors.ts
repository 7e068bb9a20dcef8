import { errorCodes } from '../../domain/errors.js';

export const NDR_ERRORS = errorCodes({
  ndr_action_not_allowed: [
    'unprocessable',
    "The shipment's state or its attempts refuse this NDR action (a reattempt, an address correction or an RTO); the message says why.",
  ],
  ndr_not_for_returns: ['unprocessable', 'The AWB is a return: NDR actions apply to forward shipments only.'],
  shipment_has_no_courier: ['unprocessable', 'The shipment has no courier booked to pass the NDR action to.'],
  ndr_action_not_found: ['not_found', 'No open NDR action of this courier has this id.'],
});
