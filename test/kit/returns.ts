import { expect } from 'vitest';
import type { TestContext } from '../app.js';
import { post, REVERSE_ORCHESTRATE, REVERSE_ORDER } from './http.js';
import { nextOrderId } from './orders.js';

export const IMAGE = 'https://cdn.acme.example/kurta-blue.jpg';

export const qcItem = (sku = 'KURTA-M-BLUE') => ({
  name: 'Cotton Kurta',
  sku,
  units: 1,
  selling_price: 499,
  discount: 0,
  qc_enable: true,
  qc_product_name: 'Cotton Kurta',
  qc_product_image: IMAGE,
});
export const plainItem = (sku = 'KURTA-M-BLUE') => ({ name: 'Cotton Kurta', sku, units: 1, selling_price: 499, discount: 0 });

export interface ReturnFields {
  qc?: boolean;
  carrierId?: string;
  subTotal?: number;
  sku?: string;
  warehouseId?: string;
  orderId?: string;
}

/** A return from a Mumbai customer (400001) to the merchant's Delhi warehouse. */
export function returnBody(warehouseId: string, f: ReturnFields = {}): Record<string, unknown> {
  return {
    order_id: f.orderId ?? nextOrderId('RET'),
    order_date: '2026-11-20',
    pickup_customer_name: 'Asha',
    pickup_last_name: 'Menon',
    pickup_address: '12 Marine Drive',
    pickup_city: 'Mumbai',
    pickup_state: 'Maharashtra',
    pickup_country: 'India',
    pickup_pincode: '400001',
    pickup_phone: '9123456780',
    order_items: [f.qc ? qcItem(f.sku) : plainItem(f.sku)],
    payment_method: 'PREPAID',
    sub_total: f.subTotal ?? 499,
    length: 10,
    breadth: 10,
    height: 10,
    weight: 0.5,
    warehouse_id: f.warehouseId ?? warehouseId,
    ...(f.carrierId !== undefined && { carrier_id: f.carrierId }),
  };
}

export interface BookedReturn {
  return_id: string;
  shipment_id: string;
  order_id: string;
  awb_code: string | null;
  courier_company_id: string | null;
  qc_enabled: 0 | 1;
}

/** Creates a return and, unless `book` is false, books its courier (orchestration). */
export async function bookReturn(ctx: TestContext, apiKey: string, warehouseId: string, f: ReturnFields = {}, book = true): Promise<BookedReturn> {
  const response = await post(ctx, apiKey, book ? REVERSE_ORCHESTRATE : REVERSE_ORDER, returnBody(warehouseId, f));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().payload;
}
