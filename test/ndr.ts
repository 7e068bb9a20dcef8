import type { CarrierEvent } from '../src/couriers/carrier-event.js';
import { type TestContext, useTestApp } from './app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from './kit/couriers.js';
import { authed } from './kit/http.js';
import { book } from './kit/orders.js';
import { at, issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';

// What ndr.once.test.ts and ndr-carrier-actions.once.test.ts share: the NDR routes, the moment they act at,
// the scans that fail a delivery, and the app with its courier tokens and requests.

export const REATTEMPT = '/custom/api/v1/reattempt';
export const RTO = '/custom/api/v1/initiate-rto';
export const ACTIONS = '/carrier/v1/actions';
export const NOW = '2026-11-20T10:00:00.000Z';

export const PICKED_UP: CarrierEvent[] = [
  { awb: '', status: 'in_transit', sub_status: 'picked_up', event_time: at(10) },
];
export const FAILED_ONCE: CarrierEvent[] = [
  ...PICKED_UP,
  { awb: '', status: 'out_for_delivery', event_time: at(60) },
  { awb: '', status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: at(90) },
];

/**
 * The file's app with a Shadowfax and a Delhivery Surface courier token, made before its first test
 * (`ready` receives them) and closed after its last; and the requests its tests send.
 */
export function useNdrApp(ready: (ctx: TestContext, tokens: { shadowfax: string; delhivery: string }) => void) {
  let ctx: TestContext;
  let shadowfax: string;
  useTestApp(async (app) => {
    ctx = app;
    shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
    ready(ctx, { shadowfax, delhivery: await issueCarrierToken(ctx, DELHIVERY_SURFACE) });
  });

  /** A new merchant with one Shadowfax shipment to Mumbai (400001) that has been through `events`. */
  async function shipment(events: CarrierEvent[] = FAILED_ONCE) {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const booked = await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey));
    const awb = booked.awb_code!;
    ctx.clock.set(NOW);
    if (events.length > 0)
      await sendEvents(
        ctx,
        shadowfax,
        events.map((e) => ({ ...e, awb })),
      );
    return { apiKey, awb, shipmentId: booked.shipment_id };
  }

  const reattempt = (apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: REATTEMPT, headers: { ...authed(apiKey), ...headers }, payload: body });

  const carrierGet = (token: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `${ACTIONS}${query}`, headers: authed(`Bearer ${token}`) });
  const ack = (token: string, id: string) =>
    ctx.app.inject({ method: 'POST', url: `${ACTIONS}/${id}/ack`, headers: authed(`Bearer ${token}`) });

  return { shipment, reattempt, carrierGet, ack };
}
