import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/base/db/client.js';
import {
  type EwayBillGspSimulator,
  GSP_CLIENT_ID,
  GSP_CLIENT_SECRET,
  GSP_EMAIL,
  GSP_GSTIN,
  GSP_PASSWORD,
  GSP_USERNAME,
} from '../../src/demo/simulators/eway-bill-gsp-simulator.js';
import type { TestContext } from '../app.js';
import { authed, FORWARD_ORDER, post, V1 } from './http.js';
import { orderBody } from './orders.js';

// E-way bills generated through the GSP simulator (features/paperwork): the gateway's settings, an
// order that needs a bill, and what was kept of it.

export const EWB_GATEWAY = `${V1}/paperwork-settings/eway-bill-gateway`;

/** The gateway's settings the simulator accepts, with any field replaced. */
export const gatewayBody = (gsp: EwayBillGspSimulator, more: Record<string, unknown> = {}) => ({
  base_url: gsp.baseUrl,
  gstin: GSP_GSTIN,
  email: GSP_EMAIL,
  client_id: GSP_CLIENT_ID,
  client_secret: GSP_CLIENT_SECRET,
  username: GSP_USERNAME,
  password: GSP_PASSWORD,
  ...more,
});

export const setGateway = (ctx: TestContext, apiKey: string, body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PUT', url: EWB_GATEWAY, headers: authed(apiKey), payload: body });

export const generateBill = (ctx: TestContext, apiKey: string, orderId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${V1}/orders/${encodeURIComponent(orderId)}/ewaybill`,
    headers: authed(apiKey),
  });

/** An order of one phone worth `rupees` (HSN 8517, 18 %), stored without a courier (forward-order); its order id. */
export async function storedOrder(
  ctx: TestContext,
  apiKey: string,
  warehouseId: string,
  rupees = 75_000,
  more: Record<string, unknown> = {},
): Promise<string> {
  const body = orderBody(warehouseId, {
    order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: rupees, tax: 18, hsn: '8517' }],
    sub_total: rupees,
    ...more,
  });
  const response = await post(ctx, apiKey, FORWARD_ORDER, body);
  expect(response.statusCode, response.body).toBe(200);
  return String(body.order_id);
}

/** The bill kept on the order. */
export async function orderBill(ctx: TestContext, orderId: string) {
  const [row] = await queryRows<{ ewaybill_no: string | null; ewaybill_date: string | null }>(
    ctx.database.db,
    sql`select ewaybill_no, ewaybill_date::text as ewaybill_date from orders where merchant_order_id = ${orderId}`,
  );
  return row;
}

export const auditEntries = (ctx: TestContext, accountId: string) =>
  queryRows<{ action: string; changes: unknown }>(
    ctx.database.db,
    sql`select action, changes from audit_log where account_id = ${accountId}::uuid order by at, id`,
  );

/** Refused with `status`, and nothing kept: the order has no bill and no generation is audited. */
export async function refusedBill(
  ctx: TestContext,
  m: { id: string; apiKey: string },
  orderId: string,
  status: number,
) {
  const response = await generateBill(ctx, m.apiKey, orderId);
  expect(response.statusCode, response.body).toBe(status);
  expect(await orderBill(ctx, orderId)).toEqual({ ewaybill_no: null, ewaybill_date: null });
  expect((await auditEntries(ctx, m.id)).map((a) => a.action)).not.toContain('ewaybill.generated');
  return response.json() as { code: string; message: string; details?: { field: string; message: string }[] };
}
