import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelOrder } from './channel-adapter.js';
import { isCodGateway, orderFromGraphql, orderFromWebhook, parseWebhookBody, weightToGrams } from './shopify-orders.js';

const raw = (name: string) => readFileSync(new URL(`./fixtures/shopify/${name}`, import.meta.url), 'utf8');
const webhook = (name: string) => orderFromWebhook(parseWebhookBody(raw(name)));
const page = JSON.parse(raw('graphql-orders-page.json'));
const node = (i: number) => orderFromGraphql(page.data.orders.edges[i].node);

const cases: { fixture: string; order: () => ChannelOrder; expected: Partial<ChannelOrder> }[] = [
  {
    fixture: 'webhook-orders-create-draft.json (itakastudio capture: manual gateway, no address)',
    order: () => webhook('webhook-orders-create-draft.json'),
    expected: {
      channelOrderId: '6200407294252',
      currency: 'INR',
      channelOrderName: '#1071',
      createdAt: new Date('2025-01-24T04:10:15Z'),
      cancelled: false,
      awaitingShipment: true,
      paymentMethod: 'prepaid',
      codPaise: 0,
      totalPaise: 18690,
      subTotalPaise: 16490,
      discountPaise: 3410,
      taxPaise: 0,
      shippingPaise: 2200,
      email: null,
      shipping: null,
      billing: null,
      lines: [
        { name: 'Green Snowboard', sku: null, units: 1, unitPricePaise: 8000, unitWeightGrams: null, category: null },
        {
          name: 'Selling Plans Ski Wax',
          sku: 'SKI-WAX',
          units: 2,
          unitPricePaise: 4245,
          unitWeightGrams: 57,
          category: null,
        },
      ],
    },
  },
  {
    fixture: 'webhook-orders-create-cod-inr.json (Cash on Delivery (COD), pending)',
    order: () => webhook('webhook-orders-create-cod-inr.json'),
    expected: {
      channelOrderId: '5412873601234',
      channelOrderName: '#2041',
      createdAt: new Date('2025-01-15T15:30:00Z'),
      awaitingShipment: true,
      paymentMethod: 'cod',
      codPaise: 299900,
      totalPaise: 299900,
      subTotalPaise: 279900,
      discountPaise: 10000,
      taxPaise: 42700,
      shippingPaise: 20000,
      email: 'asha.rao@example.in',
      shipping: {
        firstName: 'Asha',
        lastName: 'Rao',
        address1: '12, 3rd Cross, MG Road',
        address2: 'Near Trinity Metro',
        city: 'Bengaluru',
        state: 'Karnataka',
        pincode: '560001',
        phone: '+919876543210',
        countryCode: 'IN',
      },
      lines: [
        {
          name: 'Handloom Cotton Saree',
          sku: 'SAR-IND-01',
          units: 1,
          unitPricePaise: 279900,
          unitWeightGrams: 650,
          category: null,
        },
      ],
    },
  },
  {
    fixture: "webhook-test-notification.json (Shopify's sample: id past 2^53, visa/bogus, cancelled)",
    order: () => webhook('webhook-test-notification.json'),
    expected: {
      channelOrderId: '820982911946154508',
      currency: 'USD',
      channelOrderName: '#9999',
      cancelled: true,
      awaitingShipment: false,
      paymentMethod: 'prepaid',
      codPaise: 0,
      totalPaise: 40300,
      shippingPaise: 1000,
      email: 'jon@doe.ca',
      lines: [
        {
          name: 'IPod Nano - 8GB',
          sku: 'IPOD2008PINK',
          units: 1,
          unitPricePaise: 19900,
          unitWeightGrams: 567,
          category: null,
        },
        {
          name: 'IPod Nano - 8GB',
          sku: 'IPOD2008PINK',
          units: 1,
          unitPricePaise: 19400,
          unitWeightGrams: 567,
          category: null,
        },
      ],
    },
  },
  {
    fixture: 'graphql-orders-page.json #1042 (COD pending, kilograms)',
    order: () => node(0),
    expected: {
      channelOrderId: '5847392847',
      currency: 'INR',
      channelOrderName: '#1042',
      createdAt: new Date('2025-01-15T15:30:00Z'),
      awaitingShipment: true,
      paymentMethod: 'cod',
      codPaise: 129900,
      totalPaise: 129900,
      taxPaise: 19815,
      email: 'asha@example.in',
      lines: [
        { name: 'Kurta', sku: 'KUR-M', units: 1, unitPricePaise: 129900, unitWeightGrams: 400, category: 'Kurtas' },
      ],
    },
  },
  {
    fixture: 'graphql-orders-page.json #1043 (prepaid PAID, ounces, a line without a variant)',
    order: () => node(1),
    expected: {
      channelOrderId: '5847392848',
      paymentMethod: 'prepaid',
      awaitingShipment: true,
      codPaise: 0,
      totalPaise: 245000,
      subTotalPaise: 250000,
      discountPaise: 10000,
      shippingPaise: 5000,
      lines: [
        {
          name: 'Leather Wallet',
          sku: 'WAL-BRN',
          units: 2,
          unitPricePaise: 120000,
          unitWeightGrams: 150,
          category: 'Wallets',
        },
        { name: 'Gift wrap', sku: null, units: 1, unitPricePaise: 5000, unitWeightGrams: null, category: null },
      ],
    },
  },
  {
    fixture: 'graphql-orders-page.json #1044 (partial-prepaid COD owes only the outstanding, pounds)',
    order: () => node(2),
    expected: {
      channelOrderId: '5847392849',
      paymentMethod: 'cod',
      awaitingShipment: true,
      codPaise: 170000,
      totalPaise: 189900,
      email: null,
      lines: [
        {
          name: 'Filter Coffee Set',
          sku: 'FCS-01',
          units: 1,
          unitPricePaise: 189900,
          unitWeightGrams: 499,
          category: null,
        },
      ],
    },
  },
];

describe('Shopify orders mapped to ChannelOrder', () => {
  it.each(cases)('$fixture', ({ order, expected }) => {
    expect(order()).toMatchObject(expected);
  });

  it('reads the state from the province code when the name is missing, and a null phone as null', () => {
    const n = structuredClone(page.data.orders.edges[2].node);
    n.shippingAddress.province = null;
    expect(orderFromGraphql(n).shipping).toMatchObject({ state: 'TN', phone: null, address2: null });
  });

  it('a prepaid order still pending is not waiting to ship; a COD one is', () => {
    const prepaid = structuredClone(page.data.orders.edges[1].node);
    prepaid.displayFinancialStatus = 'PENDING';
    expect(orderFromGraphql(prepaid).awaitingShipment).toBe(false);
    expect(node(0).awaitingShipment).toBe(true);
    const fulfilled = structuredClone(page.data.orders.edges[0].node);
    fulfilled.displayFulfillmentStatus = 'FULFILLED';
    expect(orderFromGraphql(fulfilled).awaitingShipment).toBe(false);
  });

  it('falls back to the older top-level gateway when payment_gateway_names is absent', () => {
    const body = JSON.parse(raw('webhook-orders-create-cod-inr.json'));
    delete body.payment_gateway_names;
    expect(orderFromWebhook(body).paymentMethod).toBe('cod');
    body.gateway = 'razorpay';
    expect(orderFromWebhook(body).paymentMethod).toBe('prepaid');
  });

  it.each([
    [['Cash on Delivery (COD)'], true],
    [['Cash on Delivery'], true],
    [['Gokwik COD'], true],
    [['gokwik_cod'], true],
    [['visa', 'bogus'], false],
    [['manual'], false],
    [['Codex Pay'], false],
    [[], false],
  ])('gateways %j are COD: %s', (names, cod) => {
    expect(isCodGateway(names)).toBe(cod);
  });

  it.each([
    [{ value: 0.4, unit: 'KILOGRAMS' }, 400],
    [{ value: 250, unit: 'GRAMS' }, 250],
    [{ value: 5.3, unit: 'OUNCES' }, 150],
    [{ value: 1.1, unit: 'POUNDS' }, 499],
    [{ value: 0, unit: 'GRAMS' }, null],
    [{ value: 1, unit: 'STONES' }, null],
    [null, null],
  ])('weight %j is %s grams', (weight, grams) => {
    expect(weightToGrams(weight)).toBe(grams);
  });

  it('refuses an order without an id, a readable date or readable money', () => {
    expect(() => orderFromWebhook({ name: '#1' })).toThrow(/without an id/);
    expect(() => orderFromWebhook({ id: 1, created_at: 'yesterday' })).toThrow(/creation time/);
    expect(() => orderFromWebhook({ id: 1, created_at: '2025-01-01T00:00:00Z', total_price: 'ten' })).toThrow(/total/);
    expect(() => parseWebhookBody('{')).toThrow(/not JSON/);
  });

  it('keeps big ids whole but leaves the same letters inside a string alone', () => {
    const body = parseWebhookBody('{"id": 820982911946154508, "note": "{\\"id\\": 1234567890123456789}"}');
    expect(body).toEqual({ id: '820982911946154508', note: '{"id": 1234567890123456789}' });
  });
});
