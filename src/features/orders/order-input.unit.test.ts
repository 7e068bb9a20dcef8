import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors.js';
import type { CourierService } from '../../domain/rates/catalogue.js';
import { parseOrderDate } from '../../domain/shipment/order-dates.js';
import { readOrderInput } from './order-input.js';
import type { CreateOrderInput } from './orders.schemas.js';
import { awbNumber } from '../../couriers/awb-series.js';
import { loadPincodeDirectory } from '../../data-files.js';

const directory = loadPincodeDirectory();

describe('parseOrderDate', () => {
  it.each([
    ['2026-11-20 14:30', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20', '2026-11-19T18:30:00.000Z'],
    ['2026-11-20 00:00', '2026-11-19T18:30:00.000Z'],
    ['2026-11-20 23:59', '2026-11-20T18:29:00.000Z'],
    ['  2026-11-20 14:30  ', '2026-11-20T09:00:00.000Z'],
    // ISO 8601 without an offset is India time too; with one, the offset rules.
    ['2026-11-20T14:30', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T14:30:15', '2026-11-20T09:00:15.000Z'],
    ['2026-11-20T14:30:00Z', '2026-11-20T14:30:00.000Z'],
    ['2026-11-20T14:30:00+05:30', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T14:30:00+0530', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T14:30:00-04:00', '2026-11-20T18:30:00.000Z'],
    ['2026-11-20T14:30:00.123Z', '2026-11-20T14:30:00.123Z'],
    ['2026-11-20T14:30:00.123456789+05:30', '2026-11-20T09:00:00.123Z'],
    ['2028-02-29', '2028-02-28T18:30:00.000Z'],
    ['2026-12-31 23:59', '2026-12-31T18:29:00.000Z'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseOrderDate(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '',
    'now',
    'yesterday',
    '20-11-2026',
    '20/11/2026',
    '2026/11/20',
    '2026-11-20 2:30',
    '2026-11-20 14:30 IST',
    '2026-11-20T14:30:00+5:30',
    '2026-02-30',
    '2026-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-11-00',
    '2026-11-20 25:00',
    '2026-11-20 24:00',
    '2026-11-20T23:59:60Z',
    '2026-11-20 14:60',
    '2026-11-20T14:30:61Z',
    '1763629800',
  ])('refuses %j', (text) => {
    expect(parseOrderDate(text)).toBeUndefined();
  });
});

function body(overrides: Partial<CreateOrderInput> = {}): CreateOrderInput {
  return {
    order_id: 'ORD-1',
    order_date: '2026-11-20 14:30',
    billing_customer_name: '  Asha ',
    billing_last_name: 'Menon',
    billing_address: ' 12 Marine Drive ',
    billing_city: 'Mumbai',
    billing_pincode: '400001',
    billing_state: 'Maharashtra',
    billing_country: 'India',
    billing_phone: '+91 91234 56780',
    order_items: [
      {
        name: ' Kurta ',
        sku: 'K-1',
        units: 2,
        selling_price: 499.5,
        discount: 10.25,
        tax: 5,
        hsn: '6211',
        category: ' Apparel ',
      },
      { name: 'Scarf', sku: 'S-1', units: 1, selling_price: 0 },
    ],
    payment_method: 'PREPAID',
    sub_total: 1009.75,
    length: 10,
    breadth: 12.5,
    height: 3,
    weight: 0.35,
    warehouse_id: 'wh',
    ...overrides,
  } as CreateOrderInput;
}

function refusal(fn: () => unknown): { kind: string; code: string; messages: string[]; field: string | undefined } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { kind: error.kind, code: error.code, messages: error.messages, field: error.details?.[0]?.field };
  }
  throw new Error('expected a refusal');
}

describe('readOrderInput', () => {
  it('converts to internal units (paise, grams), trims text and normalises the phone', () => {
    const input = readOrderInput(body(), directory, true);
    expect(input).toEqual({
      merchantOrderId: 'ORD-1',
      orderDate: new Date('2026-11-20T09:00:00.000Z'),
      storeName: undefined,
      billing: {
        name: 'Asha',
        lastName: 'Menon',
        address: '12 Marine Drive',
        address2: null,
        city: 'Mumbai',
        pincode: '400001',
        state: 'Maharashtra',
        country: 'India',
        email: null,
        phone: '9123456780',
      },
      shippingIsBilling: true,
      shipping: input.billing,
      paymentMethod: 'prepaid',
      subTotalPaise: 100975,
      codPaise: 0,
      lengthCm: 10,
      breadthCm: 12.5,
      heightCm: 3,
      weightGrams: 350,
      packages: null,
      warehouseId: 'wh',
      pickupLocation: undefined,
      carrierId: undefined,
      channelRef: null,
      companyName: null,
      language: null,
      totalDiscountPaise: 0,
      vendorDetails: null,
      ewayBill: null,
      tags: [],
      printLabel: true,
      items: [
        {
          name: 'Kurta',
          sku: 'K-1',
          units: 2,
          sellingPricePaise: 49950,
          discountPaise: 1025,
          taxPercent: 5,
          hsn: '6211',
          category: 'Apparel',
        },
        {
          name: 'Scarf',
          sku: 'S-1',
          units: 1,
          sellingPricePaise: 0,
          discountPaise: 0,
          taxPercent: null,
          hsn: null,
          category: null,
        },
      ],
    });
  });

  it('accepts a pincode as a JSON number and the payment method in any case', () => {
    const input = readOrderInput(
      body({ billing_pincode: 400001, payment_method: 'cOd', cod_collectible: 500.5 }),
      directory,
      true,
    );
    expect(input.billing.pincode).toBe('400001');
    expect(input.paymentMethod).toBe('cod');
    expect(input.codPaise).toBe(50050);
  });

  it('reads a separate shipping address when shipping_is_billing is false', () => {
    const input = readOrderInput(
      body({
        shipping_is_billing: false,
        shipping_customer_name: 'Ravi',
        shipping_address: '5 MG Road',
        shipping_address_2: ' ',
        shipping_city: 'Bengaluru',
        shipping_pincode: '560001',
        shipping_state: 'Karnataka',
        shipping_country: 'India',
        shipping_phone: '080 4123 4567',
        shipping_email: 'ravi@example.com',
      }),
      directory,
      true,
    );
    expect(input.shippingIsBilling).toBe(false);
    expect(input.shipping).toEqual({
      name: 'Ravi',
      lastName: null,
      address: '5 MG Road',
      address2: null,
      city: 'Bengaluru',
      pincode: '560001',
      state: 'Karnataka',
      country: 'India',
      email: 'ravi@example.com',
      phone: '8041234567',
    });
    expect(input.billing.city).toBe('Mumbai');
  });

  it.each([
    [
      { order_date: '2026-02-30' },
      'order_date',
      'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp',
    ],
    [{ billing_phone: '12345' }, 'billing_phone', 'billing_phone must be a valid Indian phone number (10 digits)'],
    [{ billing_pincode: '40001' }, 'billing_pincode', 'billing_pincode must be a 6-digit Indian pincode'],
    [{ billing_pincode: '999999' }, 'billing_pincode', 'billing_pincode 999999 is not a pincode in the directory'],
    [
      {
        shipping_is_billing: false,
        shipping_address: '5 MG Road',
        shipping_city: 'Bengaluru',
        shipping_pincode: '560001',
        shipping_state: 'Karnataka',
        shipping_country: 'India',
        shipping_phone: '9876543210',
      },
      'shipping_customer_name',
      'shipping_customer_name is required when shipping_is_billing is false',
    ],
    [{ payment_method: 'COD' }, 'cod_collectible', 'cod_collectible must be greater than 0 for a COD order'],
    [
      { payment_method: 'COD', cod_collectible: 0 },
      'cod_collectible',
      'cod_collectible must be greater than 0 for a COD order',
    ],
    [
      { payment_method: 'COD', cod_collectible: 0.004 },
      'cod_collectible',
      'cod_collectible must be greater than 0 for a COD order',
    ],
    [
      { payment_method: 'COD', cod_collectible: 1009.76 },
      'cod_collectible',
      'cod_collectible must not exceed the order value (sub_total)',
    ],
    [{ cod_collectible: 0.01 }, 'cod_collectible', 'cod_collectible must be 0 for a PREPAID order'],
    [{ ewaybill_no: '33100987654' }, 'ewaybill_no', 'ewaybill_no must be the 12 digits of an e-way bill number'],
    [{ ewaybill_no: 3_310_098_765_430 }, 'ewaybill_no', 'ewaybill_no must be the 12 digits of an e-way bill number'],
    [
      { ewaybill_no: '331009876543', ewaybill_date: '2026-13-01' },
      'ewaybill_date',
      'ewaybill_date must be a calendar date, YYYY-MM-DD',
    ],
    [{ ewaybill_date: '2026-11-20' }, 'ewaybill_date', 'ewaybill_date is sent with ewaybill_no, the bill it dates'],
  ] as [Partial<CreateOrderInput>, string, string][])('refuses %j naming %s (400)', (overrides, field, message) => {
    expect(refusal(() => readOrderInput(body(overrides), directory, true))).toEqual({
      kind: 'invalid',
      code: 'invalid_request',
      messages: [message],
      field,
    });
  });

  it.each([
    [{}, null],
    [{ ewaybill_no: '' }, null],
    [{ ewaybill_no: ' 331009876543 ' }, { number: '331009876543', date: null }],
    [
      { ewaybill_no: 331009876543, ewaybill_date: '2026-11-20' },
      { number: '331009876543', date: '2026-11-20' },
    ],
  ] as [Partial<CreateOrderInput>, unknown][])('reads the e-way bill of %j', (overrides, ewayBill) => {
    expect(readOrderInput(body(overrides), directory, true).ewayBill).toEqual(ewayBill);
  });

  it('accepts COD collecting exactly the order value', () => {
    expect(readOrderInput(body({ payment_method: 'COD', cod_collectible: 1009.75 }), directory, true).codPaise).toBe(
      100975,
    );
  });
});

describe('awbNumber', () => {
  const service = { awbPrefix: 'DLS' } as CourierService;
  it.each([
    [1, 'DLS0000000001'],
    [42, 'DLS0000000042'],
    [9_999_999_999, 'DLS9999999999'],
  ])('numbers %i as %s', (sequence, awb) => {
    expect(awbNumber(service, sequence)).toBe(awb);
  });
});
