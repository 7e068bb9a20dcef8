import { asAccount } from '../../../test/kit/actors.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { UNKNOWN_ID } from '../../../test/kit/http.js';
import { type OrderFields, orderBodyFromFields } from '../../../test/kit/orders.js';
import { ordersUseCases } from '../../../test/kit/orders-use-cases.js';
import { shipmentRow } from '../../../test/kit/rows.js';
import type { CarrierEvent } from '../../../test/kit/tracking.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import type { TrackingService } from '../tracking/tracking.service.js';
import type { OrderUpdateService } from './order-update.service.js';
import type { OrdersService } from './orders.service.js';
import type { CreateOrderInput } from './orders.schemas.js';

// The orders service's rules for an order already written, as functions over a seeded database
// (both engines): what a merchant may cancel (only what the courier has not picked up) and how a
// shipment is named for it, and what an update may change (everything before an AWB; after it,
// nothing that fixed the price or the courier; nothing once picked up). Booking is
// orders-rules.test.ts's; the routes' contract is cancel-*.test.ts's and order-update*.test.ts's.

let ctx: UseCaseContext;
let orders: OrdersService;
let updates: OrderUpdateService;
let tracking: TrackingService;
beforeAll(async () => {
  ctx = await useCaseContext();
  ({ orders, updates, tracking } = await ordersUseCases(ctx));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  ctx.clock.set(BOOKED_AT);
});

/** Friday 20 November 2026, 12:00 India time; the courier's scans come in from 09:10 UTC, the clock then at 10:00. */
const BOOKED_AT = '2026-11-20T06:30:00.000Z';
const SCANNED_AT = '2026-11-20T10:00:00.000Z';
const PICKED = { status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T09:10:00.000Z' };
const OUT = { status: 'out_for_delivery', event_time: '2026-11-20T09:20:00.000Z' };
const FAILED = { status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: '2026-11-20T09:30:00.000Z' };
const SCANS: Record<string, Omit<CarrierEvent, 'awb'>[]> = {
  in_transit: [PICKED],
  out_for_delivery: [PICKED, OUT],
  ndr_raised: [PICKED, OUT, FAILED],
  delivered: [PICKED, OUT, { status: 'delivered', event_time: '2026-11-20T09:30:00.000Z' }],
};

async function merchant() {
  const account = await ctx.createAccount();
  return { accountId: account.id, apiKey: account.apiKey, warehouseId: await createWarehouse(ctx, account.apiKey) };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

const body = (m: Merchant, f: OrderFields = {}) => orderBodyFromFields(m.warehouseId, f) as CreateOrderInput;
const booked = (m: Merchant, f: OrderFields = {}) =>
  orders.orchestrate(asAccount(m.accountId), body(m, { carrierId: SHADOWFAX, ...f }));
const draft = (m: Merchant, f: OrderFields = {}) => orders.createOrder(asAccount(m.accountId), body(m, f));

/** The courier's scans up to `status`, at SCANNED_AT. */
async function scanned(awb: string, status: keyof typeof SCANS) {
  ctx.clock.set(SCANNED_AT);
  const scans = SCANS[status]!.map((s) => ({ ...s, awb }));
  const results = await tracking.ingest(SHADOWFAX, scans);
  expect(results.filter((r) => !r.accepted)).toEqual([]);
}

const state = async (shipmentId: string) => {
  const row = await shipmentRow(ctx.database, shipmentId);
  return { status: row.status, sub_status: row.sub_status, cancelled_at: row.cancelled_at };
};
const CANCELLED = { status: 'cancelled', sub_status: 'cancelled_by_merchant' };

describe('cancelling by AWB', () => {
  it.each<[string, keyof typeof SCANS | null, object]>([
    ['booked, not picked up', null, { cancelled: true, message: 'Shipment cancelled' }],
    ['picked up', 'in_transit', { cancelled: false, message: 'Shipment is in_transit and can no longer be cancelled' }],
    [
      'out for delivery',
      'out_for_delivery',
      { cancelled: false, message: 'Shipment is out_for_delivery and can no longer be cancelled' },
    ],
    [
      'in a failed delivery',
      'ndr_raised',
      { cancelled: false, message: 'Shipment is ndr_raised and can no longer be cancelled' },
    ],
    ['delivered', 'delivered', { cancelled: false, message: 'Shipment is delivered and can no longer be cancelled' }],
  ])('a shipment %s', async (_name, moved, answer) => {
    const m = await merchant();
    const { awb_code: awb, shipment_id: id } = await booked(m);
    if (moved) await scanned(awb!, moved);
    ctx.clock.set('2026-11-20T11:15:00.000Z');
    expect(await orders.cancel(asAccount(m.accountId), [awb!])).toEqual([{ awb, ...answer }]);
    expect(await state(id)).toEqual(
      moved
        ? { status: moved, sub_status: SCANS[moved]!.at(-1)!.sub_status ?? null, cancelled_at: null }
        : { ...CANCELLED, cancelled_at: '2026-11-20T11:15:00.000Z' },
    );
  });

  it("answers each AWB in the order asked: one listed twice is cancelled once, unknown and another account's are not found", async () => {
    const m = await merchant();
    const other = await merchant();
    const [a, b] = [(await booked(m)).awb_code!, (await booked(m)).awb_code!];
    const theirs = await booked(other);
    const answers = await orders.cancel(asAccount(m.accountId), [a, 'SFX9999999999', theirs.awb_code!, a, b]);
    expect(answers).toEqual([
      { awb: a, cancelled: true, message: 'Shipment cancelled' },
      { awb: 'SFX9999999999', cancelled: false, message: 'AWB not found' },
      { awb: theirs.awb_code, cancelled: false, message: 'AWB not found' },
      { awb: a, cancelled: false, message: 'Shipment is already cancelled' },
      { awb: b, cancelled: true, message: 'Shipment cancelled' },
    ]);
    expect((await state(theirs.shipment_id)).status).toBe('pending');
    // Asked again, nothing is cancelled twice.
    expect(await orders.cancel(asAccount(m.accountId), [b])).toEqual([
      { awb: b, cancelled: false, message: 'Shipment is already cancelled' },
    ]);
    const events = await queryRows<{ type: string }>(
      ctx.db,
      sql`select e.type from events e join shipments s on s.id = e.subject_id
          where s.awb = ${b} and e.type = 'shipment.cancelled'`,
    );
    expect(events.length).toBe(1);
  });
});

describe('cancelling by shipment id', () => {
  it('cancels a draft without an AWB, sent alone or with its own id as the AWB', async () => {
    const m = await merchant();
    for (const sentAwb of [undefined, 'self']) {
      const { shipment_id: id } = await draft(m);
      expect(await orders.cancelShipment(asAccount(m.accountId), id, sentAwb === 'self' ? id : sentAwb)).toEqual({
        shipment_id: id,
        awb: null,
        cancelled: true,
        message: 'Shipment cancelled',
      });
      expect(await state(id)).toEqual({ ...CANCELLED, cancelled_at: BOOKED_AT });
    }
  });

  it.each<[string, boolean, string, string]>([
    ['a booked shipment sent with another AWB', true, 'SFX0000000000', 'its AWB is'],
    ['a draft sent with an AWB', false, 'SFX0000000000', 'it has no AWB yet'],
  ])('refuses %s as awb_mismatch, naming both fields, and cancels nothing', async (_name, isBooked, sent, actual) => {
    const m = await merchant();
    const shipment = isBooked ? await booked(m) : await draft(m);
    const id = shipment.shipment_id;
    const why = isBooked ? `${actual} ${shipment.awb_code}` : actual;
    const message = `shipment_awb '${sent}' is not the AWB of shipment_id '${id}' (${why}): send the pair as booked, or shipment_id alone`;
    await expect(orders.cancelShipment(asAccount(m.accountId), id, sent)).rejects.toMatchObject({
      code: 'awb_mismatch',
      kind: 'unprocessable',
      messages: [message],
      details: [
        { field: 'shipment_awb', message },
        { field: 'shipment_id', message: `shipment_id '${id}': ${why}` },
      ],
    });
    expect((await state(id)).status).toBe('pending');
  });

  it("answers an unknown id, one not a UUID and another account's alike, cancelling nothing", async () => {
    const m = await merchant();
    const theirs = await booked(await merchant());
    for (const [id, sent] of [
      [UNKNOWN_ID, undefined],
      ['not-a-uuid', 'SFX1'],
      [theirs.shipment_id, theirs.awb_code!],
    ] as const) {
      expect(await orders.cancelShipment(asAccount(m.accountId), id, sent)).toEqual({
        shipment_id: id,
        awb: sent ?? null,
        cancelled: false,
        message: 'Shipment not found',
      });
    }
    expect((await state(theirs.shipment_id)).status).toBe('pending');
  });
});

describe('updating an order', () => {
  const frozen = (field: string) => ({
    field,
    message: `${field} cannot change once an AWB is assigned (it would change the price or the courier): cancel the shipment and book it again`,
  });

  it('before an AWB, anything may change, and the shipment is priced again on it', async () => {
    const m = await merchant();
    const order = await draft(m);
    const updated = await updates.update(asAccount(m.accountId), {
      order_id: order.channel_order_id,
      weight: 1.2,
      billing_pincode: '682001',
      billing_city: 'Ernakulam',
      billing_state: 'Kerala',
      payment_method: 'COD',
      cod_collectible: 998,
    });
    expect(updated).toMatchObject({
      order_id: order.order_id,
      shipment_id: order.shipment_id,
      zone: 'zone_e',
      applied_weight: 1.2,
      cod: 1,
      awb_code: null,
      charges: null,
    });
    const row = await shipmentRow(ctx.database, order.shipment_id);
    expect([row.zone, Number(row.applied_weight_grams), row.is_cod, row.cod_amount]).toEqual(['E', 1200, true, 99800]);
  });

  it('before an AWB, refuses carrier_id (it belongs to the booking routes) and a parcel no courier carries', async () => {
    const m = await merchant();
    const order = await draft(m);
    await expect(
      updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, carrier_id: SHADOWFAX }),
    ).rejects.toMatchObject({
      code: 'carrier_id_not_accepted',
      kind: 'invalid',
      details: [
        { field: 'carrier_id', message: 'carrier_id belongs to forward-order-shipment or forward-order-orchestration' },
      ],
    });
    await expect(
      updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, weight: 61 }),
    ).rejects.toMatchObject({
      code: 'no_courier_serves',
    });
    expect(Number((await shipmentRow(ctx.database, order.shipment_id)).applied_weight_grams)).toBe(500);
  });

  it('after an AWB, what leaves the price and courier as booked may change; the booking stays whole', async () => {
    const m = await merchant();
    const order = await booked(m);
    const updated = await updates.update(asAccount(m.accountId), {
      order_id: order.channel_order_id,
      billing_customer_name: 'Meera',
      billing_phone: '9876501234',
      billing_address: '7 Nariman Point',
      order_items: [{ name: 'Silk Saree', sku: 'SAREE-RED', units: 1, selling_price: 998 }],
      // The same carrier, and a weight that differs by less than a milligram (the float round trip).
      carrier_id: SHADOWFAX,
      weight: 0.5000001,
    });
    expect(updated).toMatchObject({ awb_code: order.awb_code, courier_company_id: SHADOWFAX, charges: order.charges });
    const row = await shipmentRow(ctx.database, order.shipment_id);
    expect([row.awb, row.freight, row.zone, Number(row.applied_weight_grams)]).toEqual([
      order.awb_code,
      4200,
      'C',
      500,
    ]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['weight', { weight: 0.75 }, ['weight']],
    ['a dimension', { length: 30 }, ['length']],
    ['the delivery pincode', { billing_pincode: '400002' }, ['billing_pincode']],
    [
      'the shipping pincode, shipped apart',
      {
        shipping_is_billing: false,
        shipping_customer_name: 'Ravi',
        shipping_address: '4 Chandni Chowk',
        shipping_city: 'Delhi',
        shipping_pincode: '110006',
        shipping_state: 'Delhi',
        shipping_country: 'India',
        shipping_phone: '9811122233',
      },
      ['shipping_pincode'],
    ],
    [
      'payment to COD, with its amount',
      { payment_method: 'COD', cod_collectible: 998 },
      ['payment_method', 'cod_collectible'],
    ],
    [
      'weight and every dimension at once',
      { weight: 2, length: 20, breadth: 20, height: 20 },
      ['weight', 'length', 'breadth', 'height'],
    ],
  ])(
    'after an AWB, refuses a change of %s as order_change_refused naming each field',
    async (_name, change, fields) => {
      const m = await merchant();
      const order = await booked(m);
      await expect(
        updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, ...change }),
      ).rejects.toMatchObject({
        code: 'order_change_refused',
        kind: 'unprocessable',
        messages: fields.map((f) => frozen(f).message),
        details: fields.map(frozen),
      });
      const row = await shipmentRow(ctx.database, order.shipment_id);
      expect([row.freight, row.zone, Number(row.applied_weight_grams), row.is_cod]).toEqual([4200, 'C', 500, false]);
    },
  );

  it('after an AWB, refuses another warehouse and another carrier', async () => {
    const m = await merchant();
    const order = await booked(m);
    const elsewhere = await createWarehouse(ctx, m.apiKey, { name: 'Second Hub' });
    await expect(
      updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, warehouse_id: elsewhere }),
    ).rejects.toMatchObject({ code: 'order_change_refused', details: [frozen('warehouse_id')] });
    const message = 'carrier_id cannot change once an AWB is assigned: cancel the shipment and book it again';
    await expect(
      updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, carrier_id: DELHIVERY_SURFACE }),
    ).rejects.toMatchObject({ code: 'order_change_refused', details: [{ field: 'carrier_id', message }] });
  });

  const AREA =
    'cannot change after pickup: the parcel goes to the area it was booked for; initiate an RTO and book a new shipment to the new address';
  const PARCEL = 'cannot change after pickup: the courier carries the parcel as it was booked and picked up';
  it.each<[string, Record<string, unknown>, { field: string; message: string }[]]>([
    ['the street address and phone: accepted', { billing_address: '7 Nariman Point', billing_phone: '9876501234' }, []],
    ['the pincode', { billing_pincode: '400002' }, [{ field: 'billing_pincode', message: `billing_pincode ${AREA}` }]],
    ['the declared value', { sub_total: 1200 }, [{ field: 'sub_total', message: `sub_total ${PARCEL}` }]],
    [
      'an address naming another pincode',
      { billing_address: 'Flat 2, Bandra 400050' },
      [
        {
          field: 'billing_address',
          message:
            'billing_address names pincode 400050 but the parcel goes to 400001: the delivery pincode cannot change after pickup',
        },
      ],
    ],
    [
      'a landline, which the courier cannot call',
      { billing_phone: '02212345678' },
      [
        {
          field: 'billing_phone',
          message:
            'billing_phone must be a 10-digit Indian mobile number after a failed delivery: the courier calls it',
        },
      ],
    ],
  ])('while a failed delivery waits, a change of %s', async (_name, change, problems) => {
    const m = await merchant();
    const order = await booked(m);
    await scanned(order.awb_code!, 'ndr_raised');
    const update = updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, ...change });
    if (problems.length === 0) {
      expect(await update).toMatchObject({ status: 'ndr_raised', awb_code: order.awb_code });
      const [row] = await queryRows<{ billing_address: string; billing_phone: string }>(
        ctx.db,
        sql`select billing_address, billing_phone from orders where id = ${order.order_id}`,
      );
      expect(row).toEqual(change);
      return;
    }
    await expect(update).rejects.toMatchObject({ code: 'order_change_refused', details: problems });
  });

  it.each<[string, (awb: string, accountId: string) => Promise<unknown>, string]>([
    ['picked up', (awb) => scanned(awb, 'in_transit'), 'in_transit'],
    ['delivered', (awb) => scanned(awb, 'delivered'), 'delivered'],
    ['cancelled', (awb, accountId) => orders.cancel(asAccount(accountId), [awb]), 'cancelled'],
  ])('refuses any change to an order whose shipment was %s, as order_not_updatable', async (_name, move, status) => {
    const m = await merchant();
    const order = await booked(m);
    await move(order.awb_code!, m.accountId);
    const message = `The shipment is ${status}; an order can only be updated before it is picked up, and its delivery address and phone while a failed delivery waits (ndr_raised)`;
    await expect(
      updates.update(asAccount(m.accountId), { order_id: order.channel_order_id, billing_customer_name: 'Meera' }),
    ).rejects.toMatchObject({
      code: 'order_not_updatable',
      messages: [message],
      details: [{ field: 'order_id', message }],
    });
  });

  it("answers an unknown order_id and another account's alike: order_not_found, nothing changed", async () => {
    const m = await merchant();
    const theirs = await booked(await merchant());
    for (const orderId of ['NO-SUCH-ORDER', theirs.channel_order_id]) {
      await expect(
        updates.update(asAccount(m.accountId), { order_id: orderId, billing_customer_name: 'Meera' }),
      ).rejects.toMatchObject({
        code: 'order_not_found',
        kind: 'not_found',
        messages: [`Order '${orderId}' not found`],
      });
    }
    const [row] = await queryRows<{ billing_name: string }>(
      ctx.db,
      sql`select billing_name from orders where id = ${theirs.order_id}`,
    );
    expect(row!.billing_name).toBe('Asha');
  });
});
