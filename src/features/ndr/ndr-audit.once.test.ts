import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, TRACKING_EVENTS, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { issueCarrierToken } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's audit log for the NDR actions: each re-attempt and RTO asked of the API is written
// down in its own transaction, naming who asked (a key, a member) and the shipment, never the
// buyer's new address or phone; a refused one leaves nothing. An NDR rule's actions are named as the
// rule's in ndr-rules.once.test.ts, the buyer's in ndr-use-case.test.ts.

let ctx: TestContext;
let owner: { id: string; apiKey: string };
let warehouseId: string;
let carrierToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('NDR Audit');
  warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx?.close();
});

let orders = 0;
/** A booked parcel whose first delivery failed: in ndr_raised. */
async function failedDelivery(): Promise<{ awb: string; shipmentId: string }> {
  const booked = await orchestrate(
    ctx,
    owner.apiKey,
    orderBody(warehouseId, { order_id: `NDR-AUDIT-${++orders}`, carrier_id: SHADOWFAX }),
  );
  const scans = await ctx.app.inject({
    method: 'POST',
    url: TRACKING_EVENTS,
    headers: { authorization: `Bearer ${carrierToken}` },
    payload: {
      events: [
        { awb: booked.awb_code, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
        {
          awb: booked.awb_code,
          status: 'ndr_raised',
          ndr_reason: 'customer_unavailable',
          event_time: '2026-11-20T06:35:00Z',
        },
      ],
    },
  });
  expect(scans.statusCode, scans.body).toBeLessThan(300);
  return { awb: booked.awb_code!, shipmentId: booked.shipment_id };
}

const entries = (shipmentId: string) =>
  queryRows<{ actor_type: string; actor_name: string; action: string; object_type: string; changes: object }>(
    ctx.database.db,
    sql`select actor_type, actor_name, action, object_type, changes from audit_log
        where account_id = ${owner.id} and object_id = ${shipmentId} and action <> 'shipment.tracked'
        order by at, id`,
  );

describe('the audit log of NDR actions', () => {
  it("names the API key that asked for a re-attempt, and says only that the buyer's phone changed", async () => {
    const { awb, shipmentId } = await failedDelivery();
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/reattempt`,
      headers: authed(owner.apiKey),
      payload: { awb, updated_phone_number: '9812345670', comments: 'Call before coming' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Refused (a second re-attempt for the same failed delivery): nothing more written.
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/reattempt`,
      headers: authed(owner.apiKey),
      payload: { awb },
    });
    expect(again.statusCode).toBe(422);
    const [entry, ...more] = await entries(shipmentId);
    expect(more).toEqual([]);
    expect(entry).toEqual({
      actor_type: 'api_key',
      actor_name: expect.stringMatching(/^dky_/),
      action: 'shipment.reattempt_requested',
      object_type: 'shipment',
      changes: {
        awb,
        action_id: asked.json().data.action_id,
        requested_by: 'merchant',
        reattempt_date: null,
        address_updated: false,
        phone_updated: true,
      },
    });
    expect(JSON.stringify(entry)).not.toContain('9812345670');
  });

  it('names the member whose panel session asked for the RTO', async () => {
    const { awb, shipmentId } = await failedDelivery();
    const member = await inviteAndJoin(ctx, owner.apiKey, {
      email: 'desk@ndr-audit.example',
      role: 'support',
      password: 'ndr audit password',
    });
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/initiate-rto`,
      headers: member.headers,
      payload: { awb },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(await entries(shipmentId)).toEqual([
      {
        actor_type: 'member',
        actor_name: 'desk@ndr-audit.example',
        action: 'shipment.rto_requested',
        object_type: 'shipment',
        changes: { awb, action_id: asked.json().data.action_id, requested_by: 'merchant' },
      },
    ]);
  });
});
