import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { withRealIds } from '../../../test/kit/examples.js';
import { authed, FORWARD_ORDER, ORCHESTRATE, post, REVERSE_ORCHESTRATE } from '../../../test/kit/http.js';
import { nextOrderId, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { createCityWarehouse, createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { RETURN_REQUESTS } from '../returns/returns.examples.js';
import { ORDER_REQUESTS } from './orders.examples.js';

// Velocity's samples hard-code pickup_location "HomeNew", and integrations copy it beside their
// real warehouse_id (VELOCITY.md, "More from Velocity's API document"): warehouse_id wins, and the
// name that is not its warehouse's is a warning in the answer, never a refusal.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** An account with the Okhla warehouse (New Delhi) and another named "HomeNew" (Mumbai). */
async function twoWarehouses() {
  const account = await ctx.createAccount();
  const okhla = await createWarehouse(ctx, account.apiKey);
  const homeNew = await createCityWarehouse(ctx, account.apiKey, 'mumbai', 'HomeNew');
  return { ...account, okhla, homeNew };
}

const warning = (name: string) => [
  {
    field: 'pickup_location',
    message: `pickup_location '${name}' is not the name of warehouse_id's warehouse ('Okhla Fulfilment Centre'): warehouse_id was used`,
  },
];

async function warehouseOfShipment(shipmentId: string): Promise<string> {
  const [row] = await queryRows<{ warehouse_id: string }>(
    ctx.database.db,
    sql`select warehouse_id from shipments where id = ${shipmentId}`,
  );
  return row!.warehouse_id;
}

describe('pickup_location beside warehouse_id', () => {
  it.each([
    ['forward-order-orchestration', ORCHESTRATE, ORDER_REQUESTS.orchestration],
    ['forward-order', FORWARD_ORDER, ORDER_REQUESTS.forwardOrder],
  ])(
    '%s: the documented example with pickup_location "HomeNew" books from warehouse_id and warns',
    async (_route, url, example) => {
      const m = await twoWarehouses();
      const body = withRealIds(
        example,
        { warehouseId: m.okhla },
        { store_name: undefined, order_id: nextOrderId(), pickup_location: 'HomeNew' },
      );
      const response = await post(ctx, m.apiKey, url, body);
      expect(response.statusCode, response.body).toBe(200);
      const payload = response.json().payload;
      expect(payload.warnings).toEqual(warning('HomeNew'));
      expect(payload.pickup_location_added).toBe(1);
      expect(await warehouseOfShipment(payload.shipment_id)).toBe(m.okhla);
    },
  );

  it('warns for a pickup_location that names no warehouse at all, still booking from warehouse_id', async () => {
    const m = await twoWarehouses();
    const response = await post(ctx, m.apiKey, ORCHESTRATE, orderBody(m.okhla, { pickup_location: 'Primary' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.warnings).toEqual(warning('Primary'));
    expect(await warehouseOfShipment(response.json().payload.shipment_id)).toBe(m.okhla);
  });

  it("says nothing when pickup_location is warehouse_id's own name (any case, spaces around)", async () => {
    const m = await twoWarehouses();
    const response = await post(
      ctx,
      m.apiKey,
      ORCHESTRATE,
      orderBody(m.okhla, { pickup_location: '  okhla FULFILMENT centre ' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).not.toHaveProperty('warnings');
    const plain = await post(ctx, m.apiKey, ORCHESTRATE, orderBody(m.okhla));
    expect(plain.json().payload).not.toHaveProperty('warnings');
  });

  it('lets pickup_location choose when no warehouse_id is sent, as before; a name matching nothing is still a 422', async () => {
    const m = await twoWarehouses();
    const chosen = await post(
      ctx,
      m.apiKey,
      FORWARD_ORDER,
      orderBody(m.okhla, { warehouse_id: undefined, pickup_location: 'homenew' }),
    );
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().payload).not.toHaveProperty('warnings');
    expect(await warehouseOfShipment(chosen.json().payload.shipment_id)).toBe(m.homeNew);
    // Mumbai to Mumbai: the zone of the chosen warehouse, not Okhla's.
    expect(chosen.json().payload.zone).toBe('zone_a');

    const message = "pickup_location 'HomeNew' names no warehouse of this account: create it first";
    const other = await ctx.createAccount();
    await createWarehouse(ctx, other.apiKey);
    const refused = await expectNothingWritten(ctx.database, () =>
      post(ctx, other.apiKey, FORWARD_ORDER, orderBody(m.okhla, { warehouse_id: '', pickup_location: 'HomeNew' })),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'pickup_location_unknown',
      message,
      errors: [message],
      details: [{ field: 'pickup_location', message }],
    });
  });

  it('PUT /order: the documented update with pickup_location "HomeNew" keeps warehouse_id and warns', async () => {
    const m = await twoWarehouses();
    const orderId = nextOrderId();
    const created = await post(
      ctx,
      m.apiKey,
      FORWARD_ORDER,
      withRealIds(ORDER_REQUESTS.forwardOrder, { warehouseId: m.okhla }, { store_name: undefined, order_id: orderId }),
    );
    expect(created.statusCode).toBe(200);
    const update = withRealIds(
      ORDER_REQUESTS.update,
      { warehouseId: m.okhla },
      { store_name: undefined, order_id: orderId, pickup_location: 'HomeNew' },
    );
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/custom/api/v1/order',
      headers: authed(m.apiKey),
      payload: update,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload.warnings).toEqual(warning('HomeNew'));
    expect(await warehouseOfShipment(created.json().payload.shipment_id)).toBe(m.okhla);
  });

  it('reverse-order-orchestration takes no pickup_location: "HomeNew" is ignored and named, never refused', async () => {
    const m = await twoWarehouses();
    const body = withRealIds(
      RETURN_REQUESTS.orchestration,
      { warehouseId: m.okhla },
      { order_id: nextOrderId('RET'), pickup_location: 'HomeNew' },
    );
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('pickup_location');
    const [row] = await queryRows<{ warehouse_id: string }>(
      ctx.database.db,
      sql`select warehouse_id from returns where id = ${response.json().payload.return_id}`,
    );
    expect(row!.warehouse_id).toBe(m.okhla);
  });
});
