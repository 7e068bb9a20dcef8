import type { BookingRequest, Instruction, ParcelAddress } from './connector.js';
import { record, rupees, text } from './courier-answers.js';

/** The bodies Ekart's API takes: a parcel to create and an instruction on a failed delivery. */

const DAY_MS = 86_400_000;
const IST_MS = 330 * 60_000;
const whole = (value: number) => Math.max(1, Math.ceil(value));

function location(address: ParcelAddress) {
  return {
    name: address.name,
    address: address.address,
    city: address.city,
    state: address.state,
    country: 'India',
    phone: Number(address.phone.slice(-10)),
    pin: Number(address.pincode),
  };
}

/**
 * The create body. Ekart names the seller's warehouse `pickup_location` on both journeys and the
 * customer `drop_location`, a reverse parcel being told by payment_mode Pickup. GST fields Dakiya
 * does not hold go as zero and empty, as for a seller below the GST threshold.
 */
export function ekartShipment(request: BookingRequest) {
  const reverse = request.journey === 'return';
  const customer = request.consignee;
  const seller = request.pickup;
  const total = rupees(request.totalPaise);
  return {
    seller_name: seller.name,
    seller_address: seller.address,
    seller_gst_tin: '',
    consignee_gst_amount: 0,
    order_number: request.reference,
    invoice_number: request.merchantOrderId,
    invoice_date: request.orderDate.toISOString().slice(0, 10),
    consignee_name: customer.name,
    // The buyer's other phone when they gave one (the address form), else the one phone again.
    consignee_alternate_phone: (customer.alternatePhone ?? customer.phone).slice(-10),
    payment_mode: reverse ? 'Pickup' : request.paymentMethod === 'cod' ? 'COD' : 'Prepaid',
    category_of_goods: 'General',
    products_desc: request.productsDescription,
    total_amount: total,
    tax_value: 0,
    taxable_amount: total,
    commodity_value: total.toFixed(2),
    cod_amount: !reverse && request.paymentMethod === 'cod' ? rupees(request.codPaise) : 0,
    quantity: Math.max(1, request.quantity),
    weight: whole(request.weightGrams),
    length: whole(request.lengthCm),
    width: whole(request.breadthCm),
    height: whole(request.heightCm),
    return_reason: reverse ? 'Customer return' : '',
    // Ekart_API.yaml's `ewbn`: "E-Way Bill Number (12 digits)", optional.
    ...(request.ewayBillNumber && { ewbn: request.ewayBillNumber }),
    drop_location: location(customer),
    pickup_location: { ...location(seller), name: seller.locationName },
    return_location: { ...location(seller), name: seller.locationName },
  };
}

/**
 * A warehouse registered as a pickup and return address (POST /api/v2/address, Ekart_API.yaml's
 * `location`), under the alias creates name it by: the warehouse's name, as Dakiya sends it in
 * `pickup_location.name`. Phone and pincode are numbers, as Ekart takes them.
 */
export function ekartAddress(warehouse: ParcelAddress & { locationName: string }) {
  return {
    alias: warehouse.locationName,
    phone: Number(warehouse.phone.slice(-10)),
    address_line1: warehouse.address,
    address_line2: '',
    pincode: Number(warehouse.pincode),
    city: warehouse.city,
    state: warehouse.state,
    country: 'India',
  };
}

/**
 * A reattempt needs a date within Ekart's next seven days: the merchant's, else the day after the
 * instruction (midnight India time, in milliseconds as Ekart takes it).
 */
export function ekartNdrAction(awb: string, instruction: Instruction) {
  if (instruction.action === 'rto') return { action: 'RTO', wbn: awb };
  const p = instruction.payload;
  const corrected = record(p.updated_address);
  const address = [text(corrected?.address_line), text(corrected?.landmark)].filter(Boolean).join(', ') || undefined;
  const asked =
    typeof p.reattempt_date === 'string' ? Date.parse(`${p.reattempt_date.slice(0, 10)}T00:00:00+05:30`) : Number.NaN;
  const nextDay = Math.floor((instruction.at.getTime() + IST_MS) / DAY_MS) * DAY_MS + DAY_MS - IST_MS;
  return {
    action: 'Re-Attempt',
    wbn: awb,
    date: Number.isFinite(asked) ? asked : nextDay,
    ...(typeof p.updated_phone_number === 'string' && { phone: p.updated_phone_number.slice(-10) }),
    // The NDR route keeps the corrected street address and landmark apart; Ekart takes one line.
    ...(address && { address }),
    ...(typeof p.comments === 'string' && { instructions: p.comments }),
  };
}
