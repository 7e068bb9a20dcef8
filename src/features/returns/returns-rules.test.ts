import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asAccount } from '../../../test/kit/actors.js';
import {
  awbPrefixOf,
  BLUEDART_AIR,
  DELHIVERY_AIR,
  DELHIVERY_SURFACE,
  DTDC,
  SHADOWFAX,
} from '../../../test/kit/couriers.js';
import { detailedQcItem } from '../../../test/kit/returns.js';
import {
  buildReturns,
  RETURN_LINKS,
  returnEvents,
  returnInput,
  returnRow,
  returnsWritten,
} from '../../../test/kit/returns-use-cases.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { NO_QC_COURIER } from './return-courier-choice.js';
import type { ReturnsService } from './returns.service.js';

// The returns service's rules as functions over a seeded database (both engines), built as
// returns.register.ts builds it: which courier a return is booked with (the named one or the
// cheapest, QC only with a QC-capable one), the charges and promised dates frozen onto it from the
// quote at the injected clock, and a return's order_id within its account. Assigning a courier
// later is returns-assignment-rules.test.ts's, cancellation and forward shipments
// returns-cancellation-rules.test.ts's, the routes' contract returns.once.test.ts's.

let ctx: UseCaseContext;
let returns: ReturnsService;
beforeAll(async () => {
  ctx = await useCaseContext();
  ({ returns } = buildReturns(ctx));
});
afterAll(async () => {
  await ctx.close();
});
/** Friday 20 November 2026, 12:00 India time: before the couriers' cut-off, so most pick up today. */
const FRIDAY_NOON = '2026-11-20T06:30:00.000Z';
beforeEach(() => {
  ctx.clock.set(FRIDAY_NOON);
});

const DELHIVERY_10KG = 'CARDELH10KG01';
const DELHIVERY_5KG = 'CARDELH5KG001';
const XPRESSBEES_250G = 'CARXPBS250G01';
const awbOf = (carrierId: string) => new RegExp(`^${awbPrefixOf(carrierId)}\\d{10}$`);
const rupees = (paise: number) => (paise / 100).toFixed(2);

interface Booked {
  carrier: string;
  freight: number;
  qc: number;
  fee: number;
  qcApplied: boolean;
  note: string | null;
  pickup: string;
  delivery: string;
  grams?: number;
}

/** What a case books: its courier, charges in paise and promised dates; QC applied when QC is charged. */
const booked = (
  carrier: string,
  [freight, qc, fee]: [number, number, number],
  [pickup, delivery]: [string, string],
  more: Partial<Booked> = {},
): Booked => ({ carrier, freight, qc, fee, qcApplied: qc > 0, note: null, pickup, delivery, ...more });

/** From Mumbai 400001 to Delhi 110001 (zone C), 0.5 kg in 10x10x10 cm unless the case says. */
const BOOKINGS: [string, Record<string, unknown>, Booked][] = [
  [
    'a QC return, no courier named: the cheapest QC-capable one, QC charged',
    { qc: true },
    booked(SHADOWFAX, [6000, 1200, 0], ['2026-11-20', '2026-11-25']),
  ],
  [
    "a QC return, carrier_id '': as none named",
    { qc: true, carrierId: '' },
    booked(SHADOWFAX, [6000, 1200, 0], ['2026-11-20', '2026-11-25']),
  ],
  [
    'a QC return naming Delhivery Air: its freight, its QC fee and its platform fee, next-day pickup',
    { qc: true, carrierId: DELHIVERY_AIR },
    booked(DELHIVERY_AIR, [8400, 1500, 200], ['2026-11-21', '2026-11-25']),
  ],
  [
    'a plain return, none named: the cheapest of every service, no QC fee',
    {},
    booked(SHADOWFAX, [6000, 0, 0], ['2026-11-20', '2026-11-25']),
  ],
  [
    'a plain return naming a QC-capable service: booked without QC',
    { carrierId: DELHIVERY_SURFACE },
    booked(DELHIVERY_SURFACE, [6600, 0, 0], ['2026-11-20', '2026-11-26']),
  ],
  [
    'a plain return naming Blue Dart Air: its platform fee kept apart from the freight',
    { carrierId: BLUEDART_AIR },
    booked(BLUEDART_AIR, [10400, 0, 500], ['2026-11-21', '2026-11-25']),
  ],
  [
    'a QC return of 25 kg, which no QC-capable service carries: the cheapest non-QC one, and why',
    { qc: true, weight: 25 },
    booked(DELHIVERY_10KG, [80500, 0, 0], ['2026-11-20', '2026-11-27'], { note: NO_QC_COURIER, grams: 25_000 }),
  ],
  [
    'a light parcel in a 40x30x20 cm box: priced on its volumetric 4.8 kg',
    { length: 40, breadth: 30, height: 20 },
    booked(DELHIVERY_5KG, [22800, 0, 0], ['2026-11-20', '2026-11-26'], { grams: 4800 }),
  ],
];

/** returnInput with the case's ReturnFields (qc, carrierId) and any other field of the body. */
function caseInput(warehouseId: string, fields: Record<string, unknown>) {
  const { qc, carrierId, ...extra } = fields as { qc?: boolean; carrierId?: string };
  return returnInput(warehouseId, { qc, carrierId }, extra);
}

describe('the courier a return is booked with, and the charges frozen onto it', () => {
  it.each(BOOKINGS)('%s', async (_name, fields, b) => {
    const m = await merchant(ctx);
    const answer = await returns.orchestrate(asAccount(m.id), caseInput(m.warehouseId, fields));

    const grams = b.grams ?? 500;
    expect(answer).toMatchObject({
      awb_generated: 1,
      pickup_generated: 1,
      status: 'return_pickup_scheduled',
      zone: 'zone_c',
      courier_company_id: b.carrier,
      pickup_scheduled_date: b.pickup,
      expected_delivery_date: b.delivery,
      assigned_date_time: { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' },
      applied_weight: grams / 1000,
      charges: {
        reverse_charges: rupees(b.freight),
        qc: rupees(b.qc),
        qc_leeway: '0.00',
        platform_fee: b.fee / 100,
        // The platform fee is the service's, not part of what /rates quotes as the return's total.
        total_return_charges: (b.freight + b.qc) / 100,
      },
      qc_enabled: b.qcApplied ? 1 : 0,
      qc_message: b.note,
      label_url: RETURN_LINKS.label(answer.shipment_id),
      track_url: RETURN_LINKS.track(answer.return_id),
      test_mode: false,
    });
    expect(answer.awb_code).toMatch(awbOf(b.carrier));
    expect(await returnRow(ctx, answer.return_id)).toMatchObject({
      status: 'return_pickup_scheduled',
      carrier_id: b.carrier,
      awb: answer.awb_code,
      freight_paise: b.freight,
      qc_paise: b.qc,
      platform_fee_paise: b.fee,
      qc_requested: fields.qc === true,
      qc_applied: b.qcApplied,
      qc_note: b.note,
      zone: 'C',
      applied_weight_grams: grams,
      expected_pickup_date: b.pickup,
      expected_delivery_date: b.delivery,
      assigned_at: '2026-11-20T06:30:00.000Z',
      created_at: '2026-11-20T06:30:00.000Z',
    });
    expect(await returnEvents(ctx, answer.return_id)).toEqual([
      { type: 'return.created', created_at: '2026-11-20T06:30:00.000Z', change: {} },
      {
        type: 'return.booked',
        created_at: '2026-11-20T06:30:00.000Z',
        change: {
          awb: answer.awb_code,
          carrier_id: b.carrier,
          courier_name: answer.courier_name,
          qc_enabled: b.qcApplied,
        },
      },
    ]);
  });

  it('more than 2 QC SKUs: not a QC return at all, the cheapest service books it, and the note says why', async () => {
    const m = await merchant(ctx);
    const items = [detailedQcItem('A'), detailedQcItem('B'), detailedQcItem('C')];
    const answer = await returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, {}, { order_items: items }));
    const note = 'QC covers at most 2 SKUs and 3 asked for it: booked as a non-QC return';
    expect(answer).toMatchObject({ courier_company_id: SHADOWFAX, qc_enabled: 0, qc_message: note });
    expect(await returnRow(ctx, answer.return_id)).toMatchObject({
      qc_requested: false,
      qc_applied: false,
      qc_paise: 0,
      freight_paise: 6000,
      qc_note: note,
    });
  });
});

// Each refused both when created and booked at once and when a courier is assigned later, and
// with nothing written: no return, no AWB drawn.
const REFUSALS: [string, Record<string, unknown>, string, string | null, string][] = [
  [
    'a named non-QC service for a QC return',
    { qc: true, carrierId: DTDC },
    'courier_cannot_carry',
    'carrier_id',
    'DTDC Standard does not carry QC returns: omit carrier_id, or name a QC-capable courier',
  ],
  [
    'a named non-QC service for a QC return even where no QC-capable one serves',
    { qc: true, carrierId: DTDC, weight: 25 },
    'courier_cannot_carry',
    'carrier_id',
    'DTDC Standard does not carry QC returns: omit carrier_id, or name a QC-capable courier',
  ],
  [
    'a named QC-capable service over its weight limit for a QC return',
    { qc: true, carrierId: SHADOWFAX, weight: 25 },
    'courier_cannot_carry',
    'carrier_id',
    'Shadowfax Standard cannot carry this return: the applicable weight 25000 g is above its maximum of 10000 g',
  ],
  [
    'a named service over its weight limit for a plain return',
    { carrierId: XPRESSBEES_250G, weight: 25 },
    'courier_cannot_carry',
    'carrier_id',
    'Xpressbees 250 g cannot carry this return: the applicable weight 25000 g is above its maximum of 2000 g',
  ],
  [
    'an unknown carrier_id',
    { carrierId: 'CARNOSUCH0001' },
    'courier_service_unknown',
    'carrier_id',
    "carrier_id 'CARNOSUCH0001' is not a known courier service",
  ],
  [
    'a parcel no service on the lane carries (200 kg)',
    { weight: 200 },
    'no_courier_serves',
    null,
    'No courier service can carry this return: check the pincodes and weight',
  ],
];

describe('courier choices refused', () => {
  it.each(REFUSALS)('%s: refused at orchestration, nothing written', async (_name, fields, code, field, message) => {
    const m = await merchant(ctx);
    const before = await returnsWritten(ctx, m.id);
    await expect(returns.orchestrate(asAccount(m.id), caseInput(m.warehouseId, fields))).rejects.toMatchObject({
      code,
      kind: 'unprocessable',
      messages: [message],
      details: field ? [{ field, message }] : undefined,
    });
    expect(await returnsWritten(ctx, m.id)).toEqual(before);
  });

  it.each(REFUSALS.filter(([, fields]) => fields.weight !== 200))(
    '%s: refused when assigned later, the return left waiting for a courier',
    async (_name, fields, code, field, message) => {
      const m = await merchant(ctx);
      const { carrierId, ...rest } = fields;
      const created = await returns.createReturn(asAccount(m.id), caseInput(m.warehouseId, rest));
      const before = await returnsWritten(ctx, m.id);
      await expect(
        returns.assignCourier(asAccount(m.id), { return_id: created.return_id, carrier_id: carrierId as string }),
      ).rejects.toMatchObject({ code, kind: 'unprocessable', messages: [message], details: [{ field, message }] });
      expect(await returnsWritten(ctx, m.id)).toEqual(before);
      expect(await returnRow(ctx, created.return_id)).toMatchObject({
        status: 'return_requested',
        carrier_id: null,
        awb: null,
        freight_paise: null,
        assigned_at: null,
      });
    },
  );

  it('a return no service carries is refused when created, before any courier is asked', async () => {
    const m = await merchant(ctx);
    await expect(
      returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, {}, { weight: 200 })),
    ).rejects.toMatchObject({
      code: 'no_courier_serves',
      details: undefined,
    });
    expect((await returnsWritten(ctx, m.id)).returns).toBe(0);
  });
});

describe("a return's order_id and warehouse, within its account", () => {
  it('an order_id is taken once per account, not across accounts; the refusal writes nothing', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const orderId = `RET-TAKEN-${m.id}`;
    const first = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, { orderId }));
    const before = await returnsWritten(ctx, m.id);
    const taken = {
      code: 'return_id_taken',
      kind: 'unprocessable',
      details: [{ field: 'order_id', message: `Return '${orderId}' already exists` }],
    };
    await expect(returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, { orderId }))).rejects.toMatchObject(
      taken,
    );
    // Found only when the row is written, after the courier booked: its AWB is spent, no return kept.
    await expect(returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId, { orderId }))).rejects.toMatchObject(
      taken,
    );
    expect((await returnsWritten(ctx, m.id)).returns).toBe(before.returns);
    const theirs = await returns.orchestrate(asAccount(other.id), returnInput(other.warehouseId, { orderId }));
    expect([first.order_id, theirs.order_id]).toEqual([orderId, orderId]);
    expect(theirs.return_id).not.toBe(first.return_id);
  });

  it("another account's warehouse is unknown: no return is created or booked", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    for (const write of [returns.createReturn, returns.orchestrate]) {
      await expect(write(asAccount(m.id), returnInput(other.warehouseId))).rejects.toMatchObject({
        code: 'order_warehouse_unknown',
        details: [{ field: 'warehouse_id', message: `Warehouse '${other.warehouseId}' not found: create it first` }],
      });
    }
    expect(await returnsWritten(ctx, m.id)).toMatchObject({ returns: 0 });
  });
});
