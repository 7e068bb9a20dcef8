import { errorCodes } from '../../domain/errors.js';

export const RETURN_ERRORS = errorCodes({
  return_id_taken: ['unprocessable', 'The account already has a return with this order_id.'],
  return_not_found: ['unprocessable', 'The return_id to book names no return of the account.'],
  forward_shipment_not_found: [
    'unprocessable',
    'forward_awb or forward_order_id names no forward shipment of the account.',
  ],
  forward_shipment_not_delivered: ['unprocessable', 'Only a delivered forward shipment can be returned.'],
  forward_shipment_already_returned: ['unprocessable', 'The forward shipment already has a return.'],
  return_courier_already_assigned: ['unprocessable', 'A courier (and AWB) is already assigned to this return.'],
  return_cancelled: ['unprocessable', 'The return is cancelled: no courier can be booked for it.'],
  return_warehouse_mismatch: ['unprocessable', "warehouse_id is not the return's destination warehouse."],
});
