import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from '../app.js';
import { SHADOWFAX } from './couriers.js';
import { authed, post, V1 } from './http.js';
import { book } from './orders.js';
import { issueCarrierToken, sendEvents } from './tracking.js';

// The COD ledger: shipments delivered with cash to collect, and remittance files about them.

export const COD_FILES = `${V1}/cod/remittance-files`;
export const COD_REMITTANCE = `${V1}/cod-remittance`;
export const SETTLEMENT_STATUS = `${V1}/settlement-status`;

/** The instant the parcels of `deliverCod` are delivered: Friday 2026-11-20, 17:00 India time. */
export const DELIVERED_AT = '2026-11-20T11:30:00.000Z';

/**
 * Books one shipment per rupee value (COD unless `prepaid`), on `carrierId`, and walks each to
 * `end` (delivered, or an RTO). The test clock ends at 12:00Z on the delivery day.
 */
export async function shipCod(
  ctx: TestContext,
  owner: { apiKey: string; warehouseId: string },
  values: number[],
  {
    carrierId = SHADOWFAX,
    end = 'delivered',
    prepaid = false,
  }: { carrierId?: string; end?: 'delivered' | 'rto_initiated'; prepaid?: boolean } = {},
): Promise<string[]> {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const awbs: string[] = [];
  for (const value of values)
    awbs.push((await book(ctx, owner.apiKey, owner.warehouseId, { cod: !prepaid, value, carrierId })).awb_code!);
  ctx.clock.set('2026-11-20T12:00:00.000Z');
  const token = await issueCarrierToken(ctx, carrierId);
  const walk =
    end === 'delivered'
      ? [
          { status: 'picked_up', event_time: '2026-11-20T07:00:00Z' },
          { status: 'in_transit', event_time: '2026-11-20T08:00:00Z' },
          { status: 'delivered', event_time: DELIVERED_AT },
        ]
      : [
          { status: 'picked_up', event_time: '2026-11-20T07:00:00Z' },
          { status: 'in_transit', event_time: '2026-11-20T08:00:00Z' },
          { status: 'rto_initiated', rto_reason: 'customer_refused', event_time: DELIVERED_AT },
        ];
  await sendEvents(
    ctx,
    token,
    awbs.flatMap((awb) => walk.map((step) => ({ awb, ...step }))),
  );
  return awbs;
}

/** POSTs a remittance file as JSON. */
export const importRemittances = (ctx: TestContext, apiKey: string, file: string): Promise<LightMyRequestResponse> =>
  post(ctx, apiKey, COD_FILES, { file });

/** A file in Dakiya's columns. */
export const dakiyaFile = (lines: [awb: string, amount: string, utr: string, date: string][]) =>
  `awb,amount,utr,remittance_date\n${lines.map((l) => l.join(',')).join('\n')}\n`;

export const get = (ctx: TestContext, apiKey: string, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });

/** A listing's JSON (GET), failing on anything but 200. */
export async function listed(ctx: TestContext, apiKey: string, url: string) {
  const response = await get(ctx, apiKey, url);
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}
