import { afterAll, beforeAll, expect } from 'vitest';
import type { CarrierEvent } from '../src/couriers/carrier-event.js';
import { createTestApp, type TestContext } from './app.js';
import { BLUEDART_AIR, DELHIVERY_SURFACE, DTDC, SHADOWFAX } from './kit/couriers.js';
import { CANCEL, MINUTE, post } from './kit/http.js';
import { book, type Booked, type OrderFields } from './kit/orders.js';
import { list } from './kit/shipments.js';
import { createStore } from './kit/stores.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';

// The listing fixture shipments-filters.test.ts and shipments-search.test.ts query.

/**
 * Nine shipments of one account, created a minute apart from 06:30Z (index = creation order), with
 * every listing column controlled:
 *
 *  # | from   | to      | zone | COD | weight g | courier   | skus                     | tags           | store       | status
 *  0 | Delhi  | Mumbai  | C    |     |   500    | Shadowfax | KURTA-M-BLUE             | gift           | Fashion-Hub | delivered
 *  1 | Delhi  | Jaipur  | D    | yes |  1200    | Delhivery | SAREE-RED, KURTA-M-BLUE  | priority, gift | home-goods  | ndr_raised
 *  2 | Delhi  | Kochi   | E    | yes |   250    | Blue Dart | MUG-SET                  |                |             | rto_initiated
 *  3 | Delhi  | Delhi   | A    |     |  3000    | DTDC      | YOGA-MAT                 | fragile        | Fashion-Hub | in_transit
 *  4 | Mumbai | Pune    | B    |     |   800    | Shadowfax | KURTA-M-BLUE             | b2b            |             | cancelled
 *  5 | Delhi  | Mumbai  | C    | yes |   500    | (none)    | SOCKS-3PK                |                | home-goods  | pending
 *  6 | Mumbai | Delhi   | C    | yes |  2000    | Delhivery | SAREE-RED                | gift, gift     | Fashion-Hub | delivered
 *  7 | Delhi  | Jaipur  | D    |     |   200    | Shadowfax | TEE-S                    |                |             | others (lost)
 *  8 | Delhi  | Kochi   | E    |     |  1000    | DTDC      | KURTA-M-BLUE             | priority       | home-goods  | rto_delivered
 */
const ROWS: (OrderFields & { warehouse: 'W1' | 'W2'; assign?: false })[] = [
  {
    warehouse: 'W1',
    to: 'mumbai',
    value: 998,
    weight: 0.5,
    carrierId: SHADOWFAX,
    items: [item('KURTA-M-BLUE')],
    tags: ['gift'],
    storeName: 'Fashion-Hub',
    customer: 'Asha',
    lastName: 'Menon',
    phone: '9123456780',
    email: 'asha@mail.test',
    orderDate: '2026-11-01 10:00',
  },
  {
    warehouse: 'W1',
    to: 'jaipur',
    cod: true,
    value: 1500,
    weight: 1.2,
    carrierId: DELHIVERY_SURFACE,
    items: [item('SAREE-RED'), item('KURTA-M-BLUE')],
    tags: ['priority', 'gift'],
    storeName: 'home-goods',
    customer: 'Ravi',
    lastName: 'Kumar',
    phone: '9988776655',
    email: 'ravi@mail.test',
    orderDate: '2026-11-05 10:00',
  },
  {
    warehouse: 'W1',
    to: 'kochi',
    cod: true,
    value: 450,
    weight: 0.25,
    carrierId: BLUEDART_AIR,
    items: [item('MUG-SET')],
    customer: 'Meera',
    lastName: 'Nair',
    phone: '9000012345',
    email: 'meera@mail.test',
    orderDate: '2026-11-10 10:00',
  },
  {
    warehouse: 'W1',
    to: 'delhi',
    value: 2000,
    weight: 3,
    carrierId: DTDC,
    items: [item('YOGA-MAT')],
    tags: ['fragile'],
    storeName: 'Fashion-Hub',
    customer: 'John',
    lastName: "D'Souza",
    phone: '9811122233',
    email: 'john@mail.test',
    orderDate: '2026-11-15 10:00',
    orderId: 'ORD_100%OFF',
  },
  {
    warehouse: 'W2',
    to: 'pune',
    value: 700,
    weight: 0.8,
    carrierId: SHADOWFAX,
    items: [item('KURTA-M-BLUE')],
    tags: ['b2b'],
    customer: 'Zoya',
    lastName: 'Khan',
    phone: '9876501234',
    email: 'zoya@mail.test',
    orderDate: '2026-11-18 10:00',
    orderId: 'BS\\7',
  },
  {
    warehouse: 'W1',
    to: 'mumbai',
    cod: true,
    value: 999,
    weight: 0.5,
    items: [item('SOCKS-3PK')],
    storeName: 'home-goods',
    customer: 'Imran',
    lastName: 'Qureshi',
    phone: '9123400000',
    email: 'imran@mail.test',
    orderDate: '2026-11-19 10:00',
    assign: false,
  },
  {
    warehouse: 'W2',
    to: 'delhi',
    cod: true,
    value: 1200,
    weight: 2,
    carrierId: DELHIVERY_SURFACE,
    items: [item('SAREE-RED')],
    tags: ['gift', 'gift'],
    storeName: 'Fashion-Hub',
    customer: 'Priya',
    lastName: 'Sharma',
    phone: '9567812345',
    email: 'priya@mail.test',
    orderDate: '2026-11-19 18:00',
    orderId: 'SHOP-ABC-6006',
  },
  {
    warehouse: 'W1',
    to: 'jaipur',
    value: 300,
    weight: 0.1,
    carrierId: SHADOWFAX,
    items: [item('TEE-S')],
    customer: 'Karan',
    lastName: 'Mehta',
    phone: '7012345678',
    email: 'karan@mail.test',
    orderDate: '2026-11-20 09:00',
  },
  {
    warehouse: 'W1',
    to: 'kochi',
    value: 850,
    weight: 1,
    carrierId: DTDC,
    items: [item('KURTA-M-BLUE')],
    tags: ['priority'],
    storeName: 'home-goods',
    customer: 'Divya',
    lastName: 'Iyer',
    phone: '8012345678',
    email: 'divya@mail.test',
    orderDate: '2026-11-20 11:00',
  },
];

function item(sku: string) {
  return { name: `Item ${sku}`, sku, units: 1, selling_price: 100 };
}

/** Every row of the fixture. */
export const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8];

export interface ListingFixture {
  ctx: TestContext;
  apiKey: string;
  /** The Delhi and the Mumbai warehouse. */
  W1: string;
  W2: string;
  /** The rows' shipments, by row. */
  booked: Booked[];
}

/**
 * The file's app with the fixture above, made before its first test (`ready` receives it) and
 * closed after its last; and what its tests ask of the listing.
 */
export function useListingFixture(ready: (fixture: ListingFixture) => void) {
  let ctx: TestContext;
  let apiKey: string;
  let W1: string;
  let W2: string;
  let booked: Booked[];

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ apiKey } = await ctx.createAccount());
    W1 = await createCityWarehouse(ctx, apiKey, 'delhi');
    W2 = await createCityWarehouse(ctx, apiKey, 'mumbai');
    await createStore(ctx, apiKey, { store_name: 'Fashion-Hub' });
    await createStore(ctx, apiKey, { store_name: 'home-goods' });
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    booked = [];
    for (const { warehouse, assign, ...fields } of ROWS) {
      booked.push(await book(ctx, apiKey, warehouse === 'W1' ? W1 : W2, fields, assign !== false));
      ctx.clock.advance(MINUTE);
    }
    expect(booked.map((b) => b.zone)).toEqual([
      'zone_c',
      'zone_d',
      'zone_e',
      'zone_a',
      'zone_b',
      'zone_c',
      'zone_c',
      'zone_d',
      'zone_e',
    ]);

    ctx.clock.set('2026-11-20T08:00:00.000Z');
    const cancel = await post(ctx, apiKey, CANCEL, { awbs: [booked[4]!.awb_code] });
    expect(cancel.json().results[0].cancelled).toBe(true);

    ctx.clock.set('2026-11-25T00:00:00.000Z');
    const awb = (i: number) => booked[i]!.awb_code!;
    const scans: Record<string, CarrierEvent[]> = {
      [SHADOWFAX]: [
        { awb: awb(0), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z' },
        { awb: awb(0), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
        { awb: awb(0), status: 'delivered', sub_status: 'delivered', event_time: '2026-11-22T06:00:00Z' },
        { awb: awb(7), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T15:00:00Z' },
        { awb: awb(7), status: 'others', sub_status: 'lost', event_time: '2026-11-21T15:00:00Z' },
      ],
      [DELHIVERY_SURFACE]: [
        { awb: awb(1), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T11:00:00Z' },
        { awb: awb(1), status: 'out_for_delivery', event_time: '2026-11-22T05:00:00Z' },
        {
          awb: awb(1),
          status: 'ndr_raised',
          sub_status: 'customer_unavailable',
          ndr_reason: 'customer_unavailable',
          event_time: '2026-11-22T09:00:00Z',
        },
        { awb: awb(6), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T14:00:00Z' },
        { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
        { awb: awb(6), status: 'ndr_raised', sub_status: 'cod_not_ready', event_time: '2026-11-21T09:00:00Z' },
        { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
        { awb: awb(6), status: 'ndr_raised', sub_status: 'customer_unavailable', event_time: '2026-11-22T09:00:00Z' },
        { awb: awb(6), status: 'out_for_delivery', event_time: '2026-11-23T04:00:00Z' },
        { awb: awb(6), status: 'delivered', sub_status: 'delivered', event_time: '2026-11-23T07:00:00Z' },
      ],
      [BLUEDART_AIR]: [
        { awb: awb(2), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T12:00:00Z' },
        { awb: awb(2), status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z' },
        { awb: awb(2), status: 'ndr_raised', sub_status: 'refused', event_time: '2026-11-21T08:00:00Z' },
        { awb: awb(2), status: 'out_for_delivery', event_time: '2026-11-22T04:00:00Z' },
        {
          awb: awb(2),
          status: 'ndr_raised',
          sub_status: 'refused',
          ndr_reason: 'refused',
          event_time: '2026-11-22T08:00:00Z',
        },
        {
          awb: awb(2),
          status: 'rto_initiated',
          sub_status: 'rto_initiated',
          rto_reason: 'customer_refused',
          event_time: '2026-11-23T08:00:00Z',
        },
      ],
      [DTDC]: [
        { awb: awb(3), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T13:00:00Z' },
        {
          awb: awb(3),
          status: 'in_transit',
          sub_status: 'reached_destination_hub',
          event_time: '2026-11-21T13:00:00Z',
        },
        { awb: awb(8), status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T16:00:00Z' },
        { awb: awb(8), status: 'ndr_raised', sub_status: 'address_incomplete', event_time: '2026-11-21T09:00:00Z' },
        { awb: awb(8), status: 'rto_initiated', rto_reason: 'address_not_found', event_time: '2026-11-22T09:00:00Z' },
        { awb: awb(8), status: 'rto_in_transit', event_time: '2026-11-23T09:00:00Z' },
        { awb: awb(8), status: 'rto_delivered', sub_status: 'rto_delivered', event_time: '2026-11-24T09:00:00Z' },
      ],
    };
    for (const [carrierId, events] of Object.entries(scans)) {
      const results = await sendEvents(ctx, await issueCarrierToken(ctx, carrierId), events);
      expect(results.every((r) => r.accepted)).toBe(true);
    }
    // A second account with look-alike data, which no filter of the first may ever show.
    const other = await ctx.createAccount();
    const otherWarehouse = await createCityWarehouse(ctx, other.apiKey);
    await createStore(ctx, other.apiKey, { store_name: 'Fashion-Hub' });
    ctx.clock.set('2026-11-20T06:35:30.000Z');
    await book(ctx, other.apiKey, otherWarehouse, {
      ...ROWS[0],
      orderId: 'OTHER-1',
      phone: '9988776655',
      storeName: 'Fashion-Hub',
      tags: ['gift'],
    });
    ready({ ctx, apiKey, W1, W2, booked });
  });

  afterAll(async () => {
    await ctx.close();
  });

  /** Shipment ids of the given rows, in the listing's default order (newest first). */
  const ids = (...rows: number[]) => [...rows].sort((a, b) => b - a).map((i) => booked[i]!.shipment_id);
  /** The ids a filter lists; its meta.total must be exactly that many (whichever way it is counted). */
  async function filtered(body: Record<string, unknown>): Promise<string[]> {
    const { data, meta } = await list(ctx, apiKey, { per_page: 100, ...body });
    expect(meta.total).toBe(data.length);
    return data.map((s) => s.id);
  }

  return { ids, filtered };
}
