import type { CourierSettings } from '../base/config.js';
import type { ConnectorName } from '../domain/rates/catalogue.js';
import { SIM_TOKEN, startDelhiverySimulator } from './simulators/delhivery-simulator.js';
import { EKART_CLIENT, EKART_PASSWORD, EKART_USER, startEkartSimulator } from './simulators/ekart-simulator.js';
import { SHADOWFAX_TOKEN, startShadowfaxSimulator } from './simulators/shadowfax-simulator.js';
import { startXpressbeesSimulator, XPRESSBEES_EMAIL, XPRESSBEES_PASSWORD } from './simulators/xpressbees-simulator.js';

/** The catalogue's services the demo books through a courier's API (data/couriers.json). */
export const DEMO_COURIER_SERVICES: Readonly<Record<string, ConnectorName>> = {
  CARDELHSURF01: 'delhivery',
  CAREKRTSTD001: 'ekart',
  CARXPBSSTD001: 'xpressbees',
  CARSHFXSTD001: 'shadowfax',
};

const EKART_WEBHOOK_SECRET = 'demo-ekart-hook';
/** A parcel's journey, one scan a step: picked up, in transit, out for delivery, delivered. */
const JOURNEY_STEPS = 4;

/** A scan time that the courier's clock gives after the parcel's last one (Xpressbees counts whole minutes). */
function nextScanTime(last: number | undefined): Date {
  return new Date(Math.max(Date.now(), (last ?? 0) + 61_000));
}
/** The AWBs of the parcels a simulator holds that were not cancelled. */
const awbsNotCancelled = <T extends { cancelled: boolean }>(parcels: Iterable<T>, awbOf: (parcel: T) => string) => [...parcels].filter((p) => !p.cancelled).map(awbOf);
/** India local time (UTC+5:30) as `YYYY-MM-DDTHH:mm:ss`, the way these couriers stamp scans. */
const indiaLocal = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 19);

/**
 * The four courier APIs Dakiya connects to, each a local simulator speaking the courier's
 * documented shapes (the ones the connectors' tests use), for `npm run demo`: Dakiya books, labels,
 * cancels and polls through them as it would through the couriers, and Ekart also posts each scan
 * to Dakiya's webhook. `advance()` moves every parcel one scan along its journey.
 */
export async function startCourierSimulators() {
  const [delhivery, ekart, xpressbees, shadowfax] = await Promise.all([
    startDelhiverySimulator(),
    startEkartSimulator(),
    startXpressbeesSimulator(),
    startShadowfaxSimulator(),
  ]);
  const progress = new Map<string, { step: number; lastAt?: number }>();

  /** Each courier's scan for a step of the journey, in its own words. */
  const scanners: { parcels: () => string[]; scan: (awb: string, step: number, at: Date) => Promise<void> | void }[] = [
    {
      parcels: () => awbsNotCancelled(delhivery.packages.values(), (p) => p.waybill),
      scan: (awb, step, at) => {
        const [type, word, code, text] = (
          [
            ['UD', 'In Transit', 'X-PPOM', 'Shipment picked up'],
            ['UD', 'In Transit', 'X-ILL1F', 'Received at destination facility'],
            ['UD', 'Dispatched', 'X-DDD3FD', 'Out for delivery'],
            ['DL', 'Delivered', 'EOD-38', 'Delivered to consignee'],
          ] as const
        )[step]!;
        delhivery.scan(awb, { ScanType: type, Scan: word, StatusCode: code, ScanDateTime: indiaLocal(at), Instructions: text, ScannedLocation: 'Delhi' });
      },
    },
    {
      parcels: () => awbsNotCancelled(ekart.packages.values(), (p) => p.trackingId),
      scan: (awb, step, at) => {
        const [status, desc] = ([['Picked Up', 'Shipment picked up'], ['In Transit', 'Reached destination hub'], ['Out for Delivery', 'Out for delivery'], ['Delivered', 'Delivered to customer']] as const)[step]!;
        return ekart.scan(awb, { status, ctime: at.getTime(), desc, location: 'Delhi' });
      },
    },
    {
      parcels: () => awbsNotCancelled(xpressbees.shipments.values(), (p) => p.awb),
      scan: (awb, step, at) => {
        const [code, message] = ([['PKD', 'Shipment picked up'], ['IT', 'In transit'], ['OFD', 'Out for delivery'], ['DL', 'Delivered']] as const)[step]!;
        xpressbees.scan(awb, { status_code: code, event_time: indiaLocal(at).slice(0, 16).replace('T', ' '), message, location: 'Delhi' });
      },
    },
    {
      parcels: () => awbsNotCancelled(shadowfax.orders.values(), (p) => p.awb),
      scan: (awb, step, at) => {
        const [id, status] = ([['picked', 'Picked'], ['in_transit', 'In Transit'], ['ofd', 'Out For Delivery'], ['delivered', 'Delivered']] as const)[step]!;
        shadowfax.scan(awb, { status_id: id, status, remarks: status, created: `${indiaLocal(at)}+05:30`, location: 'Delhi' });
      },
    },
  ];

  return {
    /** The server's courier settings with each courier's credentials and base URL pointing at its simulator. */
    settings: (base: CourierSettings): CourierSettings => ({
      ...base,
      delhivery: { token: SIM_TOKEN, baseUrl: delhivery.baseUrl },
      ekart: { clientId: EKART_CLIENT, username: EKART_USER, password: EKART_PASSWORD, baseUrl: ekart.baseUrl, webhookSecret: EKART_WEBHOOK_SECRET },
      xpressbees: { email: XPRESSBEES_EMAIL, password: XPRESSBEES_PASSWORD, baseUrl: xpressbees.baseUrl },
      shadowfax: { token: SHADOWFAX_TOKEN, baseUrl: shadowfax.baseUrl },
    }),
    /** As an operator does once at Ekart: a token, then the webhook with Dakiya's URL and the shared secret. */
    async registerEkartWebhook(url: string) {
      const token = (await (
        await fetch(`${ekart.baseUrl}/integrations/v2/auth/token/${EKART_CLIENT}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: EKART_USER, password: EKART_PASSWORD }),
        })
      ).json()) as { access_token: string };
      const registered = await fetch(`${ekart.baseUrl}/api/v2/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ url, secret: EKART_WEBHOOK_SECRET, topics: ['track_updated'] }),
      });
      if (!registered.ok) throw new Error(`the Ekart simulator refused the webhook: ${registered.status} ${await registered.text()}`);
    },
    /** One more scan for every parcel not yet delivered. */
    async advance() {
      for (const { parcels, scan } of scanners) {
        for (const awb of parcels()) {
          const parcel = progress.get(awb) ?? { step: 0 };
          if (parcel.step >= JOURNEY_STEPS) continue;
          const at = nextScanTime(parcel.lastAt);
          await scan(awb, parcel.step, at);
          progress.set(awb, { step: parcel.step + 1, lastAt: at.getTime() });
        }
      }
    },
    async close() {
      await Promise.all([delhivery.close(), ekart.close(), xpressbees.close(), shadowfax.close()]);
    },
  };
}
