import { normalizeIndianPhone } from '../../../src/domain/geo/phone';
import type { FieldError } from '../api/client';
import { typedNumber } from '../form-words';

// The order form's own words for the API's fields, and the checks it makes before sending anything,
// so that every field at fault is named at once, beside it (the API checks some fields only once
// the others are right: the phone and pincode after the names and items).

const LABELS: Record<string, string> = {
  order_id: 'Order id',
  order_date: 'Order date',
  store_name: 'Store',
  warehouse_id: 'Pick up from',
  ewaybill_no: 'E-way bill number',
  ewaybill_date: 'E-way bill date',
  billing_customer_name: 'First name',
  billing_last_name: 'Last name',
  billing_phone: 'Phone',
  billing_email: 'E-mail',
  billing_address: 'Address',
  billing_pincode: 'Pincode',
  billing_city: 'City',
  billing_state: 'State',
  sub_total: 'Order value',
  cod_collectible: 'Order value',
  weight: 'Weight (kg)',
  length: 'Length (cm)',
  breadth: 'Breadth (cm)',
  height: 'Height (cm)',
  carrier_id: 'Courier',
  // The rate quote's names for the same things.
  origin_pincode: 'Pick up from',
  destination_pincode: 'Pincode',
  dead_weight: 'Weight',
  width: 'Breadth (cm)',
  shipment_value: 'Order value',
};
const ITEM_LABELS: Record<string, string> = { name: 'name', sku: 'SKU', units: 'units', selling_price: 'price (₹)' };

/** The label of the form field the API's `field` is (order_items.0.selling_price → "Item 1 price (₹)"). */
export function orderLabel(field: string): string | undefined {
  const item = /^order_items\.(\d+)\.(\w+)/.exec(field);
  if (item) return ITEM_LABELS[item[2]!] && `Item ${Number(item[1]) + 1} ${ITEM_LABELS[item[2]!]}`;
  return LABELS[field];
}

/** Which form field shows a quote's refusal of its own field. */
export const QUOTE_FIELD: Record<string, string> = {
  origin_pincode: 'warehouse_id',
  destination_pincode: 'billing_pincode',
  dead_weight: 'weight',
  width: 'breadth',
};

export interface ItemDraft {
  name: string;
  sku: string;
  units: string;
  price: string;
}

export interface OrderDraft {
  orderId: string;
  firstName: string;
  phone: string;
  email: string;
  address: string;
  pincode: string;
  city: string;
  state: string;
  items: ItemDraft[];
  weight: string;
  length: string;
  breadth: string;
  height: string;
}

const positive = (value: string) => typedNumber(value) > 0;

/** What a rate quote needs right: the pincode, the package, and the item prices a COD quote is priced on. */
export function quoteProblems(d: OrderDraft, cod: boolean): FieldError[] {
  const problems: FieldError[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  if (!/^[1-9]\d{5}$/.test(d.pincode.trim()))
    say('billing_pincode', 'Pincode must be the 6 digits of an Indian pincode');
  if (!positive(d.weight)) say('weight', 'Weight (kg) must be a number above 0, e.g. 0.5');
  for (const [field, value, label] of [
    ['length', d.length, 'Length (cm)'],
    ['breadth', d.breadth, 'Breadth (cm)'],
    ['height', d.height, 'Height (cm)'],
  ] as const)
    if (!positive(value)) say(field, `${label} must be a number above 0`);
  if (cod) for (const [i, item] of d.items.entries()) priceProblem(item, i, say);
  return problems;
}

function priceProblem(item: ItemDraft, i: number, say: (field: string, message: string) => void) {
  const price = typedNumber(item.price);
  if (item.price.trim() === '') say(`order_items.${i}.selling_price`, `Item ${i + 1} price (₹) is needed`);
  else if (!(price >= 0)) say(`order_items.${i}.selling_price`, `Item ${i + 1} price (₹) must be a number in rupees`);
}

/** Every problem of the order the form can see itself, each named by its field's label. */
export function orderProblems(d: OrderDraft): FieldError[] {
  const problems: FieldError[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  const required = (field: string, value: string, what: string) => {
    if (value.trim() === '') say(field, `${LABELS[field]} is needed: ${what}`);
  };
  required('order_id', d.orderId, "your store's order number");
  required('billing_customer_name', d.firstName, "the buyer's first name");
  if (d.phone.trim() === '') say('billing_phone', "Phone is needed: the buyer's phone, which the courier calls");
  else if (!normalizeIndianPhone(d.phone.trim()))
    say('billing_phone', 'Phone must be a 10-digit Indian phone number, e.g. 98765 43210');
  if (d.email.trim() !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(d.email.trim()))
    say('billing_email', 'E-mail must be an e-mail address, e.g. priya@example.com');
  required('billing_address', d.address, 'house, street and area');
  problems.push(...quoteProblems(d, false).filter((p) => p.field === 'billing_pincode'));
  required('billing_city', d.city, 'filled in from the pincode');
  required('billing_state', d.state, 'filled in from the pincode');
  d.items.forEach((item, i) => {
    if (item.name.trim() === '') say(`order_items.${i}.name`, `Item ${i + 1} name is needed`);
    if (item.sku.trim() === '') say(`order_items.${i}.sku`, `Item ${i + 1} SKU is needed`);
    if (!/^[1-9]\d*$/.test(item.units.trim()))
      say(`order_items.${i}.units`, `Item ${i + 1} units must be a whole number from 1`);
    priceProblem(item, i, say);
  });
  problems.push(...quoteProblems(d, false).filter((p) => p.field !== 'billing_pincode'));
  return problems;
}
