import { asAccount } from '../../../test/kit/actors.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLUEDART_AIR, DELHIVERY_AIR, DELHIVERY_SURFACE, SHADOWFAX, XPRESSBEES } from '../../../test/kit/couriers.js';
import { post, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { type OrderFields, orderBodyFromFields } from '../../../test/kit/orders.js';
import { ordersUseCases } from '../../../test/kit/orders-use-cases.js';
import { shipmentRow } from '../../../test/kit/rows.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import type { OrdersService } from './orders.service.js';
import type { CreateOrderInput } from './orders.schemas.js';

// The orders service's booking rules as functions over a seeded database (both engines): which
// courier a booking gets (the one named, else the account's allocation), the named courier refused
// and why, what may be assigned to which shipment, the merchant's order_id once per account, and
// another account's shipments unseen. Cancellation and updates are orders-changes-rules.test.ts's;
// the routes' contract is forward-order*.test.ts's and idempotency.test.ts's.

let ctx: UseCaseContext;
let orders: OrdersService;
beforeAll(async () => {
  ctx = await useCaseContext();
  ({ orders } = await ordersUseCases(ctx));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  // Friday 20 November 2026, 12:00 India time: a working day, so the pickup is today.
  ctx.clock.set('2026-11-20T06:30:00.000Z');
});

/** A new account with the Okhla warehouse (New Delhi 110001). */
async function merchant() {
  const account = await ctx.createAccount();
  return { accountId: account.id, apiKey: account.apiKey, warehouseId: await createWarehouse(ctx, account.apiKey) };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

const body = (m: Merchant, f: OrderFields = {}) => orderBodyFromFields(m.warehouseId, f) as CreateOrderInput;

async function written(accountId: string) {
  const [row] = await queryRows<{ orders: number; shipments: number; events: number }>(
    ctx.db,
    sql`select (select count(*)::int from orders where account_id = ${accountId}) as orders,
               (select count(*)::int from shipments where account_id = ${accountId}) as shipments,
               (select count(*)::int from events where account_id = ${accountId}) as events`,
  );
  return { orders: Number(row!.orders), shipments: Number(row!.shipments), events: Number(row!.events) };
}

/** What a booking keeps of its price (paise, grams) and courier. */
async function booking(shipmentId: string) {
  const row = await shipmentRow(ctx.database, shipmentId);
  return {
    carrier: row.carrier_id,
    awb: row.awb,
    zone: row.zone,
    grams: Number(row.applied_weight_grams),
    freight: row.freight,
    cod: row.cod_charges,
    rto: row.rto_charges,
    codAmount: row.cod_amount,
  };
}

const CHEAPEST_OF_11 = (rupees: string) =>
  `the account has no active rules: Shadowfax Standard, the cheapest of 11 serviceable at ₹${rupees}`;

describe('the courier a booking gets', () => {
  // The shipped rate card (data/couriers.json), from New Delhi: Shadowfax ₹42 first 500 g and ₹40
  // each 500 g more in zone C, ₹48 first in D, ₹64 in E; Delhivery Surface ₹46 in C, COD ₹35 or 1.75%.
  it.each<[string, OrderFields, object]>([
    ['Shadowfax, Mumbai, 0.5 kg', { carrierId: SHADOWFAX }, { zone: 'C', grams: 500, freight: 4200 }],
    ['Shadowfax, Jaipur', { carrierId: SHADOWFAX, to: 'jaipur' }, { zone: 'D', grams: 500, freight: 4800 }],
    ['Shadowfax, Kochi', { carrierId: SHADOWFAX, to: 'kochi' }, { zone: 'E', grams: 500, freight: 6400 }],
    ['Shadowfax, 1.2 kg: two more slabs', { carrierId: SHADOWFAX, weight: 1.2 }, { grams: 1200, freight: 12200 }],
    [
      'Delhivery Surface, COD ₹998: the ₹35 floor',
      { carrierId: DELHIVERY_SURFACE, cod: true },
      { zone: 'C', freight: 4600, cod: 3500, codAmount: 99800 },
    ],
    [
      'Delhivery Surface, COD ₹4000: 1.75%',
      { carrierId: DELHIVERY_SURFACE, cod: true, value: 4000 },
      { freight: 4600, cod: 7000, codAmount: 400000 },
    ],
  ])('orchestrate books the named service at its own price: %s', async (_name, fields, kept) => {
    const m = await merchant();
    const answer = await orders.orchestrate(asAccount(m.accountId), body(m, fields));
    const prefix = fields.carrierId === SHADOWFAX ? 'SFX' : 'DLS';
    expect(answer).toMatchObject({
      status: 'pending',
      courier_company_id: fields.carrierId,
      awb_code: expect.stringMatching(new RegExp(`^${prefix}\\d{10}$`)),
      allocation: null,
      awb_generated: 1,
      pickup_scheduled_date: '2026-11-20',
      pickup_booked_date: '2026-11-20 12:00:00',
    });
    const row = await booking(answer.shipment_id);
    expect(row).toMatchObject({ carrier: fields.carrierId, awb: answer.awb_code, ...kept });
    // The answer speaks rupees of the same paise; RTO is charged at the forward freight.
    const { freight, cod, rto } = row as { freight: number; cod: number; rto: number };
    expect([rto, answer.charges]).toMatchObject([
      freight,
      { forward_freight_charges: freight / 100, cod_charges: cod / 100, total_forward_charges: (freight + cod) / 100 },
    ]);
  });

  it('without carrier_id (or with a blank one), an account without rules gets the cheapest serviceable', async () => {
    const m = await merchant();
    for (const carrierId of [undefined, '']) {
      const answer = await orders.orchestrate(asAccount(m.accountId), body(m, { carrierId }));
      expect([answer.courier_company_id, answer.allocation]).toEqual([
        SHADOWFAX,
        { rule_id: null, rule: null, strategy: 'cheapest', reason: CHEAPEST_OF_11('42.00') },
      ]);
    }
  });

  it("an account's allocation rule chooses for the orders it matches, and a named carrier_id overrides it", async () => {
    const m = await merchant();
    // Seeded before this account's first booking: the allocator keeps an account's rules for 10 s.
    const rule = await post(ctx, m.apiKey, `${V1}/allocation/rules`, {
      name: 'COD by Delhivery',
      priority: 1,
      strategy: 'priority',
      carrier_ids: [DELHIVERY_SURFACE],
      conditions: { payment_methods: ['cod'] },
    });
    expect(rule.statusCode).toBe(201);
    const ruleId = rule.json().data.id;

    const cod = await orders.orchestrate(asAccount(m.accountId), body(m, { cod: true }));
    expect([cod.courier_company_id, cod.allocation]).toEqual([
      DELHIVERY_SURFACE,
      {
        rule_id: ruleId,
        rule: 'COD by Delhivery',
        strategy: 'priority',
        reason: "Delhivery Surface is number 1 of the rule's priority list",
      },
    ]);
    const prepaid = await orders.orchestrate(asAccount(m.accountId), body(m));
    expect([prepaid.courier_company_id, prepaid.allocation]).toEqual([
      SHADOWFAX,
      {
        rule_id: null,
        rule: null,
        strategy: 'cheapest',
        reason: 'no rule matched: Shadowfax Standard, the cheapest of 11 serviceable at ₹42.00',
      },
    ]);
    const named = await orders.orchestrate(asAccount(m.accountId), body(m, { cod: true, carrierId: SHADOWFAX }));
    expect([named.courier_company_id, named.allocation]).toEqual([SHADOWFAX, null]);
    // The check and the assignment choose alike.
    expect(await orders.check(m.accountId, body(m, { cod: true }))).toEqual({
      carrier_id: DELHIVERY_SURFACE,
      courier_name: 'Delhivery Surface',
    });
    const pending = await orders.createOrder(asAccount(m.accountId), body(m, { cod: true }));
    expect(
      (await orders.assignCourier(asAccount(m.accountId), pending.shipment_id, undefined)).allocation?.rule_id,
    ).toBe(ruleId);
  });

  const cannot = (name: string, why: string) => `${name} cannot carry this shipment: ${why}`;
  it.each<[string, OrderFields, Record<string, unknown>, string, string]>([
    [
      'a state it does not serve',
      {},
      { billing_pincode: '194101' },
      DELHIVERY_AIR,
      cannot('Delhivery Air', 'it does not serve Ladakh'),
    ],
    [
      'above its maximum weight',
      { weight: 21 },
      {},
      DELHIVERY_SURFACE,
      cannot('Delhivery Surface', 'the applicable weight 21000 g is above its maximum of 20000 g'),
    ],
    [
      'below its minimum weight',
      {},
      {},
      'CARDELH5KG001',
      cannot('Delhivery Surface 5 kg', 'the applicable weight 500 g is below its minimum of 3000 g'),
    ],
    [
      'COD where it offers none',
      { cod: true },
      { billing_pincode: '190001' },
      XPRESSBEES,
      cannot('Xpressbees Standard', 'it offers no cash on delivery in Jammu and Kashmir'),
    ],
  ])(
    'a named service that cannot carry the parcel (%s) is refused, naming carrier_id, with nothing written',
    async (_name, fields, overrides, carrierId, message) => {
      const m = await merchant();
      const order = { ...body(m, { ...fields, carrierId }), ...overrides };
      const refusal = {
        code: 'courier_cannot_carry',
        kind: 'unprocessable',
        messages: [message],
        details: [{ field: 'carrier_id', message }],
      };
      await expect(orders.orchestrate(asAccount(m.accountId), order)).rejects.toMatchObject(refusal);
      await expect(orders.check(m.accountId, order)).rejects.toMatchObject(refusal);
      expect(await written(m.accountId)).toEqual({ orders: 0, shipments: 0, events: 0 });
      // Assigned to a pending shipment, the same refusal, and the shipment keeps no courier.
      const pending = await orders.createOrder(asAccount(m.accountId), { ...order, carrier_id: undefined });
      await expect(orders.assignCourier(asAccount(m.accountId), pending.shipment_id, carrierId)).rejects.toMatchObject(
        refusal,
      );
      expect(await booking(pending.shipment_id)).toMatchObject({ carrier: null, awb: null, freight: null });
    },
  );

  it.each(['CARNOSUCH0001', 'fedex', BLUEDART_AIR.toLowerCase()])(
    'an unknown carrier_id %s is courier_service_unknown, before any booking',
    async (carrierId) => {
      const m = await merchant();
      const message = `carrier_id '${carrierId}' is not a known courier service`;
      const refusal = { code: 'courier_service_unknown', details: [{ field: 'carrier_id', message }] };
      await expect(orders.orchestrate(asAccount(m.accountId), body(m, { carrierId }))).rejects.toMatchObject(refusal);
      const pending = await orders.createOrder(asAccount(m.accountId), body(m));
      await expect(orders.assignCourier(asAccount(m.accountId), pending.shipment_id, carrierId)).rejects.toMatchObject(
        refusal,
      );
      expect(await written(m.accountId)).toMatchObject({ orders: 1, shipments: 1 });
    },
  );

  it.each<[string, OrderFields, Record<string, unknown>]>([
    ['61 kg: above the heaviest service (60 kg)', { weight: 61 }, {}],
    ['a pincode in an unserved series (9…, the army post office)', {}, { billing_pincode: '900056' }],
  ])(
    'a parcel no service carries (%s) is no_courier_serves, by orchestrate and forward-order alike',
    async (_name, fields, overrides) => {
      const m = await merchant();
      const order = { ...body(m, fields), ...overrides };
      const refusal = {
        code: 'no_courier_serves',
        kind: 'unprocessable',
        messages: ['No courier service can carry this shipment: check the pincodes, weight and payment method'],
      };
      await expect(orders.orchestrate(asAccount(m.accountId), order)).rejects.toMatchObject(refusal);
      await expect(orders.createOrder(asAccount(m.accountId), order)).rejects.toMatchObject(refusal);
      expect(await written(m.accountId)).toEqual({ orders: 0, shipments: 0, events: 0 });
    },
  );

  it('forward-order writes a pending shipment without a courier, and refuses carrier_id', async () => {
    const m = await merchant();
    const pending = await orders.createOrder(asAccount(m.accountId), body(m, { weight: 1.2, to: 'jaipur' }));
    expect(pending).toMatchObject({ status: 'pending', awb_code: null, courier_company_id: null, charges: null });
    expect(await booking(pending.shipment_id)).toMatchObject({ carrier: null, zone: 'D', grams: 1200, freight: null });
    await expect(orders.createOrder(asAccount(m.accountId), body(m, { carrierId: SHADOWFAX }))).rejects.toMatchObject({
      kind: 'invalid',
      details: [
        { field: 'carrier_id', message: 'carrier_id belongs to forward-order-shipment or forward-order-orchestration' },
      ],
    });
  });
});

describe('assigning a courier to a shipment (forward-order-shipment)', () => {
  it('books the pending shipment in place: same order and shipment, the courier, AWB and price, once', async () => {
    const m = await merchant();
    const pending = await orders.createOrder(asAccount(m.accountId), body(m, { to: 'kochi' }));
    const assigned = await orders.assignCourier(asAccount(m.accountId), pending.shipment_id, DELHIVERY_SURFACE);
    expect(assigned).toMatchObject({
      order_id: pending.order_id,
      shipment_id: pending.shipment_id,
      courier_company_id: DELHIVERY_SURFACE,
      awb_code: expect.stringMatching(/^DLS\d{10}$/),
      allocation: null,
    });
    expect(await booking(pending.shipment_id)).toMatchObject({ carrier: DELHIVERY_SURFACE, zone: 'E', grams: 500 });
    const events = await queryRows<{ type: string }>(
      ctx.db,
      sql`select type from events where subject_id = ${pending.shipment_id} order by sequence`,
    );
    expect(events.map((e) => e.type)).toEqual(['shipment.created', 'shipment.booked']);
  });

  it('refuses a shipment that already has a courier, whether assigned, orchestrated or cancelled since', async () => {
    const m = await merchant();
    const assigned = await orders.createOrder(asAccount(m.accountId), body(m));
    const first = await orders.assignCourier(asAccount(m.accountId), assigned.shipment_id, undefined);
    const orchestrated = await orders.orchestrate(asAccount(m.accountId), body(m, { carrierId: SHADOWFAX }));
    const cancelled = await orders.orchestrate(asAccount(m.accountId), body(m, { carrierId: SHADOWFAX }));
    expect((await orders.cancel(asAccount(m.accountId), [cancelled.awb_code!]))[0]!.cancelled).toBe(true);
    const message = 'A courier is already assigned to this shipment';
    for (const shipmentId of [assigned.shipment_id, orchestrated.shipment_id, cancelled.shipment_id]) {
      for (const carrierId of [undefined, DELHIVERY_SURFACE]) {
        await expect(orders.assignCourier(asAccount(m.accountId), shipmentId, carrierId)).rejects.toMatchObject({
          code: 'courier_already_assigned',
          kind: 'unprocessable',
          messages: [message],
          details: [{ field: 'shipment_id', message }],
        });
      }
    }
    expect((await booking(assigned.shipment_id)).awb).toBe(first.awb_code);
  });

  it('refuses a shipment without a courier that is no longer pending (a cancelled draft)', async () => {
    const m = await merchant();
    const draft = await orders.createOrder(asAccount(m.accountId), body(m));
    expect(await orders.cancelShipment(asAccount(m.accountId), draft.shipment_id, undefined)).toMatchObject({
      cancelled: true,
    });
    const message = 'The shipment is cancelled; only a pending shipment can be booked';
    await expect(orders.assignCourier(asAccount(m.accountId), draft.shipment_id, SHADOWFAX)).rejects.toMatchObject({
      code: 'shipment_not_pending',
      messages: [message],
      details: [{ field: 'shipment_id', message }],
    });
    expect(await booking(draft.shipment_id)).toMatchObject({ carrier: null, awb: null });
  });

  it("answers an unknown shipment id and another account's alike, touching neither", async () => {
    const owner = await merchant();
    const other = await merchant();
    const draft = await orders.createOrder(asAccount(owner.accountId), body(owner));
    for (const shipmentId of [UNKNOWN_ID, draft.shipment_id]) {
      const message = `Shipment '${shipmentId}' not found`;
      await expect(orders.assignCourier(asAccount(other.accountId), shipmentId, SHADOWFAX)).rejects.toMatchObject({
        code: 'shipment_to_book_not_found',
        kind: 'unprocessable',
        messages: [message],
        details: [{ field: 'shipment_id', message }],
      });
    }
    expect(await booking(draft.shipment_id)).toMatchObject({ carrier: null, awb: null });
    expect(await written(other.accountId)).toEqual({ orders: 0, shipments: 0, events: 0 });
  });
});

describe("the merchant's order_id", () => {
  it.each<[string, (m: Merchant, orderId: string) => Promise<unknown>]>([
    ['forward-order', (m, orderId) => orders.createOrder(asAccount(m.accountId), body(m, { orderId }))],
    [
      'orchestrate',
      (m, orderId) => orders.orchestrate(asAccount(m.accountId), body(m, { orderId, carrierId: SHADOWFAX })),
    ],
    ['the check', (m, orderId) => orders.check(m.accountId, body(m, { orderId }))],
  ])('is taken once per account: %s of a used one is order_id_taken, writing nothing', async (_name, again) => {
    const m = await merchant();
    const orderId = `DUP-${crypto.randomUUID()}`;
    await orders.orchestrate(asAccount(m.accountId), body(m, { orderId, carrierId: SHADOWFAX }));
    const before = await written(m.accountId);
    const message = `Order '${orderId}' already exists`;
    await expect(again(m, orderId)).rejects.toMatchObject({
      code: 'order_id_taken',
      kind: 'unprocessable',
      messages: [message],
      details: [{ field: 'order_id', message }],
    });
    expect(await written(m.accountId)).toEqual(before);
  });

  it('another account may use the same order_id', async () => {
    const [a, b] = [await merchant(), await merchant()];
    const orderId = `SHARED-${crypto.randomUUID()}`;
    const first = await orders.createOrder(asAccount(a.accountId), body(a, { orderId }));
    const second = await orders.orchestrate(asAccount(b.accountId), body(b, { orderId, carrierId: SHADOWFAX }));
    expect([first.channel_order_id, second.channel_order_id]).toEqual([orderId, orderId]);
    expect(second.order_id).not.toBe(first.order_id);
  });
});
