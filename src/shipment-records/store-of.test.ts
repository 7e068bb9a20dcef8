import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { authed, V1 } from '../../test/kit/http.js';
import { book, type Booked } from '../../test/kit/orders.js';
import { bookReturn, type BookedReturn } from '../../test/kit/returns.js';
import { createStore } from '../../test/kit/stores.js';
import { createCityWarehouse } from '../../test/kit/warehouses.js';
import type { NamedObjects } from '../domain/access/store-reach.js';
import { storeLocator } from './store-of.js';

// The stores of what a request names, for the hook that keeps a store-limited credential to its
// own (http/store-guard.ts): a table of what may be named, found or not, in one account.

let ctx: TestContext;
let account: { id: string; apiKey: string };
let store: { id: string; store_name: string };
let inStore: Booked;
let storeless: Booked;
let aReturn: BookedReturn;
/** A pickup of two parcels: one of the store, one of none. */
let pickupId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  account = await ctx.createAccount('Store Locator');
  const warehouseId = await createCityWarehouse(ctx, account.apiKey, 'delhi');
  store = await createStore(ctx, account.apiKey, { store_name: 'locator-shoes' });
  inStore = await book(ctx, account.apiKey, warehouseId, { storeName: 'locator-shoes', orderId: 'LOC-1' });
  storeless = await book(ctx, account.apiKey, warehouseId, { orderId: 'LOC-2' });
  aReturn = await bookReturn(ctx, account.apiKey, warehouseId, { orderId: 'LOC-R1' });
  const parcels = [
    await book(ctx, account.apiKey, warehouseId, { storeName: 'locator-shoes', carrierId: SHADOWFAX }),
    await book(ctx, account.apiKey, warehouseId, { carrierId: SHADOWFAX }),
  ];
  const made = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/pickups`,
    headers: authed(account.apiKey),
    payload: { warehouse_id: warehouseId, carrier_id: SHADOWFAX, awbs: parcels.map((parcel) => parcel.awb_code) },
  });
  expect(made.statusCode, made.body).toBe(201);
  pickupId = made.json().data.id;
});
afterAll(async () => {
  await ctx?.close();
});

const UNKNOWN = '0b0e7b7e-3c4f-4f3a-9d61-5d7a1c2b3e4f';

describe('storeLocator', () => {
  it('finds the store of each object named, and leaves out what it does not find', async () => {
    const locate = storeLocator(ctx.database.db);
    const cases: [string, NamedObjects, { named: string; kind: string; storeId: string | null }[]][] = [
      ['nothing named', {}, []],
      [
        'a shipment by AWB',
        { shipments: [inStore.awb_code!] },
        [{ named: inStore.awb_code!, kind: 'shipment', storeId: store.id }],
      ],
      [
        'a shipment by id, in capitals, and one of no store',
        { shipments: [inStore.shipment_id.toUpperCase(), storeless.awb_code!] },
        [
          { named: inStore.shipment_id.toUpperCase(), kind: 'shipment', storeId: store.id },
          { named: storeless.awb_code!, kind: 'shipment', storeId: null },
        ],
      ],
      ['an unknown AWB and id, named twice', { shipments: ['NOPE', UNKNOWN, 'NOPE'] }, []],
      [
        'orders by order_id',
        { orders: ['LOC-1', 'LOC-2', 'LOC-9'] },
        [
          { named: 'LOC-1', kind: 'order', storeId: store.id },
          { named: 'LOC-2', kind: 'order', storeId: null },
        ],
      ],
      [
        'stores by id, a malformed one of none',
        { stores: [store.id.toUpperCase(), 'not-a-store'] },
        [
          { named: store.id.toUpperCase(), kind: 'store', storeId: store.id },
          { named: 'not-a-store', kind: 'store', storeId: null },
        ],
      ],
      [
        "a booking's store by name, any case",
        { booksInto: { storeName: ' LOCATOR-SHOES ' } },
        [{ named: ' LOCATOR-SHOES ', kind: 'store', storeId: store.id }],
      ],
      [
        'a return by its AWB and its shipment id (of no store: it names no forward shipment), and by its id',
        { shipments: [aReturn.awb_code!, aReturn.shipment_id], returns: [aReturn.return_id] },
        [
          { named: aReturn.awb_code!, kind: 'return', storeId: null },
          { named: aReturn.shipment_id, kind: 'return', storeId: null },
          { named: aReturn.return_id, kind: 'return', storeId: null },
        ],
      ],
      ['a booking into an unknown, a blank or no store', { booksInto: { storeName: 'elsewhere' } }, []],
      ['a blank store name', { booksInto: { storeName: '  ' } }, []],
      ['a store name that is not text', { booksInto: { storeName: 7 } }, []],
      [
        'return requests, refunds and pickups by malformed or unknown ids',
        { returnRequests: ['x', UNKNOWN], refunds: [UNKNOWN], pickups: ['x', UNKNOWN] },
        [],
      ],
    ];
    for (const [name, named, expected] of cases) expect(await locate(account.id, named), name).toEqual(expected);
  });

  it('finds a pickup once per store among its parcels, a parcel of no store as of none', async () => {
    const found = await storeLocator(ctx.database.db)(account.id, { pickups: [pickupId, pickupId] });
    expect(found.sort((a, b) => String(a.storeId).localeCompare(String(b.storeId)))).toEqual(
      [
        { named: pickupId, kind: 'pickup', storeId: store.id },
        { named: pickupId, kind: 'pickup', storeId: null },
      ].sort((a, b) => String(a.storeId).localeCompare(String(b.storeId))),
    );
  });

  it("finds nothing of another account's", async () => {
    const other = await ctx.createAccount('Elsewhere');
    expect(
      await storeLocator(ctx.database.db)(other.id, {
        shipments: [inStore.awb_code!],
        orders: ['LOC-1'],
        booksInto: { storeName: 'locator-shoes' },
      }),
    ).toEqual([]);
  });
});
