import type { CourierSettings } from '../couriers/couriers.settings.js';
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

/** The moments of a parcel's journey a courier scans, each written in every courier's own words below. */
type Moment =
  | 'picked_up'
  | 'in_transit'
  | 'out_for_delivery'
  | 'delivered'
  | 'undelivered'
  | 'rto_in_transit'
  | 'rto_delivered';
/** A parcel's journey, one scan a step: picked up, in transit, out for delivery, delivered. */
const DELIVERED: readonly Moment[] = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'];
/** The first attempt fails; the courier then waits for the merchant's decision (holdAtNdr). */
const FAILED_ATTEMPT: readonly Moment[] = ['picked_up', 'in_transit', 'out_for_delivery', 'undelivered'];
/** After the merchant's reattempt, or their return to origin, as the courier took it. */
const AFTER: Record<NdrDecision, readonly Moment[]> = {
  reattempt: ['out_for_delivery', 'delivered'],
  rto: ['rto_in_transit', 'rto_delivered'],
};

/** What the merchant decided about a failed delivery, once the courier has the instruction; undefined before. */
export type NdrDecision = 'reattempt' | 'rto';

/** A scan time that the courier's clock gives after the parcel's last one (Xpressbees counts whole minutes). */
function nextScanTime(last: number | undefined): Date {
  return new Date(Math.max(Date.now(), (last ?? 0) + 61_000));
}
/**
 * The AWBs of the parcels a simulator holds that are on their way: not cancelled, or cancelled after
 * their first scan, which some couriers take as the merchant's return to origin (Shadowfax's RTS).
 */
const awbsOnTheirWay = <T extends { cancelled: boolean }>(
  parcels: Iterable<T>,
  scanned: (parcel: T) => readonly unknown[],
  awbOf: (parcel: T) => string,
) => [...parcels].filter((p) => !p.cancelled || scanned(p).length > 0).map(awbOf);
/** India local time (UTC+5:30) as `YYYY-MM-DDTHH:mm:ss`, the way these couriers stamp scans. */
const indiaLocal = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 19);

/**
 * The four courier APIs Dakiya connects to, each a local simulator speaking the courier's
 * documented shapes (the ones the connectors' tests use), for `npm run demo`: Dakiya books, labels,
 * cancels, instructs and polls through them as it would through the couriers, and Ekart also posts
 * each scan to Dakiya's webhook. `advance()` moves every parcel one scan along its journey; a parcel
 * held at an NDR (holdAtNdr) fails its first delivery, each courier giving its own reason, and then
 * waits until the merchant's decision reaches the courier.
 */
export async function startCourierSimulators() {
  const [delhivery, ekart, xpressbees, shadowfax] = await Promise.all([
    startDelhiverySimulator(),
    startEkartSimulator(),
    startXpressbeesSimulator(),
    startShadowfaxSimulator(),
  ]);
  const progress = new Map<string, { journey: readonly Moment[]; step: number; lastAt?: number }>();
  const heldAtNdr = new Set<string>();

  // Each courier's scan of each moment in its own words: the codes its scan table in src/couriers/
  // maps (delhivery-scans.ts and the others), which cite where those words come from.
  const scanners: { parcels: () => string[]; scan: (awb: string, moment: Moment, at: Date) => Promise<void> | void }[] =
    [
      {
        parcels: () =>
          awbsOnTheirWay(
            delhivery.packages.values(),
            (p) => p.scans,
            (p) => p.waybill,
          ),
        scan: (awb, moment, at) => {
          const [ScanType, Scan, StatusCode, Instructions] = (
            {
              picked_up: ['UD', 'In Transit', 'X-PPOM', 'Shipment picked up'],
              in_transit: ['UD', 'In Transit', 'X-ILL1F', 'Received at destination facility'],
              out_for_delivery: ['UD', 'Dispatched', 'X-DDD3FD', 'Out for delivery'],
              delivered: ['DL', 'Delivered', 'EOD-38', 'Delivered to consignee'],
              // A code Delhivery re-attempts after (Delhivery_API_2.md, "NDR API").
              undelivered: ['UD', 'Pending', 'EOD-104', 'Entry restricted area'],
              // The way back under a forward code, as Delhivery scans it (delhivery-codes.ts).
              rto_in_transit: ['RT', 'In Transit', 'X-DLL2F', 'Bag Added To Trip'],
              rto_delivered: ['DL', 'RTO', 'RD-AC1', 'RTO/DTO Delivered'],
            } as const
          )[moment];
          delhivery.scan(awb, {
            ScanType,
            Scan,
            StatusCode,
            ScanDateTime: indiaLocal(at),
            Instructions,
            ScannedLocation: 'Delhi',
          });
        },
      },
      {
        parcels: () =>
          awbsOnTheirWay(
            ekart.packages.values(),
            (p) => p.details,
            (p) => p.trackingId,
          ),
        scan: (awb, moment, at) => {
          const [status, desc, ndrStatus] = (
            {
              picked_up: ['Picked Up', 'Shipment picked up'],
              in_transit: ['In Transit', 'Reached destination hub'],
              out_for_delivery: ['Out for Delivery', 'Out for delivery'],
              delivered: ['Delivered', 'Delivered to customer'],
              undelivered: ['Undelivered', 'Customer not available', 'Customer Unavailable'],
              rto_in_transit: ['RTO In Transit', 'Returning to the seller'],
              rto_delivered: ['RTO Delivered', 'Returned to the seller'],
            } as const satisfies Record<Moment, readonly string[]>
          )[moment] as readonly [string, string, string?];
          return ekart.scan(awb, {
            status,
            ctime: at.getTime(),
            desc,
            location: 'Delhi',
            ...(ndrStatus && { ndrStatus }),
          });
        },
      },
      {
        parcels: () =>
          awbsOnTheirWay(
            xpressbees.shipments.values(),
            (p) => p.history,
            (p) => p.awb,
          ),
        scan: (awb, moment, at) => {
          const [status_code, message] = (
            {
              picked_up: ['PKD', 'Shipment picked up'],
              in_transit: ['IT', 'In transit'],
              out_for_delivery: ['OFD', 'Out for delivery'],
              delivered: ['DL', 'Delivered'],
              // An exception told by its message (xpressbees-scans.ts EXCEPTION_WORDS).
              undelivered: ['EX', 'Address incomplete, customer not found'],
              rto_in_transit: ['RT-IT', 'RTO in transit'],
              rto_delivered: ['RT-DL', 'RTO delivered'],
            } as const
          )[moment];
          xpressbees.scan(awb, {
            status_code,
            event_time: indiaLocal(at).slice(0, 16).replace('T', ' '),
            message,
            location: 'Delhi',
          });
        },
      },
      {
        parcels: () =>
          awbsOnTheirWay(
            shadowfax.orders.values(),
            (p) => p.scans,
            (p) => p.awb,
          ),
        scan: (awb, moment, at) => {
          const [status_id, status] = (
            {
              // The warehouse lifecycle, the order type the demo books (SHADOWFAX_ORDER_TYPE).
              picked_up: ['received_from_client_warehouse', 'Received from Client Warehouse'],
              in_transit: ['bag_in_transit', 'Bag In Transit'],
              out_for_delivery: ['ofd', 'Out For Delivery'],
              delivered: ['delivered', 'Delivered'],
              undelivered: ['cid', 'Customer wants delivery on another date'],
              rto_in_transit: ['rto_in_process', 'In RTO/RTS Process'],
              rto_delivered: ['rto_d', 'Returned to Client'],
            } as const
          )[moment];
          shadowfax.scan(awb, {
            status_id,
            status,
            remarks: status,
            created: `${indiaLocal(at)}+05:30`,
            location: 'Delhi',
          });
        },
      },
    ];

  return {
    /** The server's courier settings with each courier's credentials and base URL pointing at its simulator. */
    settings: (base: CourierSettings): CourierSettings => ({
      ...base,
      delhivery: { token: SIM_TOKEN, baseUrl: delhivery.baseUrl },
      ekart: {
        clientId: EKART_CLIENT,
        username: EKART_USER,
        password: EKART_PASSWORD,
        baseUrl: ekart.baseUrl,
        webhookSecret: EKART_WEBHOOK_SECRET,
      },
      xpressbees: { email: XPRESSBEES_EMAIL, password: XPRESSBEES_PASSWORD, baseUrl: xpressbees.baseUrl },
      shadowfax: { ...base.shadowfax, token: SHADOWFAX_TOKEN, baseUrl: shadowfax.baseUrl },
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
      if (!registered.ok)
        throw new Error(`the Ekart simulator refused the webhook: ${registered.status} ${await registered.text()}`);
    },
    /** The parcel with this AWB fails its first delivery, then waits for the merchant's decision. */
    holdAtNdr(awb: string) {
      heldAtNdr.add(awb);
    },
    /**
     * One more scan for every parcel not at its journey's end. A parcel waiting at an NDR moves once
     * `decisionOf` answers what the merchant decided and the courier was told (Dakiya's record).
     */
    async advance(decisionOf: (awb: string) => Promise<NdrDecision | undefined>) {
      for (const { parcels, scan } of scanners) {
        for (const awb of parcels()) {
          const parcel = progress.get(awb) ?? { journey: heldAtNdr.has(awb) ? FAILED_ATTEMPT : DELIVERED, step: 0 };
          if (parcel.step >= parcel.journey.length) {
            if (parcel.journey.at(-1) !== 'undelivered') continue;
            const decision = await decisionOf(awb);
            if (!decision) continue;
            parcel.journey = [...parcel.journey, ...AFTER[decision]];
          }
          const at = nextScanTime(parcel.lastAt);
          await scan(awb, parcel.journey[parcel.step]!, at);
          progress.set(awb, { journey: parcel.journey, step: parcel.step + 1, lastAt: at.getTime() });
        }
      }
    },
    async close() {
      await Promise.all([delhivery.close(), ekart.close(), xpressbees.close(), shadowfax.close()]);
    },
  };
}
