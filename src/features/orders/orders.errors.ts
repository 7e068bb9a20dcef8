import { errorCodes } from '../../domain/errors.js';

export const ORDER_ERRORS = errorCodes({
  order_not_found: ['not_found', 'No order of the account has this order_id.'],
  order_id_taken: ['unprocessable', 'The account already has an order with this order_id.'],
  order_not_updatable: [
    'unprocessable',
    "The order's shipment has moved on (picked up or further): it can no longer be updated, except its delivery address and phone while a failed delivery waits.",
  ],
  order_change_refused: [
    'unprocessable',
    'A field the update changes cannot change at this stage (after an AWB or pickup), or the delivery correction a failed delivery allows is refused (no reattempt left); `details` names each.',
  ],
  carrier_id_not_accepted: [
    'invalid',
    'carrier_id is taken by the booking routes (forward-order-shipment, forward-order-orchestration), not here.',
  ],
  shipment_to_book_not_found: ['unprocessable', 'The shipment_id to book names no shipment of the account.'],
  courier_already_assigned: ['unprocessable', 'A courier (and AWB) is already assigned to this shipment.'],
  shipment_not_pending: ['unprocessable', 'Only a pending shipment (not cancelled, not moving) can be booked.'],
  shipment_already_prepaid: ['conflict', 'The shipment is not COD: it is already prepaid.'],
  awb_mismatch: [
    'unprocessable',
    'shipment_awb is not the AWB of the shipment shipment_id names: send the pair as booked, or shipment_id alone.',
  ],
  eway_bill_required: [
    'unprocessable',
    "The order's value needs an e-way bill (rule 138 of the CGST Rules: over ₹50,000, or the State's own limit within it) and ewaybill_no is not sent; the message gives the value and the limit. An account may warn instead (PUT /paperwork-settings).",
  ],
  address_update_refused: [
    'invalid',
    "The buyer's address correction breaks a rule; `details` names each field with its problem.",
  ],
});
