import type { TestContext } from '../app.js';
import { post, SHIPMENTS } from './http.js';

// The shipment listing (POST /custom/api/v1/shipments).

export interface ShipmentElement {
  id: string;
  type: 'shipment';
  attributes: {
    tracking_number: string | null;
    label_url: string | null;
    status: string;
    sub_status: string | null;
    created_at: string;
    warehouse_id: string;
    total_price: number;
    cod_amount: number;
    is_cod: boolean;
    zone: string;
    applied_weight: { value: number; metric_unit: 'g' };
    attempt_count: number;
    manifested: boolean;
    pickup_id: string | null;
    carrier: { id: string; name: string } | null;
    order: {
      id: string;
      order_date: string;
      channel: string;
      display_id: string;
      external_id: string;
      store_name: string | null;
      channel_order_id: string | null;
      channel_order_name: string | null;
    };
    items: { id: string; quantity: number; price: number; name: string; sku: string }[];
    shipping_address: {
      name: string;
      phone: string;
      alternate_phone: string | null;
      city: string;
      state: string;
      zip: string;
    };
    shipment_milestones: { milestone: string; milestone_at: string }[];
    tracking_details: {
      id: string;
      status: string;
      last_location: string | null;
      event_date_time: string;
      description: string | null;
    }[];
  };
}

export interface Listing {
  data: ShipmentElement[];
  meta: { current_page: number; per_page: number; total: number; next_search_after: [string, string] | null };
}

export async function list(ctx: TestContext, apiKey: string, body: Record<string, unknown> = {}): Promise<Listing> {
  const response = await post(ctx, apiKey, SHIPMENTS, body);
  if (response.statusCode !== 200) throw new Error(`listing failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The shipment ids a listing returns, in order (per_page 100 so small fixtures fit one page). */
export async function listIds(ctx: TestContext, apiKey: string, body: Record<string, unknown> = {}): Promise<string[]> {
  return (await list(ctx, apiKey, { per_page: 100, ...body })).data.map((s) => s.id);
}

/** One shipment as the listing shows it. */
export async function listed(ctx: TestContext, apiKey: string, shipmentId: string): Promise<ShipmentElement> {
  const { data } = await list(ctx, apiKey, { per_page: 100 });
  const found = data.find((s) => s.id === shipmentId);
  if (!found) throw new Error(`shipment ${shipmentId} not in the first 100 listed`);
  return found;
}
