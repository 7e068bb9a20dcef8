/** Bengaluru (560001) to Mumbai (400001), zone C: COD ₹1,499, 0.8 kg, two item lines. */
export const benchOrder = (warehouseId: string, orderId: string) => ({
  order_id: orderId,
  order_date: '2026-11-20 14:30',
  billing_customer_name: 'Asha',
  billing_last_name: 'Menon',
  billing_address: '12 Marine Drive',
  billing_city: 'Mumbai',
  billing_pincode: '400001',
  billing_state: 'Maharashtra',
  billing_country: 'India',
  billing_email: 'asha@example.com',
  billing_phone: '+91 91234 56780',
  shipping_is_billing: true,
  order_items: [
    { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 599.5 },
    { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, selling_price: 300 },
  ],
  payment_method: 'COD',
  sub_total: 1499,
  cod_collectible: 1499,
  length: 25,
  breadth: 20,
  height: 8,
  weight: 0.8,
  warehouse_id: warehouseId,
});

/** The warehouse every booking benchmark ships from (Bengaluru, 560001), as POST /warehouse takes it. */
export const BENCH_WAREHOUSE = {
  name: 'Koramangala Fulfilment',
  phone_number: '080 4123 4567',
  address_attributes: {
    street_address: '80 Feet Road',
    zip: '560001',
    city: 'Bengaluru',
    state: 'Karnataka',
    country: 'India',
  },
};
