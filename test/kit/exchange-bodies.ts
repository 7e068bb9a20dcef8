import type { TestContext } from '../app.js';
import { post, V1 } from './http.js';
import { nextOrderId } from './orders.js';

export const EXCHANGE = `${V1}/exchange-order-orchestration`;
export const EXCHANGE_SETTINGS = `${V1}/exchange-settings`;

const BUYER = {
  customer_name: 'Asha',
  last_name: 'Menon',
  address: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  pincode: '400001',
  email: 'asha@example.com',
  phone: '9123456780',
};
const buyerAs = (prefix: 'billing' | 'pickup') =>
  Object.fromEntries(Object.entries(BUYER).map(([name, value]) => [`${prefix}_${name}`, value]));

/**
 * A valid prepaid exchange for a Mumbai buyer (0.5 kg each way, 10x10x10 cm): an L kurta out, the M
 * back with QC asked, from and to the given warehouse; override any field.
 */
export function exchangeBody(warehouseId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: nextOrderId('EXC'),
    order_date: '2026-11-20 14:30',
    payment_method: 'PREPAID',
    return_reason: 'Size too small',
    ...buyerAs('billing'),
    ...buyerAs('pickup'),
    order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-L-BLUE', units: 1, selling_price: 499, discount: 0 }],
    forward_warehouse_id: warehouseId,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    return_items: [
      {
        name: 'Cotton Kurta',
        sku: 'KURTA-M-BLUE',
        units: 1,
        selling_price: 499,
        qc_enable: true,
        qc_product_image: 'https://cdn.acme.example/kurta-blue.jpg',
        qc_size: 'M',
      },
    ],
    ...overrides,
  };
}

/** Books an exchange; fails the test on anything but 200. */
export async function exchange(ctx: TestContext, apiKey: string, body: Record<string, unknown>) {
  const response = await post(ctx, apiKey, EXCHANGE, body);
  if (response.statusCode !== 200) throw new Error(`exchange failed: ${response.statusCode} ${response.body}`);
  return response.json().payload;
}
