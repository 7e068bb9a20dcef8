import { describe, expect, it } from 'vitest';
import { buyerNeedles, findTraces, useBuyerEverywhere } from '../../../test/kit/buyer-everywhere.js';
import { eventsSettled } from '../../../test/databases.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, post, UUID, V1 } from '../../../test/kit/http.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';

// Issue 52's test of an erasure: a buyer written through every feature that keeps one (a COD
// booking, its scans, an NDR and a reattempt to a corrected address and another phone, customer
// e-mails, SMS messages, webhooks, a return request with a bank refund, a return and a reverse
// order, a WooCommerce import: test/kit/buyer-everywhere.ts), erased by their phone, and then no
// trace of their names, phones, e-mail or street in any text or JSON column of any table.

const ERASE = `${V1}/buyer-erasures`;
const world = useBuyerEverywhere();

describe("a buyer's erasure", () => {
  it('leaves no trace of the buyer in any table, once their parcels are done with', async () => {
    const before = await findTraces(world.ctx.database.db, buyerNeedles(world.buyer));
    expect(new Set(before.map((t) => t.table)).size).toBeGreaterThanOrEqual(11);

    const refused = await post(world.ctx, world.written.apiKey, ERASE, { phone: world.buyer.phone });
    const [, returnAwb, reverseAwb] = world.written.awbs;
    const imported = world.written.shipmentIds[3]!;
    expect([refused.statusCode, refused.json().code, refused.json().details]).toEqual([
      409,
      'buyer_parcels_on_the_way',
      [
        { field: 'shipment_id', message: `${imported} is not shipped yet; it needs the address` },
        { field: 'awb', message: `${returnAwb} is on its way; its courier needs the address` },
        { field: 'awb', message: `${reverseAwb} is on its way; its courier needs the address` },
      ],
    ]);
    expect(await findTraces(world.ctx.database.db, buyerNeedles(world.buyer))).toEqual(before);

    // The store's order is cancelled; the two returns come back to the warehouse.
    expect((await post(world.ctx, world.written.apiKey, CANCEL, { shipment_id: imported })).statusCode).toBe(200);
    const courier = await issueCarrierToken(world.ctx, SHADOWFAX);
    for (const awb of [returnAwb!, reverseAwb!]) {
      await sendEvents(world.ctx, courier, [
        { awb, status: 'return_picked_up', event_time: at(600) },
        { awb, status: 'return_delivered', event_time: at(700) },
      ]);
    }
    await eventsSettled(world.ctx.database);

    const erased = await post(world.ctx, world.written.apiKey, ERASE, { phone: world.buyer.phone });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data).toEqual({
      erasure_id: expect.stringMatching(UUID),
      found: { orders: 2, shipments: 2, returns: 2, return_requests: 1, exchanges: 0, refunds: 1 },
      erased: {
        orders: 2,
        shipments: 2,
        events: 46,
        notifications: 7,
        buyer_messages: 5,
        shipment_actions: 1,
        returns: 2,
        return_requests: 1,
        refunds: 1,
        channel_orders: 1,
      },
      deleted: { rto_history: 1, return_request_photos: 0 },
    });
    expect(await findTraces(world.ctx.database.db, buyerNeedles(world.buyer))).toEqual([]);
  });
});
