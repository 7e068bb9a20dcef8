import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { awbPrefixOf } from '../../../test/kit/couriers.js';
import { ASSIGN, FORWARD_ORDER, post, UNKNOWN_ID } from '../../../test/kit/http.js';
import { LABEL_URL } from '../../../test/kit/labels.js';
import {
  bookedCharges,
  BOOKING_MILESTONES,
  codOrderBody,
  orchestrate,
  orderBody,
  type OrderPayload,
  ratesFor,
  TRACK_URL,
} from '../../../test/kit/orders.js';
import { expectNothingWritten, milestoneNames, shipmentRow } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const awbSequence = (awb: string) => Number(awb.slice(3));

describe('POST /custom/api/v1/forward-order-shipment', () => {
  async function pendingShipment(m: { apiKey: string; warehouseId: string }, body = orderBody(m.warehouseId)) {
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    return response.json().payload as OrderPayload;
  }

  it('books the cheapest courier when carrier_id is omitted: the same service and charges as POST /rates', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const pending = await pendingShipment(m, body);
    const rates = await ratesFor(ctx, m.apiKey, body);
    const [cheapest] = rates;
    const response = await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id });
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        ...pending,
        awb_code: expect.stringMatching(new RegExp(`^${awbPrefixOf(cheapest!.carrier_id)}\\d{10}$`)),
        courier_company_id: cheapest!.carrier_id,
        courier_name: cheapest!.carrier_name,
        label_url: expect.stringMatching(LABEL_URL),
        track_url: expect.stringMatching(TRACK_URL),
        charges: bookedCharges(cheapest!.charges),
        awb_generated: 1,
        label_generated: 1,
        pickup_generated: 1,
        pickup_scheduled_date: cheapest!.expected_delivery.pickup,
        pickup_booked_date: '2026-11-20 12:00:00',
        expected_delivery_date: cheapest!.expected_delivery.delivery,
        allocation: {
          rule_id: null,
          rule: null,
          strategy: 'cheapest',
          reason: `the account has no active rules: ${cheapest!.carrier_name}, the cheapest of ${rates.length} serviceable at ₹${cheapest!.charges.total_forward_charges.toFixed(2)}`,
        },
      },
    });
    expect(await shipmentRow(ctx.database, pending.shipment_id)).toMatchObject({
      status: 'pending',
      carrier_id: cheapest!.carrier_id,
      awb: payload.awb_code,
      freight: Math.round(cheapest!.charges.forward_freight_charges * 100),
      cod_charges: 0,
      rto_charges: Math.round(cheapest!.charges.rto_charges * 100),
      assigned_at: ctx.clock.now().toISOString(),
    });
    expect(await milestoneNames(ctx.database, pending.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it('prices a COD shipment on the amount collected, like POST /rates with that shipment_value', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, { sub_total: 9000, cod_collectible: 5000 });
    const pending = await pendingShipment(m, body);
    const [cheapest] = await ratesFor(ctx, m.apiKey, body);
    expect(cheapest!.charges.cod_charges).toBeGreaterThan(0);
    const payload = (await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id })).json().payload;
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.charges).toEqual(bookedCharges(cheapest!.charges));
    expect(payload.cod).toBe(1);
  });

  it('books the named carrier_id at its own quoted charges', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const pending = await pendingShipment(m, body);
    const named = (await ratesFor(ctx, m.apiKey, body)).find((c) => c.carrier_id === 'CARDELHSURF01')!;
    const response = await post(ctx, m.apiKey, ASSIGN, {
      shipment_id: pending.shipment_id,
      carrier_id: 'CARDELHSURF01',
    });
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.courier_company_id).toBe('CARDELHSURF01');
    expect(payload.courier_name).toBe('Delhivery Surface');
    expect(payload.awb_code).toMatch(/^DLS\d{10}$/);
    expect(payload.charges).toEqual(bookedCharges(named.charges));
  });

  it.each([
    [
      { billing_pincode: '194101' },
      'CARDELHAIR001',
      'Delhivery Air cannot carry this shipment: it does not serve Ladakh',
    ],
    [
      {},
      'CARDELH5KG001',
      'Delhivery Surface 5 kg cannot carry this shipment: the applicable weight 500 g is below its minimum of 3000 g',
    ],
    [
      { weight: 21 },
      'CARDELHSURF01',
      'Delhivery Surface cannot carry this shipment: the applicable weight 21000 g is above its maximum of 20000 g',
    ],
    [
      { billing_pincode: '190001', payment_method: 'COD', cod_collectible: 998 },
      'CARXPBSSTD001',
      'Xpressbees Standard cannot carry this shipment: it offers no cash on delivery in Jammu and Kashmir',
    ],
  ])(
    'refuses a named carrier that cannot carry the shipment (%j, %s) with 422 saying why',
    async (overrides, carrierId, message) => {
      const m = await merchant(ctx);
      const pending = await pendingShipment(m, orderBody(m.warehouseId, overrides));
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'courier_cannot_carry',
        message,
        errors: [message],
        details: [{ field: 'carrier_id', message }],
      });
      expect(await shipmentRow(ctx.database, pending.shipment_id)).toMatchObject({ awb: null, carrier_id: null });
    },
  );

  it('refuses an unknown carrier_id (422)', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    for (const carrierId of ['CARNOSUCH0001', 'fedex']) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
      );
      expect(response.statusCode).toBe(422);
      const message = `carrier_id '${carrierId}' is not a known courier service`;
      expect(response.json()).toEqual({
        code: 'courier_service_unknown',
        message,
        errors: [message],
        details: [{ field: 'carrier_id', message }],
      });
    }
  });

  it('refuses to assign a courier twice (422), keeping the first AWB', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    const first = (await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id })).json().payload;
    const message = 'A courier is already assigned to this shipment';
    for (const carrierId of [undefined, 'CARDELHSURF01']) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: carrierId }),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: 'courier_already_assigned',
        message,
        errors: [message],
        details: [{ field: 'shipment_id', message }],
      });
    }
    // An orchestrated shipment already has its courier too.
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await post(ctx, m.apiKey, ASSIGN, { shipment_id: booked.shipment_id })).statusCode).toBe(422);
    expect((await shipmentRow(ctx.database, pending.shipment_id)).awb).toBe(first.awb_code);
  });

  it('lets exactly one of two concurrent assignments win', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    const responses = await Promise.all([
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }),
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id, carrier_id: 'CARDELHSURF01' }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const winner = responses.find((r) => r.statusCode === 200)!.json().payload;
    expect((await shipmentRow(ctx.database, pending.shipment_id)).awb).toBe(winner.awb_code);
    expect(await milestoneNames(ctx.database, pending.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it("refuses an unknown shipment_id and another account's (422), touching neither", async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aPending = await pendingShipment(a);
    for (const shipmentId of [UNKNOWN_ID, aPending.shipment_id]) {
      const response = await expectNothingWritten(ctx.database, () =>
        post(ctx, b.apiKey, ASSIGN, { shipment_id: shipmentId }),
      );
      expect(response.statusCode).toBe(422);
      const message = `Shipment '${shipmentId}' not found`;
      expect(response.json()).toEqual({
        code: 'shipment_to_book_not_found',
        message,
        errors: [message],
        details: [{ field: 'shipment_id', message }],
      });
    }
    expect(await shipmentRow(ctx.database, aPending.shipment_id)).toMatchObject({ awb: null, carrier_id: null });
  });

  it('refuses a shipment that is no longer pending (422)', async () => {
    const m = await merchant(ctx);
    const pending = await pendingShipment(m);
    // No route moves an unbooked shipment out of pending yet: set the state directly.
    await ctx.database.db.execute(sql`update shipments set status = 'cancelled' where id = ${pending.shipment_id}`);
    const response = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(['The shipment is cancelled; only a pending shipment can be booked']);
  });
});

describe('AWB numbers', () => {
  it("number each courier's shipments in its own series, one after another", async () => {
    const m = await merchant(ctx);
    const cheapest: OrderPayload[] = [];
    for (let i = 0; i < 3; i++) cheapest.push(await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId)));
    const prefix = awbPrefixOf(cheapest[0]!.courier_company_id!);
    expect(cheapest.map((p) => p.awb_code!.slice(0, 3))).toEqual([prefix, prefix, prefix]);
    const first = awbSequence(cheapest[0]!.awb_code!);
    expect(cheapest.map((p) => awbSequence(p.awb_code!))).toEqual([first, first + 1, first + 2]);

    const dls = [
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARDELHSURF01' })),
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARDELHSURF01' })),
    ];
    expect(dls.map((p) => p.awb_code!.slice(0, 3))).toEqual(['DLS', 'DLS']);
    expect(awbSequence(dls[1]!.awb_code!)).toBe(awbSequence(dls[0]!.awb_code!) + 1);

    // Another booking with the cheapest courier continues its own series, untouched by DLS.
    const next = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect(next.awb_code).toBe(`${prefix}${String(first + 3).padStart(10, '0')}`);
  });

  it('are unique under concurrent bookings, across accounts, with no number handed out twice', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const bookings = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        orchestrate(ctx, i % 2 ? a.apiKey : b.apiKey, orderBody(i % 2 ? a.warehouseId : b.warehouseId)),
      ),
    );
    const awbs = bookings.map((p) => p.awb_code!);
    expect(new Set(awbs).size).toBe(20);
    const prefix = awbPrefixOf(bookings[0]!.courier_company_id!);
    expect(awbs.every((awb) => awb.startsWith(prefix))).toBe(true);
    const numbers = awbs.map(awbSequence).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => numbers[0]! + i));
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(distinct awb)::int as n from shipments where awb in (${sql.join(
        awbs.map((awb) => sql`${awb}`),
        sql`, `,
      )})`,
    );
    expect(Number(row!.n)).toBe(20);
  });
});
