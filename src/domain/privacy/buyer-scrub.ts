import { normalizeIndianPhone } from '../geo/phone.js';

// Erasing a buyer (issue 52, DPDP Act 2023): every copy of their name, phone, e-mail and street
// address replaced by a marker, wherever Dakiya wrote it (an order's columns, the events that
// told of it, the e-mails and messages sent, a store's payload, a courier's remarks). A copy is
// found by its value, not by its field: an event's body or a store's payload names the buyer under
// fields of its own. Pincode, city and state are kept (they say where parcels go, not who lives
// there), and so are the keys of JSON objects, so a scrubbed payload keeps its shape.

/** What an erased value reads as, everywhere. */
export const ERASED = '[erased]';

export interface BuyerValues {
  names: string[];
  /** Indian phone numbers in any form people write them; taken as their ten digits. */
  phones: string[];
  emails: string[];
  streets: string[];
}

export const noBuyerValues = (): BuyerValues => ({ names: [], phones: [], emails: [], streets: [] });

type Kind = keyof BuyerValues;

// Fields that hold a buyer's details in the bodies Dakiya keeps: Velocity's flat order fields
// (`billing_customer_name`), a return's `pickup_*`, an address object's own (`name`, `address1`),
// Shopify's and WooCommerce's, an NDR instruction's (`updated_address`), a message's variables.
const FIELD_KINDS: Record<string, Kind> = {};
for (const side of ['billing', 'shipping', 'pickup', 'customer', 'consignee', 'buyer', 'default']) {
  for (const name of ['customer_name', 'name', 'last_name', 'first_name', 'full_name'])
    FIELD_KINDS[`${side}_${name}`] = 'names';
  for (const phone of ['phone', 'alternate_phone', 'mobile']) FIELD_KINDS[`${side}_${phone}`] = 'phones';
  FIELD_KINDS[`${side}_email`] = 'emails';
  for (const street of ['address', 'address_2', 'address1', 'address2']) FIELD_KINDS[`${side}_${street}`] = 'streets';
}
const INSIDE_ADDRESS: Record<string, Kind> = {
  name: 'names',
  first_name: 'names',
  last_name: 'names',
  firstName: 'names',
  lastName: 'names',
  customer_name: 'names',
  full_name: 'names',
  phone: 'phones',
  alternate_phone: 'phones',
  mobile: 'phones',
  email: 'emails',
  address: 'streets',
  address_2: 'streets',
  address1: 'streets',
  address2: 'streets',
  line1: 'streets',
  line2: 'streets',
};
const ANYWHERE: Record<string, Kind> = {
  updated_address: 'streets',
  updated_address_2: 'streets',
  updated_phone_number: 'phones',
  alternate_phone: 'phones',
  customer_email: 'emails',
  customer_phone: 'phones',
  buyer_name: 'names',
  recipient_phone: 'phones',
  recipient_email: 'emails',
};
/** Objects that are a buyer's address or contact: their plain fields (`name`, `phone`) are the buyer's. */
const ADDRESS_OBJECTS = new Set([
  'shipping_address',
  'billing_address',
  'pickup_address',
  'pickup',
  'customer',
  'consignee',
  'buyer',
  'billing',
  'shipping',
  'default_address',
  'shippingAddress',
  'billingAddress',
  'defaultAddress',
]);

/**
 * The buyer's values a JSON body holds under the fields above, added to `into`: an event that
 * told of an address before it was changed brings the old one, which the order's columns no
 * longer hold.
 */
export function collectBuyerValues(value: unknown, into: BuyerValues = noBuyerValues(), inside = false): BuyerValues {
  if (Array.isArray(value)) {
    for (const item of value) collectBuyerValues(item, into, inside);
    return into;
  }
  if (value === null || typeof value !== 'object') return into;
  for (const [key, field] of Object.entries(value)) {
    const kind = FIELD_KINDS[key] ?? ANYWHERE[key] ?? (inside ? INSIDE_ADDRESS[key] : undefined);
    if (kind !== undefined && (typeof field === 'string' || typeof field === 'number')) into[kind].push(String(field));
    else collectBuyerValues(field, into, ADDRESS_OBJECTS.has(key));
  }
  return into;
}

/** Shorter than this, a name or a piece of a street says nothing of who the buyer is, and would be found inside other words. */
const MIN_LETTERS = 2;
/** A street is also erased piece by piece (between commas), so a copy that kept only its first line goes too. */
const MIN_STREET_PIECE = 6;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Spaces in a value match any run of spaces in a copy of it, as couriers and stores reflow addresses. */
const literal = (text: string) => text.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
const BEFORE_WORD = '(?<![\\p{L}\\p{N}])';
const AFTER_WORD = '(?![\\p{L}\\p{N}])';
const PHONE_GAP = '[\\s()-]*';

/** A phone's ten digits as written anywhere: `9123456780`, `+91 91234 56780`, `091234-56780`, `(912) 345 6780`. */
function phonePattern(tenDigits: string): string {
  return `(?<!\\d)\\(?(?:\\+?${PHONE_GAP}9${PHONE_GAP}1${PHONE_GAP}|0${PHONE_GAP})?${[...tenDigits].join(PHONE_GAP)}(?!\\d)`;
}

export interface BuyerScrubber {
  /** Whether there is anything to erase: no values, no scrubbing. */
  readonly empty: boolean;
  /** The text with every copy of the buyer's values replaced by ERASED. */
  text(value: string): string;
  /** A JSON value with every string (and number that is the buyer's phone) scrubbed; keys kept. */
  json(value: unknown): unknown;
  /** The phones' ten digits and the e-mails, lower-cased: what finds a buyer's rows in a table. */
  readonly phones: readonly string[];
  readonly emails: readonly string[];
}

const unique = (values: Iterable<string>) => [...new Set(values)];

/**
 * The scrubber of one buyer's values: longest first, so `Asha Menon` goes whole before `Asha`.
 * `keep`: values that are not the buyer's though a body named them so (the merchant's warehouse
 * as a forward order's `pickup_*`, a store's support phone).
 */
export function buyerScrubber(values: BuyerValues, keep: readonly string[] = []): BuyerScrubber {
  const kept = new Set(keep.map((k) => k.trim().toLowerCase()));
  const keptPhones = new Set(keep.map((k) => normalizeIndianPhone(k.trim())));
  const phones = unique(
    values.phones
      .map((p) => normalizeIndianPhone(p.trim()))
      .filter((p): p is string => p !== undefined && !keptPhones.has(p)),
  );
  const emails = unique(
    values.emails.map((e) => e.trim().toLowerCase()).filter((e) => e.includes('@') && !kept.has(e)),
  );
  const words = (list: string[]) =>
    list
      .map((v) => v.trim())
      .filter((v) => (v.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= MIN_LETTERS && !kept.has(v.toLowerCase()));
  const streetPieces = values.streets.flatMap((street) =>
    street.includes(',') ? street.split(',').filter((piece) => piece.trim().length >= MIN_STREET_PIECE) : [],
  );
  const texts = unique(
    [...words(values.names), ...words(values.streets), ...words(streetPieces)].map((v) => v.toLowerCase()),
  );
  texts.sort((a, b) => b.length - a.length);
  const alternatives = [
    ...emails.map((e) => `${BEFORE_WORD}${escapeRegExp(e)}${AFTER_WORD}`),
    ...phones.map(phonePattern),
    ...texts.map((t) => `${BEFORE_WORD}${literal(t)}${AFTER_WORD}`),
  ];
  const pattern = alternatives.length === 0 ? null : new RegExp(alternatives.join('|'), 'giu');
  const text = (value: string) => (pattern === null ? value : value.replace(pattern, ERASED));
  const json = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value === 'number') return phones.includes(normalizeIndianPhone(String(value)) ?? '') ? ERASED : value;
    if (Array.isArray(value)) return value.map(json);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, json(field)]));
  };
  return { empty: pattern === null, text, json, phones, emails };
}
