import { normalizeIndianPhone } from '../../../src/domain/geo/phone';
import { ApiError, type FieldError } from '../api/client';
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
  billing_gstin: "Buyer's GSTIN",
  sub_total: 'Order value',
  cod_collectible: 'Order value',
  weight: 'Weight (kg)',
  length: 'Length (cm)',
  breadth: 'Breadth (cm)',
  height: 'Height (cm)',
  carrier_id: 'Courier',
  packages: 'Boxes',
  // The rate quote's names for the same things.
  origin_pincode: 'Pick up from',
  destination_pincode: 'Pincode',
  dead_weight: 'Weight',
  width: 'Breadth (cm)',
  shipment_value: 'Order value',
};
const ITEM_LABELS: Record<string, string> = { name: 'name', sku: 'SKU', units: 'units', selling_price: 'price (₹)' };
const BOX_LABELS: Record<string, string> = {
  weight: 'weight (kg)',
  length: 'length (cm)',
  breadth: 'breadth (cm)',
  height: 'height (cm)',
  items: 'items',
};

/** The label of the form field the API's `field` is (order_items.0.selling_price → "Item 1 price (₹)"). */
export function orderLabel(field: string): string | undefined {
  const item = /^order_items\.(\d+)\.(\w+)/.exec(field);
  if (item) return ITEM_LABELS[item[2]!] && `Item ${Number(item[1]) + 1} ${ITEM_LABELS[item[2]!]}`;
  // A box's line is its input for that item (onBoxInputs has put the form's item number in its path).
  const line = /^packages\.(\d+)\.items\.(\d+)\.(?:units|sku)$/.exec(field);
  if (line) return boxUnitsLabel(Number(line[1]), Number(line[2]));
  const box = /^packages\.(\d+)\.(\w+)$/.exec(field);
  if (box) return BOX_LABELS[box[2]!] && `Box ${Number(box[1]) + 1} ${BOX_LABELS[box[2]!]}`;
  return LABELS[field];
}

/** The label of the input that says how many units of an item a box holds. */
export const boxUnitsLabel = (box: number, item: number) => `Box ${box + 1} units of item ${item + 1}`;

/** Which form field shows a quote's refusal of its own field. */
export const QUOTE_FIELD: Record<string, string> = {
  origin_pincode: 'warehouse_id',
  destination_pincode: 'billing_pincode',
  dead_weight: 'weight',
  width: 'breadth',
};

/** The rate quote names its own fields; its refusals show beside the form's fields they are about. */
export function quoteFieldsOnForm(byField: Record<string, string>): Record<string, string> {
  for (const [from, to] of Object.entries(QUOTE_FIELD)) if (byField[from]) byField[to] ??= byField[from];
  // A COD quote is priced on the order's value: the item prices make it.
  if (byField.shipment_value) byField['order_items.0.selling_price'] ??= byField.shipment_value;
  return byField;
}

export interface ItemDraft {
  name: string;
  sku: string;
  units: string;
  price: string;
}

/** A box of a multi-piece order as typed; `units[i]` is how many of item i it holds ('' or 0: none). */
export interface BoxDraft {
  weight: string;
  length: string;
  breadth: string;
  height: string;
  units: string[];
}

export const MAX_BOXES = 20;
export const emptyBox = (): BoxDraft => ({ weight: '', length: '', breadth: '', height: '', units: [] });

/** A box's units of item i as sent: none when left empty or 0. */
const unitsOf = (box: BoxDraft, i: number) => {
  const typed = (box.units[i] ?? '').trim();
  return typed === '' || Number(typed) === 0 ? undefined : typedNumber(typed);
};

/** The boxes' total weight in kg, to the gram (NaN while a box's weight is not a number). */
export const boxesWeight = (boxes: BoxDraft[]) =>
  Math.round(boxes.reduce((sum, b) => sum + typedNumber(b.weight), 0) * 1000) / 1000;

/**
 * The boxes as the API's `packages` (each box's lines, when `byItem`, for the items it holds), and
 * for each box which form item each line is: the API names a line by its place in the box.
 */
export function packagesOf(boxes: BoxDraft[], items: ItemDraft[], byItem: boolean) {
  const lines = boxes.map((box) => (byItem ? items.flatMap((_, i) => (unitsOf(box, i) === undefined ? [] : [i])) : []));
  const packages = boxes.map((box, b) => ({
    weight: typedNumber(box.weight),
    length: typedNumber(box.length),
    breadth: typedNumber(box.breadth),
    height: typedNumber(box.height),
    ...(byItem && { items: lines[b]!.map((i) => ({ sku: items[i]!.sku, units: unitsOf(box, i)! })) }),
  }));
  return { packages, lines };
}

/**
 * A refusal whose fields name a box's line by its place in the box (packages.1.items.0.units) told
 * by the form's item instead (packages.1.items.2.units), so that it shows beside that item's input.
 */
export function onBoxInputs(error: unknown, lines: number[][]): unknown {
  if (!(error instanceof ApiError)) return error;
  const renamed = (field: string) =>
    field.replace(/^packages\.(\d+)\.items\.(\d+)\./, (whole, box: string, line: string) => {
      const item = lines[Number(box)]?.[Number(line)];
      return item === undefined ? whole : `packages.${box}.items.${item}.`;
    });
  const reword = (message: string) => message.replace(/^packages\.\S+/, renamed);
  return new ApiError(
    error.status,
    error.messages.map(reword),
    error.details.map((d) => ({ field: renamed(d.field), message: reword(d.message) })),
    error.code,
  );
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
  /** Several boxes (2 to 20), or [] for an order in one box (the package above). */
  boxes: BoxDraft[];
}

const positive = (value: string) => typedNumber(value) > 0;

/** What a rate quote needs right: the pincode, the package, and the item prices a COD quote is priced on. */
export function quoteProblems(d: OrderDraft, cod: boolean): FieldError[] {
  const problems: FieldError[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  if (!/^[1-9]\d{5}$/.test(d.pincode.trim()))
    say('billing_pincode', 'Pincode must be the 6 digits of an Indian pincode');
  // With boxes, the order weighs their total: each box's weight is checked instead.
  if (d.boxes.length === 0 && !positive(d.weight)) say('weight', 'Weight (kg) must be a number above 0, e.g. 0.5');
  for (const [field, value, label] of [
    ['length', d.length, 'Length (cm)'],
    ['breadth', d.breadth, 'Breadth (cm)'],
    ['height', d.height, 'Height (cm)'],
  ] as const)
    if (!positive(value)) say(field, `${label} must be a number above 0`);
  for (const [b, box] of d.boxes.entries())
    for (const side of ['weight', 'length', 'breadth', 'height'] as const)
      if (!positive(box[side]))
        say(`packages.${b}.${side}`, `${orderLabel(`packages.${b}.${side}`)} must be a number above 0`);
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
