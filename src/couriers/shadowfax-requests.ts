import type { BookingRequest, Instruction, ParcelAddress, ParcelItem } from './connector.js';
import { rupees } from './courier-answers.js';

/** The bodies Shadowfax's API takes: a forward order, a reverse pickup, a re-attempt. */

const DAY_MS = 86_400_000;
const IST_MS = 330 * 60_000;

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
 * A forward order. Shadowfax's "warehouse" order type: one seller shipping from its own
 * warehouses, whose address goes as pickup_details and (for the way back) rto_details. Weight in
 * grams; amounts in rupees.
 */
export function shadowfaxForwardOrder(request: BookingRequest) {
  const cod = request.paymentMethod === 'cod';
  const warehouse = { ...party(request.pickup), unique_code: request.pickup.locationName };
  return {
    order_type: 'warehouse',
    order_details: {
      client_order_id: request.reference,
      actual_weight: Math.max(1, Math.ceil(request.weightGrams)),
      volumetric_weight: Math.max(1, Math.ceil((request.lengthCm * request.breadthCm * request.heightCm) / 5)),
      product_value: rupees(request.totalPaise),
      payment_mode: cod ? 'COD' : 'Prepaid',
      cod_amount: cod ? rupees(request.codPaise) : 0,
      total_amount: rupees(request.totalPaise),
    },
    customer_details: party(request.consignee),
    pickup_details: warehouse,
    rto_details: warehouse,
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
 * A reattempt on the merchant's date, else the day after the instruction (India time), with the
 * new phone and address when given.
 */
export function shadowfaxReattempt(awb: string, instruction: Instruction) {
  const p = instruction.payload;
  const asked = typeof p.reattempt_date === 'string' ? p.reattempt_date.slice(0, 10) : undefined;
  const nextDay = new Date(Math.floor((instruction.at.getTime() + IST_MS) / DAY_MS) * DAY_MS + DAY_MS)
    .toISOString()
    .slice(0, 10);
  const phone = typeof p.updated_phone_number === 'string' ? p.updated_phone_number.slice(-10) : undefined;
  const address = typeof p.updated_address === 'string' ? p.updated_address : undefined;
  return {
    awb_number: awb,
    request_type: 're-attempt',
    next_attempt_date: asked ?? nextDay,
    ...((phone || address) && {
      delivery_details: { ...(phone && { contact: phone }), ...(address && { address_line_1: address }) },
    }),
    ...(typeof p.comments === 'string' && { remarks: p.comments }),
  };
}
