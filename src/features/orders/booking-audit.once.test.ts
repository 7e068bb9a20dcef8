import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { ASSIGN, authed, FORWARD_ORDER, ORCHESTRATE, REVERSE_ORCHESTRATE, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin, type JoinedMember } from '../../../test/kit/members.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { returnBody } from '../../../test/kit/returns.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's audit log for bookings: each order made (booked at once or not), each courier
// assigned, each change, return, label re-issue and pickup is written down in the write's own
// statement or transaction, naming who did it and the object; a refused request writes nothing,
// and the entry never carries the buyer's details.

const SHADOWFAX = 'CARSHFXSTD001';
let ctx: TestContext;
let owner: { id: string; apiKey: string };
let warehouseId: string;
let desk: JoinedMember;
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Booking Audit');
  warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
  desk = await inviteAndJoin(ctx, owner.apiKey, {
    email: 'desk@booking-audit.example',
    role: 'operations',
    password: 'correct horse battery staple',
  });
});
afterAll(async () => {
  await ctx?.close();
});

interface Entry {
  actor_type: string;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string;
  changes: Record<string, unknown> | null;
}
const entries = (objectId: string) =>
  queryRows<Entry>(
    ctx.database.db,
    sql`select actor_type, actor_name, action, object_type, object_id, changes from audit_log
        where account_id = ${owner.id} and object_id = ${objectId} order by at, action`,
  );
const all = async () =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from audit_log where account_id = ${owner.id}`,
    )
  )[0]!.n;
const send = (method: 'POST' | 'PUT', url: string, headers: object, payload: object) =>
  ctx.app.inject({ method, url, headers: { ...headers }, payload });

describe('the audit log of bookings', () => {
  it('names the member who booked an order at once, with its shipment, courier and AWB, and no buyer detail', async () => {
    const body = orderBodyFromFields(warehouseId, { orderId: 'AUDIT-BOOK-1', carrierId: SHADOWFAX });
    const booked = await send('POST', ORCHESTRATE, desk.headers, body);
    expect(booked.statusCode, booked.body).toBe(200);
    const { shipment_id, awb_code } = booked.json().payload;
    const written = await entries('AUDIT-BOOK-1');
    expect(written).toEqual([
      {
        actor_type: 'member',
        actor_name: 'desk@booking-audit.example',
        action: 'order.created',
        object_type: 'order',
        object_id: 'AUDIT-BOOK-1',
        changes: { awb: awb_code, carrier_id: SHADOWFAX, shipment_id },
      },
    ]);
    expect(JSON.stringify(written)).not.toContain(String(body.billing_phone));
  });

  it('writes an order made without a courier, then the courier booked onto it, each once', async () => {
    const made = await send(
      'POST',
      FORWARD_ORDER,
      authed(owner.apiKey),
      orderBodyFromFields(warehouseId, { orderId: 'AUDIT-BOOK-2' }),
    );
    const shipmentId = made.json().payload.shipment_id;
    expect(await entries('AUDIT-BOOK-2')).toEqual([
      {
        actor_type: 'api_key',
        actor_name: expect.stringMatching(/^dky_[\w-]{8}…$/),
        action: 'order.created',
        object_type: 'order',
        object_id: 'AUDIT-BOOK-2',
        changes: { shipment_id: shipmentId },
      },
    ]);
    const assigned = await send('POST', ASSIGN, desk.headers, { shipment_id: shipmentId, carrier_id: SHADOWFAX });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await entries(shipmentId)).toEqual([
      {
        actor_type: 'member',
        actor_name: 'desk@booking-audit.example',
        action: 'shipment.booked',
        object_type: 'shipment',
        object_id: shipmentId,
        changes: { awb: assigned.json().payload.awb_code, carrier_id: SHADOWFAX },
      },
    ]);
    // Booked already: refused, and nothing more written.
    const before = await all();
    const again = await send('POST', ASSIGN, desk.headers, { shipment_id: shipmentId, carrier_id: SHADOWFAX });
    expect(again.statusCode).toBe(422);
    expect(await all()).toBe(before);
  });

  it("writes an order's change by the names of the fields sent, never their values", async () => {
    await send(
      'POST',
      FORWARD_ORDER,
      authed(owner.apiKey),
      orderBodyFromFields(warehouseId, { orderId: 'AUDIT-BOOK-3' }),
    );
    const changed = await send('PUT', `${V1}/order`, desk.headers, {
      order_id: 'AUDIT-BOOK-3',
      billing_phone: '9811122233',
      billing_address: '7 Residency Road',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const change = (await entries('AUDIT-BOOK-3')).find((entry) => entry.action === 'order.changed');
    expect(change).toEqual({
      actor_type: 'member',
      actor_name: 'desk@booking-audit.example',
      action: 'order.changed',
      object_type: 'order',
      object_id: 'AUDIT-BOOK-3',
      changes: { fields: ['billing_address', 'billing_phone'] },
    });
    expect(JSON.stringify(change)).not.toContain('9811122233');
  });

  it('writes nothing for a booking refused, nor for the order id taken', async () => {
    const before = await all();
    const refused = await send('POST', ORCHESTRATE, desk.headers, {
      ...orderBodyFromFields(warehouseId, { orderId: 'AUDIT-BOOK-4' }),
      billing_pincode: '999999',
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    const taken = await send(
      'POST',
      FORWARD_ORDER,
      desk.headers,
      orderBodyFromFields(warehouseId, { orderId: 'AUDIT-BOOK-1' }),
    );
    expect(taken.statusCode).toBe(422);
    expect(await all()).toBe(before);
  });

  it('names who booked a return, re-issued a label and asked for a pickup', async () => {
    const ret = await send(
      'POST',
      REVERSE_ORCHESTRATE,
      desk.headers,
      returnBody(warehouseId, { orderId: 'AUDIT-RET-1' }),
    );
    expect(ret.statusCode, ret.body).toBe(200);
    const { return_id, awb_code } = ret.json().payload;
    expect(await entries(return_id)).toEqual([
      {
        actor_type: 'member',
        actor_name: 'desk@booking-audit.example',
        action: 'return.created',
        object_type: 'return',
        object_id: return_id,
        changes: { awb: awb_code, carrier_id: expect.any(String), order_id: 'AUDIT-RET-1' },
      },
    ]);
    const booked = (
      await send(
        'POST',
        ORCHESTRATE,
        authed(owner.apiKey),
        orderBodyFromFields(warehouseId, { orderId: 'AUDIT-LBL-1', carrierId: SHADOWFAX }),
      )
    ).json().payload;
    const reissued = await send('POST', `${V1}/shipments/${booked.shipment_id}/label/reissue`, desk.headers, {
      reason: 'Label smudged',
    });
    expect(reissued.statusCode, reissued.body).toBe(200);
    expect((await entries(booked.shipment_id)).map((entry) => [entry.action, entry.changes])).toEqual([
      ['shipment.label_reissued', { label_version: 2, previous_version: 1, reason: 'Label smudged' }],
    ]);
    const pickup = await send('POST', `${V1}/pickups`, desk.headers, {
      warehouse_id: warehouseId,
      carrier_id: SHADOWFAX,
    });
    expect(pickup.statusCode, pickup.body).toBe(201);
    const pickupId = pickup.json().data.id;
    expect(await entries(pickupId)).toEqual([
      {
        actor_type: 'member',
        actor_name: 'desk@booking-audit.example',
        action: 'pickup.created',
        object_type: 'pickup',
        object_id: pickupId,
        changes: {
          carrier_id: SHADOWFAX,
          parcels: pickup.json().data.parcels,
          pickup_date: pickup.json().data.pickup_date,
          warehouse_id: warehouseId,
        },
      },
    ]);
  });
});
