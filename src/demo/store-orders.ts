import type { SimShopifyOrder } from './simulators/shopify-simulator.js';

// The demo stores' orders, in the shapes the Shopify and WooCommerce fixtures show
// (src/channels/fixtures/): a Shopify order both as the GraphQL Admin API answers a pull and as
// its orders/create webhook sends it, and a WooCommerce REST v3 order (the body of order.created
// too). Buyers across India, tea and tableware, some paid at the door.

interface Buyer {
  first: string;
  last: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  /** ISO 3166-2:IN subdivision code, as both platforms keep it. */
  stateCode: string;
  pincode: string;
  phone: string;
}

const BUYERS: readonly Buyer[] = [
  {
    first: 'Meera',
    last: 'Pillai',
    address1: 'Flat 4B, Sea Breeze Apartments',
    address2: 'Carter Road, Bandra West',
    city: 'Mumbai',
    state: 'Maharashtra',
    stateCode: 'MH',
    pincode: '400050',
    phone: '9820098201',
  },
  {
    first: 'Kabir',
    last: 'Malhotra',
    address1: 'H.No. 221, Sector 15A',
    address2: 'Near Town Park',
    city: 'Faridabad',
    state: 'Haryana',
    stateCode: 'HR',
    pincode: '121007',
    phone: '9810098102',
  },
  {
    first: 'Ananya',
    last: 'Bose',
    address1: '14/2 Ballygunge Place',
    address2: 'Ballygunge',
    city: 'Kolkata',
    state: 'West Bengal',
    stateCode: 'WB',
    pincode: '700019',
    phone: '9831098313',
  },
  {
    first: 'Vikram',
    last: 'Shetty',
    address1: 'No. 58, 9th Main, HAL 2nd Stage',
    address2: 'Indiranagar',
    city: 'Bengaluru',
    state: 'Karnataka',
    stateCode: 'KA',
    pincode: '560038',
    phone: '9886098864',
  },
  {
    first: 'Divya',
    last: 'Subramanian',
    address1: 'Old No. 12, New No. 27, 2nd Street',
    address2: 'Mylapore',
    city: 'Chennai',
    state: 'Tamil Nadu',
    stateCode: 'TN',
    pincode: '600004',
    phone: '9840198405',
  },
  {
    first: 'Rahul',
    last: 'Joshi',
    address1: 'A-302, Shanti Kunj',
    address2: 'Kothrud',
    city: 'Pune',
    state: 'Maharashtra',
    stateCode: 'MH',
    pincode: '411038',
    phone: '9822098226',
  },
  {
    first: 'Sana',
    last: 'Qureshi',
    address1: '3-6-145, Himayatnagar',
    address2: 'Near Liberty',
    city: 'Hyderabad',
    state: 'Telangana',
    stateCode: 'TG',
    pincode: '500029',
    phone: '9849098497',
  },
];

const PRODUCTS = [
  { title: 'Darjeeling First Flush 100 g', sku: 'DJ-FF-100', price: 650, grams: 150 },
  { title: 'Assam Breakfast Tea 500 g', sku: 'AS-BF-500', price: 420, grams: 560 },
  { title: 'Kulhad Set of 6', sku: 'KUL-6', price: 399, grams: 900 },
  { title: 'Nilgiri Frost Tea 250 g', sku: 'NG-FR-250', price: 540, grams: 300 },
  { title: 'Brass Tea Strainer', sku: 'BR-STR-01', price: 275, grams: 120 },
] as const;

/** One demo order's facts, the same whichever platform carries it. */
interface Sale {
  buyer: Buyer;
  product: (typeof PRODUCTS)[number];
  units: number;
  cod: boolean;
  total: number;
  email: string;
  at: string;
}

function saleOf(n: number): Sale {
  const buyer = BUYERS[n % BUYERS.length]!;
  const product = PRODUCTS[(n * 3) % PRODUCTS.length]!;
  const units = 1 + (n % 3);
  return {
    buyer,
    product,
    units,
    cod: n % 2 === 0,
    total: product.price * units,
    email: `${buyer.first.toLowerCase()}.${buyer.last.toLowerCase()}@example.in`,
    at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

const amount = (rupees: number) => rupees.toFixed(2);
const gqlMoney = (rupees: number) => ({ shopMoney: { amount: amount(rupees), currencyCode: 'INR' } });
const restMoney = (rupees: number) => ({
  shop_money: { amount: amount(rupees), currency_code: 'INR' },
  presentment_money: { amount: amount(rupees), currency_code: 'INR' },
});

/** The nth Shopify order: its GraphQL node for the simulator, and its orders/create webhook body. */
export function shopifyDemoOrder(n: number): { node: SimShopifyOrder; webhook: Record<string, unknown> } {
  const sale = saleOf(n);
  const { buyer, product } = sale;
  const id = 5_900_000_000 + n;
  const name = `#${1000 + n}`;
  const gateways = sale.cod ? ['Cash on Delivery (COD)'] : ['Razorpay'];
  const gqlAddress = {
    firstName: buyer.first,
    lastName: buyer.last,
    address1: buyer.address1,
    address2: buyer.address2,
    city: buyer.city,
    province: buyer.state,
    provinceCode: buyer.stateCode,
    zip: buyer.pincode,
    phone: `+91${buyer.phone}`,
    countryCodeV2: 'IN',
  };
  const node: SimShopifyOrder = {
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: String(id),
    name,
    createdAt: sale.at,
    cancelledAt: null,
    closedAt: null,
    displayFinancialStatus: sale.cod ? 'PENDING' : 'PAID',
    displayFulfillmentStatus: 'UNFULFILLED',
    paymentGatewayNames: gateways,
    email: sale.email,
    totalPriceSet: gqlMoney(sale.total),
    subtotalPriceSet: gqlMoney(sale.total),
    totalDiscountsSet: gqlMoney(0),
    totalTaxSet: gqlMoney(0),
    totalShippingPriceSet: gqlMoney(0),
    totalOutstandingSet: gqlMoney(sale.cod ? sale.total : 0),
    shippingAddress: gqlAddress,
    billingAddress: gqlAddress,
    lineItems: [
      {
        title: product.title,
        sku: product.sku,
        quantity: sale.units,
        originalUnitPriceSet: gqlMoney(product.price),
        discountedUnitPriceSet: gqlMoney(product.price),
        variant: { inventoryItem: { measurement: { weight: { value: product.grams, unit: 'GRAMS' } } } },
      },
    ],
  };
  const restAddress = {
    first_name: buyer.first,
    last_name: buyer.last,
    address1: buyer.address1,
    address2: buyer.address2,
    city: buyer.city,
    zip: buyer.pincode,
    province: buyer.state,
    country: 'India',
    country_code: 'IN',
    province_code: buyer.stateCode,
    phone: `+91${buyer.phone}`,
    company: null,
    name: `${buyer.first} ${buyer.last}`,
  };
  const webhook = {
    id,
    admin_graphql_api_id: node.id,
    name,
    number: n,
    order_number: 1000 + n,
    email: sale.email,
    phone: null,
    created_at: sale.at,
    currency: 'INR',
    financial_status: sale.cod ? 'pending' : 'paid',
    fulfillment_status: null,
    cancelled_at: null,
    closed_at: null,
    payment_gateway_names: gateways,
    total_price: amount(sale.total),
    subtotal_price: amount(sale.total),
    total_discounts: '0.00',
    total_tax: '0.00',
    total_outstanding: amount(sale.cod ? sale.total : 0),
    total_price_set: restMoney(sale.total),
    total_shipping_price_set: restMoney(0),
    line_items: [
      {
        id: id * 10 + 1,
        title: product.title,
        name: product.title,
        sku: product.sku,
        quantity: sale.units,
        price: amount(product.price),
        grams: product.grams,
        total_discount: '0.00',
        discount_allocations: [],
        requires_shipping: true,
        fulfillment_status: null,
        price_set: restMoney(product.price),
      },
    ],
    shipping_address: restAddress,
    billing_address: restAddress,
    shipping_lines: [],
  };
  return { node, webhook };
}

/** The nth WooCommerce order, as GET /wc/v3/orders/{id} answers it and order.created sends it. */
export function wooCommerceDemoOrder(n: number): Record<string, unknown> {
  const sale = saleOf(n + 3);
  const { buyer, product } = sale;
  const id = 8100 + n;
  const address = {
    first_name: buyer.first,
    last_name: buyer.last,
    company: '',
    address_1: buyer.address1,
    address_2: buyer.address2,
    city: buyer.city,
    state: buyer.stateCode,
    postcode: buyer.pincode,
    country: 'IN',
    phone: buyer.phone,
  };
  const local = new Date(Date.parse(sale.at) + 330 * 60_000).toISOString().slice(0, 19);
  return {
    id,
    parent_id: 0,
    number: String(id),
    order_key: `wc_order_demo${id}`,
    created_via: 'checkout',
    version: '9.4.2',
    status: 'processing',
    currency: 'INR',
    date_created: local,
    date_created_gmt: sale.at.slice(0, 19),
    date_modified: local,
    date_modified_gmt: sale.at.slice(0, 19),
    discount_total: '0.00',
    discount_tax: '0.00',
    shipping_total: '0.00',
    shipping_tax: '0.00',
    cart_tax: '0.00',
    total: amount(sale.total),
    total_tax: '0.00',
    prices_include_tax: true,
    customer_id: 0,
    customer_note: '',
    billing: { ...address, email: sale.email },
    shipping: address,
    payment_method: sale.cod ? 'cod' : 'razorpay',
    payment_method_title: sale.cod ? 'Cash on delivery' : 'Credit Card/Debit Card/NetBanking',
    transaction_id: sale.cod ? '' : `pay_Demo${id}`,
    date_paid: sale.cod ? null : local,
    date_paid_gmt: sale.cod ? null : sale.at.slice(0, 19),
    meta_data: [],
    line_items: [
      {
        id: id * 10 + 1,
        name: product.title,
        product_id: 400 + PRODUCTS.indexOf(product),
        variation_id: 0,
        quantity: sale.units,
        tax_class: '',
        subtotal: amount(sale.total),
        subtotal_tax: '0.00',
        total: amount(sale.total),
        total_tax: '0.00',
        taxes: [],
        meta_data: [],
        sku: product.sku,
        price: product.price,
      },
    ],
    tax_lines: [],
    shipping_lines: [],
    fee_lines: [],
    coupon_lines: [],
    refunds: [],
  };
}
