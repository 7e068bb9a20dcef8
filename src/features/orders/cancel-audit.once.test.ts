import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, CANCEL } from '../../../test/kit/http.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's audit log for cancel-order: each shipment or return called off is written down in
// the cancellation's transaction, naming who asked and the object; one that is not cancelled (its
// courier refused, it moved on, it was already cancelled) leaves nothing.

let ctx: TestContext;
let owner: { id: string; apiKey: string };
let warehouseId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Cancel Audit');
  warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
});
afterAll(async () => {
  await ctx?.close();
});

const entries = (objectId: string) =>
  queryRows<{ actor_type: string; actor_name: string; action: string; object_type: string; changes: object }>(
    ctx.database.db,
    sql`select actor_type, actor_name, action, object_type, changes from audit_log
        where account_id = ${owner.id} and object_id = ${objectId} order by at, action`,
  );

describe('the audit log of cancel-order', () => {
  it('names the member who cancelled a shipment, once, and nothing for the repeat', async () => {
    const booked = await orchestrate(ctx, owner.apiKey, orderBody(warehouseId, { order_id: 'CANCEL-AUDIT-1' }));
    const member = await inviteAndJoin(ctx, owner.apiKey, {
      email: 'ops@cancel-audit.example',
      role: 'operations',
      password: 'cancel audit password',
    });
    const session = member.headers;
    const cancel = () =>
      ctx.app.inject({ method: 'POST', url: CANCEL, headers: session, payload: { awbs: [booked.awb_code] } });
    expect((await cancel()).json().results[0].cancelled).toBe(true);
    expect((await cancel()).json().results[0]).toMatchObject({
      cancelled: false,
      message: 'Shipment is already cancelled',
    });
    expect(await entries(booked.shipment_id)).toEqual([
      {
        actor_type: 'member',
        actor_name: 'ops@cancel-audit.example',
        action: 'shipment.cancelled',
        object_type: 'shipment',
        changes: { awb: booked.awb_code },
      },
    ]);
  });

  it('names the API key that booked a return and then cancelled it by its shipment id', async () => {
    const booked = await bookReturn(ctx, owner.apiKey, warehouseId, { orderId: 'CANCEL-AUDIT-R1' });
    const cancelled = await ctx.app.inject({
      method: 'POST',
      url: CANCEL,
      headers: authed(owner.apiKey),
      payload: { shipment_id: booked.shipment_id },
    });
    expect(cancelled.json().results[0].cancelled, cancelled.body).toBe(true);
    expect(await entries(booked.return_id)).toEqual([
      {
        actor_type: 'api_key',
        actor_name: expect.stringMatching(/^dky_/),
        action: 'return.cancelled',
        object_type: 'return',
        changes: { awb: booked.awb_code },
      },
      {
        actor_type: 'api_key',
        actor_name: expect.stringMatching(/^dky_/),
        action: 'return.created',
        object_type: 'return',
        changes: { awb: booked.awb_code, carrier_id: 'CARSHFXSTD001', order_id: 'CANCEL-AUDIT-R1' },
      },
    ]);
  });
});
