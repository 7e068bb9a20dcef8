/** Customers of the demo store: real pincodes across zones, names as an Indian shop would see them. */
export const DEMO_CUSTOMERS = [
  {
    name: 'Asha',
    last: 'Menon',
    address: '12 Marine Drive',
    city: 'Mumbai',
    pincode: '400001',
    state: 'Maharashtra',
    phone: '9123456780',
  },
  {
    name: 'Rohan',
    last: 'Iyer',
    address: '45 Brigade Road',
    city: 'Bengaluru',
    pincode: '560001',
    state: 'Karnataka',
    phone: '9845012345',
  },
  {
    name: 'Farah',
    last: 'Khan',
    address: '7 Park Street',
    city: 'Kolkata',
    pincode: '700016',
    state: 'West Bengal',
    phone: '9830098300',
  },
  {
    name: 'Gurpreet',
    last: 'Singh',
    address: '22 Sector 17',
    city: 'Chandigarh',
    pincode: '160017',
    state: 'Chandigarh',
    phone: '9815098150',
  },
  {
    name: 'Lakshmi',
    last: 'Narayanan',
    address: '3 Anna Salai',
    city: 'Chennai',
    pincode: '600002',
    state: 'Tamil Nadu',
    phone: '9840098400',
  },
  {
    name: 'Arjun',
    last: 'Reddy',
    address: '18 Banjara Hills',
    city: 'Hyderabad',
    pincode: '500034',
    state: 'Telangana',
    phone: '9848098480',
  },
] as const;

export const DEMO_ITEMS = [
  { name: 'Masala Chai Tin 250 g', sku: 'CHAI-MASALA-250', price: 349 },
  { name: 'Assam Gold Loose Leaf 500 g', sku: 'ASSAM-GOLD-500', price: 599 },
  { name: 'Brass Tea Strainer', sku: 'STRAINER-BRASS', price: 249 },
] as const;

/** The demo account's courier allocation rules over the four services booked through courier APIs: each is chosen for some of the demo's orders. */
export const DEMO_ALLOCATION_RULES = [
  {
    name: 'Cash on delivery: Delhivery first',
    priority: 10,
    strategy: 'priority',
    carrier_ids: ['CARDELHSURF01', 'CARSHFXSTD001'],
    conditions: { payment_methods: ['cod'] },
  },
  {
    name: 'Karnataka and Tamil Nadu: the fastest',
    priority: 20,
    strategy: 'fastest',
    carrier_ids: ['CAREKRTSTD001', 'CARXPBSSTD001'],
    conditions: { states: ['Karnataka', 'Tamil Nadu'] },
  },
  {
    name: 'West Bengal: Ekart',
    priority: 30,
    strategy: 'priority',
    carrier_ids: ['CAREKRTSTD001'],
    conditions: { states: ['West Bengal'] },
  },
  {
    name: 'Everything else: the cheapest',
    priority: 40,
    strategy: 'cheapest',
    carrier_ids: ['CARXPBSSTD001', 'CARSHFXSTD001', 'CAREKRTSTD001'],
  },
] as const;

/**
 * The demo store's return policy: a week after delivery, its reasons, a tenth kept and ₹49 for the
 * return's shipping, refunds due at the warehouse; a damaged item of a small order approved at once.
 */
export const DEMO_RETURN_POLICY = {
  window_days: 7,
  reasons: ['damaged', 'wrong_item', 'quality_issue', 'changed_mind', 'other'],
  non_returnable_skus: [],
  non_returnable_categories: [],
  refund_deduction_percent: 10,
  return_shipping_fee: 49,
  refund_release: 'warehouse',
  auto_rules: [{ action: 'approve', when: { reasons: ['damaged'], order_value_max: 500 } }],
};
