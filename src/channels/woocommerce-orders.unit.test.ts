import { describe, expect, it } from 'vitest';
import { ChannelCallError, type ChannelOrder } from './channel-adapter.js';
import order727 from './fixtures/woocommerce/order-727.json' with { type: 'json' };
import indiaCod from './fixtures/woocommerce/order-india-cod.json' with { type: 'json' };
import noShippingPhone from './fixtures/woocommerce/order-no-shipping-phone.json' with { type: 'json' };
import { mapWooCommerceOrder } from './woocommerce-orders.js';

type Order = Record<string, unknown>;
const variant = (base: Order, change: Order): Order => ({ ...structuredClone(base), ...change });

const john = {
  firstName: 'John',
  lastName: 'Doe',
  address1: '969 Market',
  address2: null,
  city: 'San Francisco',
  state: 'CA',
  pincode: '94103',
  countryCode: 'US',
};
const priya = {
  firstName: 'Priya',
  lastName: 'Raghavan',
  address1: 'No. 14, 3rd Cross, 5th Block',
  city: 'Bengaluru',
  state: 'KA',
  pincode: '560034',
  countryCode: 'IN',
};
const arjun = {
  firstName: 'Arjun',
  lastName: 'Mehta',
  address1: 'B-702, Lodha Amara',
  address2: 'Kolshet Road',
  city: 'Thane',
  state: 'MH',
  pincode: '400607',
  phone: '919820011223',
  countryCode: 'IN',
};

const expected: [string, Order, ChannelOrder][] = [
  [
    "the docs' order 727 (prepaid, no shipping phone key, numeric prices)",
    order727,
    {
      channelOrderId: '727',
      currency: 'USD',
      channelOrderName: '727',
      createdAt: new Date('2017-03-22T19:28:02Z'),
      updatedAt: new Date('2017-03-22T19:28:08Z'),
      cancelled: false,
      awaitingShipment: true,
      paymentMethod: 'prepaid',
      codPaise: 0,
      totalPaise: 2935,
      subTotalPaise: 1800,
      discountPaise: 0,
      taxPaise: 135,
      shippingPaise: 1000,
      email: 'john.doe@example.com',
      shipping: { ...john, phone: '(555) 555-5555' },
      billing: { ...john, phone: '(555) 555-5555' },
      lines: [
        {
          name: 'Woo Single #1',
          sku: null,
          units: 2,
          unitPricePaise: 300,
          unitWeightGrams: null,
          category: null,
          productId: '93',
        },
        {
          name: 'Ship Your Idea \u2013 Color: Black, Size: M Test',
          sku: 'Bar3',
          units: 1,
          unitPricePaise: 1200,
          unitWeightGrams: null,
          category: null,
          productId: '22',
        },
      ],
    },
  ],
  [
    'an Indian COD order (coupon, fractional price, its own shipping phone)',
    indiaCod,
    {
      channelOrderId: '5121',
      currency: 'INR',
      channelOrderName: '5121',
      createdAt: new Date('2026-11-24T16:17:10Z'),
      updatedAt: new Date('2026-11-24T16:17:11Z'),
      cancelled: false,
      awaitingShipment: true,
      paymentMethod: 'cod',
      codPaise: 174750,
      totalPaise: 174750,
      subTotalPaise: 179850,
      discountPaise: 10000,
      taxPaise: 0,
      shippingPaise: 4900,
      email: 'priya.r@example.in',
      shipping: { ...priya, address2: 'Koramangala, near Forum Mall', phone: '9845012345' },
      billing: { ...priya, address2: 'Koramangala', phone: '+91 98450 12345' },
      lines: [
        {
          name: 'Ikat Cotton Dupatta \u2013 Indigo',
          sku: 'IKT-DUP-IND',
          units: 3,
          unitPricePaise: 44950,
          unitWeightGrams: null,
          category: null,
          productId: '402',
        },
        {
          name: 'Block-print Cushion Cover',
          sku: 'BPC-CUS-01',
          units: 1,
          unitPricePaise: 35000,
          unitWeightGrams: null,
          category: null,
          productId: '388',
        },
      ],
    },
  ],
  [
    'a prepaid order whose shipping phone is blank (the billing phone stands in)',
    noShippingPhone,
    {
      channelOrderId: '5133',
      currency: 'INR',
      channelOrderName: 'WC-5133',
      createdAt: new Date('2026-11-25T03:35:42Z'),
      updatedAt: new Date('2026-11-25T03:36:03Z'),
      cancelled: false,
      awaitingShipment: true,
      paymentMethod: 'prepaid',
      codPaise: 0,
      totalPaise: 100800,
      subTotalPaise: 90000,
      discountPaise: 0,
      taxPaise: 10800,
      shippingPaise: 0,
      email: 'arjun.mehta@example.com',
      shipping: arjun,
      billing: arjun,
      lines: [
        {
          name: 'Kansa Dinner Plate',
          sku: null,
          units: 2,
          unitPricePaise: 45000,
          unitWeightGrams: null,
          category: null,
          productId: '511',
        },
      ],
    },
  ],
];

describe('a WooCommerce v3 order in our terms', () => {
  it.each(expected)('%s', (_, json, order) => {
    expect(mapWooCommerceOrder(json)).toEqual(order);
  });

  it.each([
    ['processing', false, true],
    ['pending', false, false],
    ['on-hold', false, false],
    ['completed', false, false],
    ['cancelled', true, false],
    ['refunded', true, false],
    ['failed', true, false],
    ['trash', true, false],
  ])('status %s: cancelled %s, waiting to ship %s', (status, cancelled, awaitingShipment) => {
    const order = mapWooCommerceOrder(variant(order727, { status }));
    expect({ cancelled: order.cancelled, awaitingShipment: order.awaitingShipment }).toEqual({
      cancelled,
      awaitingShipment,
    });
  });

  it.each([
    ['cod', 'Cash on delivery', 'cod'],
    ['cod', 'Pay at your door', 'cod'],
    ['wcf_cod_extra', 'Cash On Delivery (extra ₹40)', 'cod'],
    ['partial_cod', 'COD', 'cod'],
    ['razorpay', 'Credit Card/Debit Card/NetBanking', 'prepaid'],
    ['codeword_pay', 'Codeword payments', 'prepaid'],
    ['bacs', 'Direct Bank Transfer', 'prepaid'],
  ])('gateway %s titled "%s" is %s, owing the total at the door when COD', (method, title, kind) => {
    const order = mapWooCommerceOrder(
      variant(indiaCod, { payment_method: method, payment_method_title: title, total: '1299.99' }),
    );
    expect(order.paymentMethod).toBe(kind);
    expect(order.codPaise).toBe(kind === 'cod' ? 129999 : 0);
    expect(order.totalPaise).toBe(129999);
  });

  it('reads an order without the shipping block or its phone anywhere as absent, not empty', () => {
    const blank = { first_name: '', last_name: '', company: '', address_1: '', address_2: '', city: '' };
    const order = mapWooCommerceOrder(
      variant(noShippingPhone, {
        shipping: { ...blank, state: '', postcode: '', country: '', phone: '' },
        billing: { ...(noShippingPhone.billing as Order), phone: '' },
      }),
    );
    expect(order.shipping).toBeNull();
    expect(order.billing?.phone).toBeNull();
  });

  it('divides a line total by its units where a version leaves price out', () => {
    const line = structuredClone(indiaCod.line_items[0]) as Order;
    delete line.price;
    const order = mapWooCommerceOrder(variant(indiaCod, { line_items: [line] }));
    expect(order.lines[0]?.unitPricePaise).toBe(44950);
  });

  it('reads back the HTML entities WordPress stores in names, and leaves what is no entity', () => {
    const line = {
      ...structuredClone(indiaCod.line_items[1]),
      name: 'Chai &amp; Biscuits &#8211; Tin &#x2014; &bogus; &#0;',
    };
    const order = mapWooCommerceOrder(variant(indiaCod, { line_items: [line] }));
    expect(order.lines[0]?.name).toBe('Chai & Biscuits \u2013 Tin \u2014 &bogus; &#0;');
  });

  it('takes a date_created_gmt that carries its own offset as it says', () => {
    const order = mapWooCommerceOrder(variant(order727, { date_created_gmt: '2017-03-22T19:28:02+00:00' }));
    expect(order.createdAt.toISOString()).toBe('2017-03-22T19:28:02.000Z');
  });

  it.each([
    ['a total that is not an amount', { total: '29,35' }, /total is "29,35"/],
    ['no GMT creation date', { date_created_gmt: null }, /date_created_gmt is missing/],
    ['a creation date that is not one', { date_created_gmt: 'yesterday' }, /not a date/],
    ['a line of no units', { line_items: [{ name: 'x', quantity: 0, price: 1 }] }, /quantity is 0/],
    ['no id', { id: '727' }, /id is "727"/],
    ['no lines list', { line_items: null }, /line_items is not a list/],
  ])('refuses %s as malformed, naming the order', (_, change, message) => {
    const attempt = () => mapWooCommerceOrder(variant(order727, change));
    expect(attempt).toThrow(ChannelCallError);
    expect(attempt).toThrow(message);
  });
});
