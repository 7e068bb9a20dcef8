import { describe, expect, it } from 'vitest';
import type { ChannelAddress, ChannelLine, ChannelOrder } from '../../channels/channel-adapter.js';
import {
  channelOrderProblems,
  forwardOrderBody,
  merchantOrderIdOf,
  orderOfPayload,
  payloadOf,
  weightKgOf,
} from './channel-order-body.js';

// A store's order as forward-order's body: the table of what each store field becomes, and what
// stops an order before forward-order's own checks.

const address = (over: Partial<ChannelAddress> = {}): ChannelAddress => ({
  firstName: 'Ananya',
  lastName: 'Rao',
  address1: '12, 4th Cross, Indiranagar',
  address2: 'Near CMH Hospital',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560038',
  phone: '+919876543210',
  countryCode: 'IN',
  ...over,
});
const line = (over: Partial<ChannelLine> = {}): ChannelLine => ({
  name: 'Kurta',
  sku: 'KU-01',
  units: 2,
  unitPricePaise: 64950,
  unitWeightGrams: 400,
  category: 'Kurtas',
  ...over,
});
const order = (over: Partial<ChannelOrder> = {}): ChannelOrder => ({
  channelOrderId: '5412873601234',
  channelOrderName: '#1042',
  createdAt: new Date('2026-11-20T09:00:00Z'),
  updatedAt: new Date('2026-11-20T09:05:00Z'),
  cancelled: false,
  awaitingShipment: true,
  currency: 'INR',
  paymentMethod: 'cod',
  codPaise: 129900,
  totalPaise: 129900,
  subTotalPaise: 129900,
  discountPaise: 0,
  taxPaise: 0,
  shippingPaise: 0,
  email: 'ananya@example.in',
  shipping: address(),
  billing: address({ address2: null }),
  lines: [line()],
  ...over,
});
const PKG = { defaultWeightGrams: null, lengthCm: 20, breadthCm: 15, heightCm: 5 };
const CONTEXT = { storeName: 'acme-online', warehouseId: 'wh-1', package: PKG };

describe('merchantOrderIdOf', () => {
  it.each([
    ['acme-online', '#1042', 'acme-online-1042'],
    ['Acme-Online', '1001', 'acme-online-1001'],
    ['shop', '#SO 77', 'shop-SO-77'],
    ['---', '#1', 'store-1'],
  ])('%s and %s make %s', (store, name, expected) => {
    expect(merchantOrderIdOf(store, name)).toBe(expected);
  });
});

describe('weightKgOf', () => {
  it.each([
    ['every item weighed: their sum', [line(), line({ units: 1, unitWeightGrams: 250 })], null, 1.05],
    ['an item without weight: the default', [line(), line({ unitWeightGrams: null })], 500, 0.5],
    ['an item weighing 0: the default', [line({ unitWeightGrams: 0 })], 750, 0.75],
    ['an item without weight and no default: unknown', [line({ unitWeightGrams: null })], null, null],
  ])('%s', (_, lines, defaultWeightGrams, expected) => {
    expect(weightKgOf(order({ lines }), { ...PKG, defaultWeightGrams })).toBe(expected);
  });
});

describe('channelOrderProblems', () => {
  it.each([
    ['a complete order', order(), []],
    ['dollars', order({ currency: 'USD' }), ['currency']],
    ['no address at all', order({ shipping: null, billing: null }), ['shipping_address']],
    ['no items', order({ lines: [] }), ['order_items', 'weight']],
    ['an unweighed item', order({ lines: [line({ unitWeightGrams: null })] }), ['weight']],
    ['no currency named: taken as rupees', order({ currency: null }), []],
  ])('%s', (_, value, fields) => {
    expect(channelOrderProblems(value, PKG).map((p) => p.field)).toEqual(fields);
  });
});

describe('forwardOrderBody', () => {
  it('maps a COD order field for field', () => {
    expect(forwardOrderBody(order(), '#1042', CONTEXT)).toEqual({
      order_id: 'acme-online-1042',
      order_date: '2026-11-20T09:00:00.000Z',
      store_name: 'acme-online',
      billing_customer_name: 'Ananya',
      billing_last_name: 'Rao',
      billing_address: '12, 4th Cross, Indiranagar',
      billing_city: 'Bengaluru',
      billing_pincode: '560038',
      billing_state: 'Karnataka',
      billing_country: 'India',
      billing_email: 'ananya@example.in',
      billing_phone: '+919876543210',
      shipping_is_billing: false,
      shipping_customer_name: 'Ananya',
      shipping_last_name: 'Rao',
      shipping_address: '12, 4th Cross, Indiranagar',
      shipping_address_2: 'Near CMH Hospital',
      shipping_city: 'Bengaluru',
      shipping_pincode: '560038',
      shipping_state: 'Karnataka',
      shipping_country: 'India',
      shipping_email: 'ananya@example.in',
      shipping_phone: '+919876543210',
      order_items: [{ name: 'Kurta', sku: 'KU-01', units: 2, selling_price: 649.5, category: 'Kurtas' }],
      payment_method: 'COD',
      sub_total: 1299,
      total_discount: 0,
      cod_collectible: 1299,
      length: 20,
      breadth: 15,
      height: 5,
      weight: 0.8,
      warehouse_id: 'wh-1',
    });
  });

  it.each([
    ['prepaid: nothing to collect', order({ paymentMethod: 'prepaid', codPaise: 0 }), 'PREPAID', 0],
    ['COD already paid in full: prepaid', order({ codPaise: 0 }), 'PREPAID', 0],
    ['COD partly paid: the rest', order({ codPaise: 49900 }), 'COD', 499],
    ['COD owing more than the total: the total', order({ codPaise: 200000 }), 'COD', 1299],
  ])('%s', (_, value, method, cod) => {
    const body = forwardOrderBody(value, '#1042', CONTEXT);
    expect([body.payment_method, body.cod_collectible]).toEqual([method, cod]);
  });

  it('ships to the billing address when the store sent no shipping one, and leaves blanks for the checks to name', () => {
    const body = forwardOrderBody(
      order({ shipping: null, billing: address({ firstName: null, phone: null, address2: '  ' }) }),
      '#7',
      CONTEXT,
    );
    expect(body).toMatchObject({ shipping_customer_name: 'Rao', billing_customer_name: 'Rao' });
    expect(body).not.toHaveProperty('shipping_last_name');
    expect(body).not.toHaveProperty('shipping_phone');
    expect(body).not.toHaveProperty('shipping_address_2');
  });

  it('takes an item without a SKU by its name, and one without a category without one', () => {
    const body = forwardOrderBody(
      order({ lines: [line({ sku: null, name: 'Dupatta', category: null })] }),
      '#1',
      CONTEXT,
    );
    expect(body.order_items).toEqual([{ name: 'Dupatta', sku: 'Dupatta', units: 2, selling_price: 649.5 }]);
  });
});

it('keeps an order through the ledger as it was', () => {
  const value = order();
  expect(orderOfPayload(payloadOf(value))).toEqual(value);
});
