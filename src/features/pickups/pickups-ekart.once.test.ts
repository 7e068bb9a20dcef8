import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type EkartSimulator, startEkartSimulator } from '../../demo/simulators/ekart-simulator.js';
import { EKART, ekartSettings, ratesWith } from '../../../test/kit/couriers.js';
import { authed, post, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { listIds } from '../../../test/kit/shipments.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

// Issue 31: a pickup of Ekart parcels has them manifested at Ekart (POST /data/v2/generate/manifest),
// its manifest number kept as the pickup's courier reference; a refusal or failure writes nothing.

const PICKUPS = `${V1}/pickups`;
const MANIFEST = '/data/v2/generate/manifest';

let sim: EkartSimulator;
let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  sim = await startEkartSimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [EKART]: 'ekart' }),
    settings: { couriers: ekartSettings(sim.baseUrl) },
  });
  ({ apiKey } = await ctx.createAccount('Ekart pickups'));
  warehouseId = await createWarehouse(ctx, apiKey, { name: 'Okhla Hub' });
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
const bookEkart = async (n: number) => {
  const booked: Booked[] = [];
  for (let i = 0; i < n; i++) booked.push(await book(ctx, apiKey, warehouseId, { carrierId: EKART }));
  return booked;
};
const pickupCount = async () => ((await get(PICKUPS)).json().data as unknown[]).length;
const waiting = () => listIds(ctx, apiKey, { manifested: false, carrier_id: EKART, status: 'pending' });

describe('pickups of Ekart parcels', () => {
  it('writes nothing when Ekart refuses the manifest (a 422 in its words) or fails (a 502), and manifests when asked again', async () => {
    const [open, cancelledThere] = await bookEkart(2);
    // The bookings themselves asked Ekart for no manifest: only a pickup the merchant makes does.
    expect(sim.callsTo(MANIFEST)).toHaveLength(0);
    // Cancelled at Ekart (its panel), still waiting in Dakiya: Ekart will not manifest it.
    sim.packages.get(cancelledThere!.awb_code!)!.cancelled = true;
    const refused = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: EKART });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      `Ekart refused: Invalid request: No open shipment for ${cancelledThere!.awb_code}`,
    );
    expect(await pickupCount()).toBe(0);
    expect((await waiting()).sort()).toEqual([open!.shipment_id, cancelledThere!.shipment_id].sort());

    sim.failNext(MANIFEST, '500');
    const failed = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: EKART,
      awbs: [open!.awb_code],
    });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe('Ekart could not be reached (HTTP 500); nothing was changed, try again');
    expect(await pickupCount()).toBe(0);
    expect(sim.manifests).toEqual([]);

    const taken = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: EKART,
      awbs: [open!.awb_code],
    });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json().data).toMatchObject({
      courier_reference: String(sim.manifests.at(-1)!.manifestNumber),
      parcels: 1,
    });
  });

  it("has Ekart manifest the pickup's tracking ids and keeps its manifest number as the courier reference", async () => {
    const booked = await bookEkart(3);
    const before = sim.callsTo(MANIFEST).length;
    const created = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: EKART,
      awbs: booked.map((b) => b.awb_code),
    });
    expect(created.statusCode, created.body).toBe(201);
    const [call] = sim.callsTo(MANIFEST).slice(before);
    expect(call).toMatchObject({ method: 'POST', authorization: expect.stringMatching(/^Bearer ekt-/) });
    expect(JSON.parse(call!.body)).toEqual({ ids: booked.map((b) => b.awb_code) });
    const manifest = sim.manifests.at(-1)!;
    expect(manifest.ids).toEqual(booked.map((b) => b.awb_code));
    const pickup = created.json().data;
    expect(pickup).toMatchObject({
      status: 'scheduled',
      carrier_id: EKART,
      courier_name: 'Ekart Standard',
      courier_reference: String(manifest.manifestNumber),
      parcels: 3,
      shipments: booked.map((b) => ({
        awb: b.awb_code,
        order_id: b.channel_order_id,
        weight: b.applied_weight,
        cod_amount: 0,
        status: 'pending',
        picked_up: false,
      })),
    });
    expect((await listIds(ctx, apiKey, { pickup_id: pickup.id })).sort()).toEqual(
      booked.map((b) => b.shipment_id).sort(),
    );
    expect((await get(`${PICKUPS}/${pickup.id}`)).json().data.courier_reference).toBe(String(manifest.manifestNumber));
  });
});
