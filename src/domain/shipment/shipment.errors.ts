import { errorCodes } from '../errors.js';

/** Refusals about a shipment that any module acting on, reading or answering for one gives: the same code wherever. */
export const SHIPMENT_ERRORS = errorCodes({
  shipment_not_found: ['not_found', 'No shipment (or return) of the account has this id or AWB.'],
  awb_not_found: ['not_found', 'No shipment of the account has this AWB.'],
  tracking_link_not_found: ['not_found', "The tracking link's token names no shipment (or none with an AWB yet)."],
  shipment_past_pickup: ['conflict', 'The parcel was already picked up: this is allowed only before pickup.'],
  shipment_held: [
    'conflict',
    'The shipment is held (an operator keeps it back while its data is checked): it must not be packed or picked up until released.',
  ],
});
