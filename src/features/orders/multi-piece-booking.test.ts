import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX, sandboxRates } from '../../../test/kit/couriers.js';
import { admin, ASSIGN, authed, CANCEL, FORWARD_ORDER, post } from '../../../test/kit/http.js';
import { BOXED_ITEMS, BOXES, NOW_IN_INDIA, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// A multi-piece order booked (docs/paperwork.md, "Multi-piece shipments"), on the sandbox courier,
// whose boxes are booked as linked parcels: the courier is asked for each box, box 1 first, and
// each box's AWB is stored with the shipment's own writes (shipment_boxes), charged box by box;
// the answers keep Velocity's shape under the master AWB, with the boxes beside it. An account's
// deletion takes its boxes and their sandbox parcels with it.

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  ctx = await createTestApp({ rates: sandboxRates() });
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey);
});
afterAll(async () => {
  await ctx.close();
});

const multiPiece = (overrides: Record<string, unknown> = {}) =>
  orderBody(warehouseId, {
    order_items: BOXED_ITEMS,
    weight: 2,
    length: 30,
    breadth: 20,
    height: 25,
    packages: BOXES,
    carrier_id: SHADOWFAX,
    ...overrides,
  });

interface BoxAnswer {
  box_no: number;
  awb: string;
  status: string;
}

async function boxRows(shipmentId: string) {
  return queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select box_no, box_count, awb, courier_reference, weight_grams, length_cm, breadth_cm, height_cm, items, status,
          status_at = ${ctx.clock.now().toISOString()}::timestamptz as status_at_now
        from shipment_boxes where shipment_id = ${shipmentId} order by box_no`,
  );
}

const expectedRows = (awbs: string[], references: string[]) => [
  {
    box_no: 1,
    box_count: 2,
    awb: awbs[0],
    courier_reference: references[0],
    weight_grams: 1200,
    length_cm: 30,
    breadth_cm: 20,
    height_cm: 15,
    items: [{ sku: 'KURTA-M-BLUE', units: 2 }],
    status: 'pending',
    status_at_now: true,
  },
  {
    box_no: 2,
    box_count: 2,
    awb: awbs[1],
    courier_reference: references[1],
    weight_grams: 800,
    length_cm: 25,
    breadth_cm: 20,
    height_cm: 10,
    items: [{ sku: 'SCARF-RED', units: 1 }],
    status: 'pending',
    status_at_now: true,
  },
];

describe('booking a multi-piece order', () => {
  it('forward-order-orchestration: an AWB per box, box 1 the master, stored with the booking and charged box by box', async () => {
    const booked = await orchestrate(ctx, apiKey, multiPiece());
    const boxes = (booked as unknown as { boxes: BoxAnswer[] }).boxes;
    expect(booked.awb_code).toMatch(/^\S+$/);
    expect(boxes.map((box) => [box.box_no, box.status])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
    ]);
    expect(boxes[0]!.awb).toBe(booked.awb_code);
    expect(boxes[1]!.awb).not.toBe(booked.awb_code);
    expect(booked.applied_weight).toBe(2.8);
    const rows = await boxRows(booked.shipment_id);
    expect(rows).toEqual(
      expectedRows(
        boxes.map((box) => box.awb),
        rows.map((row) => row.courier_reference as string),
      ),
    );
    // Box 1 is booked under the shipment's id, as a parcel in one box is.
    expect(rows[0]!.courier_reference).toBe(booked.shipment_id);
    expect(rows[1]!.courier_reference).not.toBe(booked.shipment_id);

    // Each box priced as the parcel it is: the freight of the two boxes booked alone, summed; COD none.
    const alone = await Promise.all(
      BOXES.map(({ items: _, ...box }) =>
        orchestrate(ctx, apiKey, orderBody(warehouseId, { ...box, carrier_id: SHADOWFAX })),
      ),
    );
    expect(booked.charges!.forward_freight_charges).toBe(
      alone.reduce((sum, one) => sum + one.charges!.forward_freight_charges, 0),
    );
    expect(booked.charges!.cod_charges).toBe(0);
  });

  it('charges cash on delivery once, on the shipment value, whatever its boxes', async () => {
    const cod = { payment_method: 'COD', cod_collectible: 998 };
    const booked = await orchestrate(ctx, apiKey, multiPiece(cod));
    const one = await orchestrate(ctx, apiKey, orderBody(warehouseId, { ...cod, carrier_id: SHADOWFAX }));
    expect(booked.charges!.cod_charges).toBeGreaterThan(0);
    expect(booked.charges!.cod_charges).toBe(one.charges!.cod_charges);
  });

  it('forward-order then forward-order-shipment: the boxes are booked and stored the same way', async () => {
    const created = await post(ctx, apiKey, FORWARD_ORDER, multiPiece({ carrier_id: undefined }));
    expect(created.statusCode).toBe(200);
    const { shipment_id: shipmentId } = created.json().payload;
    expect(await boxRows(shipmentId)).toEqual([]);
    const assigned = await post(ctx, apiKey, ASSIGN, { shipment_id: shipmentId, carrier_id: SHADOWFAX });
    expect(assigned.statusCode).toBe(200);
    const payload = assigned.json().payload;
    expect(payload.assigned_date_time).toEqual(NOW_IN_INDIA);
    const awbs = payload.boxes.map((box: BoxAnswer) => box.awb);
    expect(awbs[0]).toBe(payload.awb_code);
    const rows = await boxRows(shipmentId);
    expect(rows).toEqual(
      expectedRows(
        awbs,
        rows.map((row) => row.courier_reference as string),
      ),
    );

    // An update of the booked order (the buyer's phone) answers the boxes as booked.
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: '/custom/api/v1/order',
      headers: authed(apiKey),
      payload: { order_id: payload.channel_order_id, billing_phone: '9123456789' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().payload.boxes.map((box: BoxAnswer) => box.awb)).toEqual(awbs);
  });

  it('cancel-order by the master AWB calls off every box at the courier', async () => {
    const booked = await orchestrate(ctx, apiKey, multiPiece());
    const awbs = (booked as unknown as { boxes: BoxAnswer[] }).boxes.map((box) => box.awb);
    const cancelled = await post(ctx, apiKey, CANCEL, { awbs: [booked.awb_code] });
    expect(cancelled.json().results).toEqual([
      { awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' },
    ]);
    const parcels = await queryRows<{ awb: string; cancelled: boolean }>(
      ctx.database.db,
      sql`select awb, cancelled_at is not null as cancelled from sandbox_parcels
          where awb in (${sql.join(
            awbs.map((awb) => sql`${awb}`),
            sql`, `,
          )}) order by awb`,
    );
    expect(parcels).toEqual([...awbs].sort().map((awb) => ({ awb, cancelled: true })));
  });

  it("an account's deletion takes its boxes and the sandbox parcels of every box's AWB", async () => {
    const other = await ctx.createAccount();
    const otherWarehouse = await createWarehouse(ctx, other.apiKey);
    const booked = await orchestrate(ctx, other.apiKey, { ...multiPiece(), warehouse_id: otherWarehouse });
    const awbs = (booked as unknown as { boxes: BoxAnswer[] }).boxes.map((box) => box.awb);
    const parcels = () =>
      queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from sandbox_parcels where awb in (${sql.join(
          awbs.map((awb) => sql`${awb}`),
          sql`, `,
        )})`,
      );
    expect((await parcels())[0]!.n).toBe(2);
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/admin/v1/accounts/${other.id}`, headers: admin });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.deleted.shipment_boxes).toBe(2);
    expect((await parcels())[0]!.n).toBe(0);
    expect(await queryRows(ctx.database.db, sql`select 1 from shipment_boxes where account_id = ${other.id}`)).toEqual(
      [],
    );
  });
});
