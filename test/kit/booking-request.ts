import type { BookingRequest, ParcelAddress } from '../../src/couriers/connector.js';

/** A buyer in Mumbai, as a connector is handed one. */
export const BUYER: ParcelAddress = {
  name: 'Asha Menon',
  address: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  pincode: '400001',
  phone: '+919123456780',
};

/**
 * What a connector is asked to carry: a prepaid 500 g kurta from an Okhla warehouse to the buyer,
 * booked at the test clock's start; `overrides` changes any field (`reference` first of all).
 */
export const bookingRequest = (reference: string, overrides: Partial<BookingRequest> = {}): BookingRequest => ({
  reference,
  journey: 'forward',
  merchantOrderId: `ORD-${reference}`,
  tags: [],
  paymentMethod: 'prepaid',
  codPaise: 0,
  totalPaise: 99_800,
  weightGrams: 500,
  lengthCm: 10,
  breadthCm: 10,
  heightCm: 10,
  productsDescription: 'Cotton Kurta',
  quantity: 1,
  consignee: BUYER,
  pickup: { ...BUYER, city: 'New Delhi', state: 'Delhi', pincode: '110001', locationName: 'Okhla' },
  orderDate: new Date('2026-11-20T06:30:00Z'),
  ...overrides,
});
