import { describe, expect, it } from 'vitest';
import { maskBuyerData, maskDigits, maskEmail, maskWords, searchesForBuyer } from './buyer-data.js';

describe("a buyer's details masked", () => {
  it.each([
    ['9876543210', '98******10'],
    ['+91 98765 43210', '91********10'],
    ['1234', '****'],
    ['', ''],
  ])('phone %j → %j', (phone, masked) => {
    expect(maskDigits(phone)).toBe(masked);
  });

  it.each([
    ['Asha Menon', 'A*** M****'],
    ['42, 5th Cross, Koramangala', '4*, 5** C****, K**********'],
    ['Ā', 'Ā*'],
    ['आशा मेनन', 'आ** म***'],
  ])('words %j → %j', (words, masked) => {
    expect(maskWords(words)).toBe(masked);
  });

  it.each([
    ['asha@example.com', 'a***@***.com'],
    ['priya.sharma@example.in', 'p***@***.in'],
    ['no-at-sign', 'n*********'],
  ])('e-mail %j → %j', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it("masks Velocity's flat fields and a buyer's address objects, and nothing else", () => {
    expect(
      maskBuyerData({
        billing_customer_name: 'Priya',
        billing_last_name: 'Sharma',
        billing_phone: '9123456780',
        billing_email: 'priya@example.in',
        billing_address: '42 Cross Road',
        billing_city: 'Bengaluru',
        billing_pincode: '560034',
        pickup_location: 'Okhla Warehouse',
        pickup_customer_name: 'Asha',
        data: [
          {
            shipping_address: {
              name: 'Asha Menon',
              phone: '9123456780',
              address: '12 Marine Drive',
              city: 'Mumbai',
              zip: '400001',
            },
            order: { store_name: 'Acme', vendor_details: { name: 'Acme Traders', phone: '9800000000' } },
            items: [{ name: 'Cotton Kurta', sku: 'K-1' }],
            awb: '1234567890123',
            label_url: 'https://dakiya.example/labels/1.pdf?signature=x',
            pickup_address: { name: 'Asha', email: 'asha@example.com', pincode: '400001' },
            payee: {
              account_holder: 'Asha Menon',
              account_number: '001234567890',
              ifsc: 'HDFC0000001',
              upi_id: 'asha@okhdfc',
            },
            empty: { shipping_phone: '', customer_email: null },
          },
        ],
      }),
    ).toEqual({
      billing_customer_name: 'P****',
      billing_last_name: 'S*****',
      billing_phone: '91******80',
      billing_email: 'p***@***.in',
      billing_address: '4* C**** R***',
      billing_city: 'Bengaluru',
      billing_pincode: '560034',
      pickup_location: 'Okhla Warehouse',
      pickup_customer_name: 'A***',
      data: [
        {
          shipping_address: {
            name: 'A*** M****',
            phone: '91******80',
            address: '1* M***** D****',
            city: 'Mumbai',
            zip: '400001',
          },
          order: { store_name: 'Acme', vendor_details: { name: 'Acme Traders', phone: '9800000000' } },
          items: [{ name: 'Cotton Kurta', sku: 'K-1' }],
          awb: '1234567890123',
          label_url: null,
          pickup_address: { name: 'A***', email: 'a***@***.com', pincode: '400001' },
          payee: {
            account_holder: 'A*** M****',
            account_number: '00********90',
            ifsc: 'HDFC0000001',
            upi_id: 'a***@***',
          },
          empty: { shipping_phone: '', customer_email: null },
        },
      ],
    });
  });

  it.each([
    ['9876543210', true],
    ['+91 98765 43210', true],
    ['098765-43210', true],
    ['asha@example.com', true],
    ['@example', true],
    ['1234567890123', false],
    ['5876543210', false],
    ['RET-10045', false],
    ['Asha', false],
    ['400001', false],
  ])('a search for %j looks for a buyer: %s', (search, buyer) => {
    expect(searchesForBuyer(search)).toBe(buyer);
  });
});
