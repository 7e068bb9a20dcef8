// Buyers' personal data, as a credential without the `buyers:read` permission sees it (issue 51,
// Shiprocket's "share buyer information"): names, phones, e-mails and street addresses masked,
// city, state and pincode kept (they say where a parcel goes, not who lives there). One list of the
// fields that hold them, read by the one hook that masks every account answer
// (http/permission-guard.ts), so a route cannot forget to mask: a field is buyer data by its name,
// or by sitting in an object that is a buyer's address.

type Kind = 'name' | 'phone' | 'email' | 'street';

/** Fields that are a buyer's wherever they appear: Velocity's flat order fields and ours. */
const BUYER_FIELDS: Record<string, Kind> = {};
for (const side of ['billing', 'shipping', 'pickup', 'customer', 'consignee', 'buyer']) {
  for (const name of ['customer_name', 'name', 'last_name', 'first_name']) BUYER_FIELDS[`${side}_${name}`] = 'name';
  for (const phone of ['phone', 'alternate_phone', 'mobile']) BUYER_FIELDS[`${side}_${phone}`] = 'phone';
  BUYER_FIELDS[`${side}_email`] = 'email';
  for (const street of ['address', 'address_2', 'address1', 'address2']) BUYER_FIELDS[`${side}_${street}`] = 'street';
}
// A forward order's `pickup_*` fields are the warehouse's (pickup_location names it); only a
// return's pickup is the buyer's, and those come as `pickup_customer_name` and an object.
for (const own of ['pickup_name', 'pickup_first_name', 'pickup_mobile']) delete BUYER_FIELDS[own];

/** Objects that are a buyer's address or contact: inside them, these fields are masked. */
const BUYER_OBJECTS = new Set([
  'shipping_address',
  'billing_address',
  'pickup_address',
  'customer',
  'consignee',
  'buyer',
  'payee',
]);
const INSIDE_BUYER_OBJECT: Record<string, Kind> = {
  name: 'name',
  first_name: 'name',
  last_name: 'name',
  customer_name: 'name',
  account_holder: 'name',
  phone: 'phone',
  alternate_phone: 'phone',
  mobile: 'phone',
  email: 'email',
  address: 'street',
  address_2: 'street',
  address1: 'street',
  address2: 'street',
  line1: 'street',
  line2: 'street',
  street: 'street',
  upi_id: 'email',
  account_number: 'phone',
};

/** A phone or account number: its first two and last two digits, the rest starred (`98******10`). */
export function maskDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/** Each word's first character, the rest starred: `Asha Menon` → `A*** M****`. */
export function maskWords(value: string): string {
  return value.replace(/[\p{L}\p{N}][\p{L}\p{N}\p{M}'.-]*/gu, (word) => {
    const first = [...word][0] ?? '';
    return first + '*'.repeat(Math.max([...word].length - 1, 1));
  });
}

/** The local part's first character and the domain's top level: `asha@example.com` → `a***@***.com`. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return maskWords(value);
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return `${[...value][0]}***@***${dot >= 0 ? domain.slice(dot) : ''}`;
}

const MASKS: Record<Kind, (value: string) => string> = {
  name: maskWords,
  phone: maskDigits,
  email: maskEmail,
  street: maskWords,
};

const maskValue = (kind: Kind, value: unknown): unknown =>
  typeof value === 'string' && value !== '' ? MASKS[kind](value) : value;

/** Links to documents that print a buyer's details whole (a label's PDF): not given at all. */
const BUYER_DOCUMENT_LINKS = new Set(['label_url']);

/** A JSON value with every buyer field masked, as a credential without `buyers:read` gets it. */
export function maskBuyerData(value: unknown, insideBuyer = false): unknown {
  if (Array.isArray(value)) return value.map((item) => maskBuyerData(item, insideBuyer));
  if (value === null || typeof value !== 'object') return value;
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (BUYER_DOCUMENT_LINKS.has(key) && typeof field === 'string') {
      masked[key] = null;
      continue;
    }
    const kind = BUYER_FIELDS[key] ?? (insideBuyer ? INSIDE_BUYER_OBJECT[key] : undefined);
    if (kind !== undefined && typeof field === 'string') masked[key] = maskValue(kind, field);
    else masked[key] = maskBuyerData(field, BUYER_OBJECTS.has(key) || (insideBuyer && typeof field === 'object'));
  }
  return masked;
}

/**
 * Whether a listing's free-text search looks for a buyer by phone or e-mail: refused without
 * `buyers:read` (a match would say who bought what). An Indian mobile number (10 digits from 6 to
 * 9, with or without +91 or 0) or anything with an @.
 */
export function searchesForBuyer(search: string): boolean {
  if (search.includes('@')) return true;
  const digits = search.replace(/[\s()+-]/g, '');
  return /^(?:91|0)?[6-9]\d{9}$/.test(digits);
}
