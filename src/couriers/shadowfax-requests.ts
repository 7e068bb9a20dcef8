import {
  type BookingRequest,
  courierRefused,
  type Instruction,
  type ParcelAddress,
  type ParcelItem,
} from './connector.js';
import { record, rupees, text } from './courier-answers.js';
import type { ShadowfaxOrderType } from './couriers.settings.js';

/** The bodies Shadowfax's API takes: a forward order, a reverse pickup, a re-attempt. */

function party(address: ParcelAddress) {
  return {
    name: address.name,
    contact: address.phone.slice(-10),
    address_line_1: address.address,
    city: address.city,
    state: address.state,
    pincode: Number(address.pincode),
  };
}

/**
 * A forward order of the account's order type, the warehouse's address as pickup_details and, for
 * the way back, as `rto_details` (warehouse: a return to origin) or `rts_details` (marketplace: a
 * return to seller), as a transport written from Shadowfax's blueprint requires (index id
 * 60839310414) and its documentation's marketplace example shows (index id 54543910210). Weight in
 * grams; amounts in rupees.
 */
export function shadowfaxForwardOrder(request: BookingRequest, orderType: ShadowfaxOrderType = 'warehouse') {
  const cod = request.paymentMethod === 'cod';
  const warehouse = { ...party(request.pickup), unique_code: request.pickup.locationName };
  return {
    order_type: orderType,
    order_details: {
      client_order_id: request.reference,
      actual_weight: Math.max(1, Math.ceil(request.weightGrams)),
      volumetric_weight: Math.max(1, Math.ceil((request.lengthCm * request.breadthCm * request.heightCm) / 5)),
      product_value: rupees(request.totalPaise),
      payment_mode: cod ? 'COD' : 'Prepaid',
      cod_amount: cod ? rupees(request.codPaise) : 0,
      total_amount: rupees(request.totalPaise),
      // The e-way bill number as `order_details.eway_bill`, a string of at most 12 characters: Shadowfax's
      // documentation (index id 54543910210) and a client booking on this path (index id 53908546514).
      ...(request.ewayBillNumber && { eway_bill: request.ewayBillNumber }),
    },
    customer_details: party(request.consignee),
    pickup_details: warehouse,
    ...(orderType === 'marketplace' ? { rts_details: warehouse } : { rto_details: warehouse }),
    product_details: [
      {
        sku_name: request.productsDescription,
        price: rupees(request.totalPaise),
        invoice_no: request.merchantOrderId,
        additional_details: { quantity: Math.max(1, request.quantity) },
      },
    ],
  };
}

/** The questions Shadowfax's rider answers at the door for an item with QC; each must pass. */
function qcRules(qc: NonNullable<ParcelItem['qc']>) {
  const rules = [{ question: 'Does the product match the image?', value: qc.imageUrl, is_mandatory: true }];
  if (qc.productName)
    rules.push({ question: 'Is the product the one named?', value: qc.productName, is_mandatory: true });
  if (qc.brand) rules.push({ question: 'Is the brand the one named?', value: qc.brand, is_mandatory: true });
  if (qc.size) rules.push({ question: 'Is the size the one named?', value: qc.size, is_mandatory: true });
  if (qc.color) rules.push({ question: 'Is the colour the one named?', value: qc.color, is_mandatory: true });
  return rules;
}

/**
 * A reverse pickup: collected from the customer (address_attributes), carried to the warehouse
 * (seller_attributes). An item with QC carries qc_required and the rules the rider checks; a return
 * booked without QC sends none.
 */
export function shadowfaxReversePickup(request: BookingRequest) {
  const customer = request.consignee;
  const warehouse = request.pickup;
  const items = request.items?.length
    ? request.items
    : [
        {
          name: request.productsDescription,
          sku: request.reference,
          units: request.quantity,
          pricePaise: request.totalPaise,
          qc: null,
        },
      ];
  return {
    client_order_number: request.reference,
    total_amount: rupees(request.totalPaise),
    price: rupees(request.totalPaise),
    address_attributes: {
      name: customer.name,
      phone_number: customer.phone.slice(-10),
      address_line: customer.address,
      city: customer.city,
      state: customer.state,
      country: 'India',
      pincode: Number(customer.pincode),
    },
    seller_attributes: {
      name: warehouse.locationName,
      phone: warehouse.phone.slice(-10),
      address_line: warehouse.address,
      city: warehouse.city,
      state: warehouse.state,
      pincode: Number(warehouse.pincode),
    },
    skus_attributes: items.map((item) => ({
      name: item.name,
      client_sku_id: item.sku,
      price: rupees(item.pricePaise),
      quantity: Math.max(1, item.units),
      return_reason: 'Customer return',
      qc_required: item.qc !== null,
      ...(item.qc && { image_url: item.qc.imageUrl, qc_rules: qcRules(item.qc) }),
    })),
  };
}

/**
 * A re-attempt, as Shadowfax documents `order_update` (index id 54543910210) and an aggregator sends
 * it (index id 17374548919): the status forced to `reopen_ndr`, with the `delivery_details` that
 * changed, the new phone as `contact` and the corrected address (the NDR route's `address_line`
 * and `landmark`, one line) as `customer_address`. The pincode cannot change on a reattempt, so it
 * is never sent. The API has no field for a date or for the agent's comments: Shadowfax re-attempts
 * on its next run (docs/couriers.md). A landmark without its street cannot be one line Shadowfax
 * would replace the address with: refused in words rather than sent wrong.
 */
export function shadowfaxReattempt(awb: string, instruction: Instruction) {
  const p = instruction.payload;
  const phone = text(p.updated_phone_number)?.replace(/\D/g, '').slice(-10);
  const corrected = record(p.updated_address);
  const line = text(p.updated_address) ?? text(corrected?.address_line);
  const landmark = text(corrected?.landmark);
  if (landmark && !line) {
    throw courierRefused(
      'Shadowfax',
      'it takes a corrected address as one whole line (customer_address): a landmark alone would replace the address; send the street address with it',
      'updated_address',
    );
  }
  const address = [line, landmark].filter(Boolean).join(', ');
  return {
    awb_number: awb,
    status_update: { status: 'reopen_ndr' },
    ...((phone || address) && {
      delivery_details: { ...(address && { customer_address: address }), ...(phone && { contact: phone }) },
    }),
  };
}

/** A forward order's cancellation (a return to origin once picked up), and a reverse request's. */
export const shadowfaxCancel = (awb: string, remarks: string) => ({ request_id: awb, cancel_remarks: remarks });

/**
 * A reverse request's cancellation at `mark_cancel` (index ids 56079360066, 46763779103), with
 * the remark its documentation allows for a return the customer no longer sends (index id
 * 56717327499).
 */
export const shadowfaxReverseCancel = (awb: string) => ({ request_id: awb, cancel_remarks: 'Cancelled By Customer' });
