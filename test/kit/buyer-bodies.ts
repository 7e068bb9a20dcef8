import { randomInt } from 'node:crypto';
import { SHADOWFAX } from './couriers.js';
import { MINUTE } from './http.js';
import { nextOrderId } from './orders.js';

// The buyer the erasure tests write (test/kit/buyer-everywhere.ts), and the bodies that carry them.

export interface Buyer {
  firstName: string;
  lastName: string;
  /** 10 digits, starting 6-9. */
  phone: string;
  email: string;
  address: string;
  address2: string;
  /** 10 digits, starting 6-9; the NDR reattempt's number. */
  alternatePhone: string;
}

export const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const usedPhones = new Set<string>();
function mobile(): string {
  let phone: string;
  do phone = `${6 + randomInt(4)}${String(randomInt(1_000_000_000)).padStart(9, '0')}`;
  while (usedPhones.has(phone) || /^(\d)\1+$/.test(phone.slice(1)));
  usedPhones.add(phone);
  return phone;
}

/** A buyer whose every value no other row could hold by chance: names of letters only, random tails. */
export function distinctiveBuyer(): Buyer {
  const tail = letters(8);
  return {
    firstName: `Zorawarix${capitalised(letters(6))}`,
    lastName: `Quenthorpe${capitalised(letters(6))}`,
    phone: mobile(),
    email: `zorawarix.${tail}@buyer.example`,
    address: `41 Quillfeather Lane ${capitalised(tail)}`,
    address2: `Vellumgate Tower ${capitalised(letters(8))}`,
    alternatePhone: mobile(),
  };
}

/** The strings that must not survive an erasure of `buyer`. */
export function buyerNeedles(buyer: Buyer): string[] {
  return [
    buyer.firstName,
    buyer.lastName,
    buyer.phone,
    buyer.alternatePhone,
    buyer.email,
    buyer.address,
    buyer.address2,
  ];
}

/** A COD forward order (Mumbai, 400001) with `buyer` on the billing and the shipping address, on Shadowfax. */
export function forwardOrderBody(buyer: Buyer, warehouseId: string, storeName: string): Record<string, unknown> {
  return {
    order_id: nextOrderId('ERASE'),
    order_date: '2026-11-20 11:00',
    store_name: storeName,
    billing_customer_name: buyer.firstName,
    billing_last_name: buyer.lastName,
    billing_address: buyer.address,
    billing_address_2: buyer.address2,
    billing_city: 'Mumbai',
    billing_pincode: '400001',
    billing_state: 'Maharashtra',
    billing_country: 'India',
    billing_email: buyer.email,
    billing_phone: buyer.phone,
    shipping_is_billing: false,
    shipping_customer_name: buyer.firstName,
    shipping_last_name: buyer.lastName,
    shipping_address: buyer.address,
    shipping_address_2: buyer.address2,
    shipping_city: 'Mumbai',
    shipping_pincode: '400001',
    shipping_state: 'Maharashtra',
    shipping_country: 'India',
    shipping_email: buyer.email,
    shipping_phone: buyer.phone,
    print_label: false,
    order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 749.5 }],
    payment_method: 'COD',
    sub_total: 1499,
    cod_collectible: 1499,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    warehouse_id: warehouseId,
    carrier_id: SHADOWFAX,
  };
}

/** A WooCommerce order (REST v3 shape) from `buyer`, COD, created an hour before `now`. */
export function wooOrder(id: number, buyer: Buyer, now: Date) {
  const at = new Date(now.getTime() - 60 * MINUTE).toISOString().slice(0, 19);
  const person = { first_name: buyer.firstName, last_name: buyer.lastName, company: '' };
  const place = { address_1: buyer.address, address_2: buyer.address2, city: 'Mumbai', state: 'MH' };
  return {
    id,
    number: String(id),
    status: 'processing',
    currency: 'INR',
    date_created: at,
    date_created_gmt: at,
    date_modified_gmt: at,
    total: '999.00',
    shipping_total: '0.00',
    discount_total: '0.00',
    customer_note: `Ring ${buyer.firstName} on ${buyer.phone}`,
    billing: { ...person, ...place, postcode: '400001', country: 'IN', email: buyer.email, phone: buyer.phone },
    shipping: { ...person, ...place, postcode: '400001', country: 'IN', phone: buyer.phone },
    payment_method: 'cod',
    payment_method_title: 'Cash on delivery',
    meta_data: [],
    line_items: [
      { id: id * 10, name: 'Ikat Dupatta', product_id: 402, variation_id: 0, quantity: 1, sku: 'IKT-DUP', price: 999 },
    ],
    line_items_total: '999.00',
    shipping_lines: [],
    fee_lines: [],
    coupon_lines: [],
    refunds: [],
  };
}
