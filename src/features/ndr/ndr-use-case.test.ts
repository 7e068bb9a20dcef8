import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { book } from '../../../test/kit/orders.js';
import { at, type CarrierEvent } from '../../../test/kit/tracking.js';
import { type UseCaseContext, useCaseContext, scanIntakeDeps } from '../../../test/kit/use-cases.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { createTrackingService, type TrackingService } from '../tracking/tracking.service.js';
import { createNdrService, type NdrService } from './ndr.service.js';

// The NDR service's rules as functions over a seeded database (both engines): which status allows a
// reattempt or an RTO, the two-reattempt limit, who is recorded as asking (merchant, customer, rule),
// the rows and events written, and the buyer's answers. The routes' contract is ndr.once.test.ts's.

let ctx: UseCaseContext;
let tracking: TrackingService;
let ndr: NdrService;
beforeAll(async () => {
  ctx = await useCaseContext();
  tracking = createTrackingService(scanIntakeDeps(ctx));
  // As ndr.register.ts builds it, with the tracking intake's status machine handed in (app.ts).
  ndr = createNdrService({
    db: ctx.db,
    clock: ctx.clock,
    calendar: ctx.rates.calendar,
    events: ctx.events,
    applyShipmentEvents: tracking.applyShipmentEvents,
    record: auditRecorder(ctx.clock),
  });
});

afterAll(async () => {
  await ctx.close();
});

/** Friday 20 November 2026, 15:30 India time: the next working days are the 21st, 23rd and 25th. */
const NOW = '2026-11-20T10:00:00.000Z';
const NEXT_DAYS = '2026-11-21, 2026-11-23, 2026-11-25';

const PICKED_UP: Omit<CarrierEvent, 'awb'>[] = [{ status: 'in_transit', sub_status: 'picked_up', event_time: at(10) }];
const OUT = { status: 'out_for_delivery', event_time: at(60) };
const failed = (minutes: number) => ({
  status: 'ndr_raised',
  ndr_reason: 'customer_unavailable',
  event_time: at(minutes),
});
const FAILED_ONCE = [...PICKED_UP, OUT, failed(90)];

/** A new account with one Shadowfax shipment to Mumbai that has been through `scans`, at NOW. */
async function shipment(scans: Omit<CarrierEvent, 'awb'>[] = FAILED_ONCE) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const account = await ctx.createAccount();
  const booked = await book(ctx, account.apiKey, await createCityWarehouse(ctx, account.apiKey));
  const awb = booked.awb_code!;
  ctx.clock.set(NOW);
  if (scans.length > 0) {
    const results = await tracking.ingest(
      SHADOWFAX,
      scans.map((s) => ({ ...s, awb }) as CarrierEvent),
    );
    expect(results.filter((r) => !r.accepted)).toEqual([]);
  }
  return { accountId: account.id, awb, shipmentId: booked.shipment_id };
}

/** The shipment's NDR actions, in attempt order (the clock stands still, so created_at ties). */
async function actions(shipmentId: string) {
  return queryRows<{ action: string; requested_by: string; attempt: number; payload: Record<string, unknown> }>(
    ctx.db,
    sql`select action, requested_by, attempt, payload from shipment_actions where shipment_id = ${shipmentId} order by attempt, action`,
  );
}

async function shipmentRow(shipmentId: string) {
  const [row] = await queryRows<{ status: string; ndr_outcomes: string[] | null }>(
    ctx.db,
    sql`select status, ndr_outcomes from shipments where id = ${shipmentId}`,
  );
  return row!;
}

async function eventTypes(shipmentId: string) {
  const rows = await queryRows<{ type: string }>(
    ctx.db,
    sql`select type from events where subject_id = ${shipmentId} order by sequence`,
  );
  return rows.map((r) => r.type);
}

/** Every row an NDR action writes, to show that a refusal wrote none. */
async function footprint(shipmentId: string) {
  return {
    actions: await actions(shipmentId),
    shipment: await shipmentRow(shipmentId),
    events: await eventTypes(shipmentId),
  };
}

const notAllowed = (message: string, field = 'awb') => ({
  code: 'ndr_action_not_allowed',
  kind: 'unprocessable',
  messages: [message],
  details: [{ field, message }],
});

describe('initiateRto: which status allows it', () => {
  const cases: [string, Omit<CarrierEvent, 'awb'>[], string | null][] = [
    ['pending (not picked up)', [], 'Shipment is pending (not picked up yet): cancel it with cancel-order instead'],
    ['in_transit', PICKED_UP, null],
    [
      'out_for_delivery',
      [...PICKED_UP, OUT],
      'Shipment is out_for_delivery: request an RTO once the courier reports the outcome of this attempt',
    ],
    ['ndr_raised', FAILED_ONCE, null],
    ['others (an exception)', [...PICKED_UP, { status: 'others', event_time: at(30) }], null],
    [
      'delivered',
      [...PICKED_UP, OUT, { status: 'delivered', event_time: at(80) }],
      'Shipment is delivered and can no longer be returned to origin',
    ],
    [
      'rto_initiated',
      [...FAILED_ONCE, { status: 'rto_initiated', rto_reason: 'customer_refused', event_time: at(100) }],
      'Shipment is rto_initiated: its RTO is already under way',
    ],
    [
      'rto_in_transit',
      [
        ...FAILED_ONCE,
        { status: 'rto_initiated', rto_reason: 'customer_refused', event_time: at(100) },
        { status: 'rto_in_transit', event_time: at(110) },
      ],
      'Shipment is rto_in_transit: its RTO is already under way',
    ],
  ];

  it.each(cases)('%s', async (_name, scans, refusal) => {
    const { accountId, awb, shipmentId } = await shipment(scans);
    const before = await footprint(shipmentId);
    if (refusal) {
      await expect(ndr.initiateRto(asAccount(accountId), awb)).rejects.toMatchObject(notAllowed(refusal));
      expect(await footprint(shipmentId)).toEqual(before);
      return;
    }
    const answer = await ndr.initiateRto(asAccount(accountId), awb);
    expect(answer).toEqual({
      success: true,
      message: 'RTO initiated',
      data: { awb, action_id: expect.any(String), status: 'rto_initiated' },
    });
    expect(await actions(shipmentId)).toEqual([
      { action: 'rto', requested_by: 'merchant', attempt: expect.any(Number), payload: {} },
    ]);
    const row = await shipmentRow(shipmentId);
    expect(row.status).toBe('rto_initiated');
    expect(row.ndr_outcomes).toContain('rto');
    const [event] = await queryRows<{ rto_reason: string; description: string }>(
      ctx.db,
      sql`select rto_reason, description from tracking_events where shipment_id = ${shipmentId} and status = 'rto_initiated'`,
    );
    expect(event).toEqual({ rto_reason: 'merchant_requested', description: 'RTO requested by the merchant' });
    // The status machine records the move, as it does a courier's rto_initiated scan.
    expect((await eventTypes(shipmentId)).slice(before.events.length)).toEqual([
      'shipment.status_changed',
      'shipment.rto_initiated',
    ]);
  });
});

describe('reattempt: the status, the limit of two, and what is recorded', () => {
  it.each([
    ['pending', [] as Omit<CarrierEvent, 'awb'>[]],
    ['in_transit', PICKED_UP],
    ['out_for_delivery', [...PICKED_UP, OUT]],
    ['delivered', [...PICKED_UP, OUT, { status: 'delivered', event_time: at(80) }]],
  ])('refuses a shipment that is %s', async (status, scans) => {
    const { accountId, awb, shipmentId } = await shipment(scans);
    const before = await footprint(shipmentId);
    await expect(ndr.reattempt(asAccount(accountId), { awb })).rejects.toMatchObject(
      notAllowed(`Shipment is ${status}: a reattempt can be requested only after a failed delivery (ndr_raised)`),
    );
    expect(await footprint(shipmentId)).toEqual(before);
  });

  it('records the instruction for this attempt and the event, leaving the status ndr_raised', async () => {
    const { accountId, awb, shipmentId } = await shipment();
    const answer = await ndr.reattempt(asAccount(accountId), {
      awb,
      updated_phone_number: '+91 91234 56780',
      comments: 'After 6 pm',
      reattempt_date: '2026-11-23',
    });
    expect(answer).toEqual({
      success: true,
      message: 'Reattempt requested',
      data: {
        awb,
        action_id: expect.any(String),
        reattempts_used: 1,
        reattempts_left: 1,
        reattempt_date: '2026-11-23',
      },
    });
    expect(await actions(shipmentId)).toEqual([
      {
        action: 'reattempt',
        requested_by: 'merchant',
        attempt: 1,
        payload: { updated_phone_number: '+919123456780', comments: 'After 6 pm', reattempt_date: '2026-11-23' },
      },
    ]);
    expect(await shipmentRow(shipmentId)).toEqual({ status: 'ndr_raised', ndr_outcomes: ['reattempt'] });
    const [event] = await queryRows<{ type: string; created_at: Date; data: { action: Record<string, unknown> } }>(
      ctx.db,
      sql`select type, created_at, data from events where subject_id = ${shipmentId} order by sequence desc limit 1`,
    );
    expect(event!.type).toBe('shipment.reattempt_requested');
    expect(new Date(event!.created_at).toISOString()).toBe(NOW);
    expect(event!.data.action).toMatchObject({
      id: answer.data.action_id,
      action: 'reattempt',
      requested_by: 'merchant',
      requested_at: NOW,
    });
  });

  it('allows one reattempt per failed delivery and two in all; the third failure can only go back', async () => {
    const { accountId, awb, shipmentId } = await shipment();
    await ndr.reattempt(asAccount(accountId), { awb });
    await expect(ndr.reattempt(asAccount(accountId), { awb })).rejects.toMatchObject(
      notAllowed('A reattempt is already requested for this failed delivery: wait for the courier to report it'),
    );
    await tracking.ingest(SHADOWFAX, [
      { awb, status: 'out_for_delivery', event_time: at(120) },
      { awb, ...failed(150) } as CarrierEvent,
    ]);
    expect((await ndr.reattempt(asAccount(accountId), { awb })).data).toMatchObject({
      reattempts_used: 2,
      reattempts_left: 0,
    });
    await tracking.ingest(SHADOWFAX, [
      { awb, status: 'out_for_delivery', event_time: at(180) },
      { awb, ...failed(210) } as CarrierEvent,
    ]);
    await expect(ndr.reattempt(asAccount(accountId), { awb })).rejects.toMatchObject(
      notAllowed('All 2 reattempts allowed for this shipment are used: initiate an RTO instead'),
    );
    expect((await actions(shipmentId)).map((a) => [a.action, a.attempt])).toEqual([
      ['reattempt', 1],
      ['reattempt', 2],
    ]);
    expect((await ndr.initiateRto(asAccount(accountId), awb)).data.status).toBe('rto_initiated');
    expect((await shipmentRow(shipmentId)).ndr_outcomes).toEqual(['reattempt', 'rto']);
  });

  it('names every problem of one request together: the address fields fixed by the lane and the date window', async () => {
    const { accountId, awb, shipmentId } = await shipment();
    const before = await footprint(shipmentId);
    const fields = [
      {
        field: 'updated_address.pincode',
        message:
          'The pincode cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address',
      },
      {
        field: 'updated_address.city',
        message:
          'The city cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address',
      },
      {
        field: 'updated_address.address_line',
        message:
          'address_line names pincode 110001 but the shipment goes to 400001: the pincode and city cannot be changed on a reattempt',
      },
      { field: 'reattempt_date', message: `reattempt_date must be one of the next 3 working days: ${NEXT_DAYS}` },
    ];
    await expect(
      ndr.reattempt(asAccount(accountId), {
        awb,
        updated_address: { address_line: '4 Janpath, New Delhi 110001', pincode: '110001', city: 'Delhi' },
        reattempt_date: '2026-11-22',
      }),
    ).rejects.toMatchObject({
      code: 'ndr_action_not_allowed',
      kind: 'unprocessable',
      messages: fields.map((f) => f.message),
      details: fields,
    });
    expect(await footprint(shipmentId)).toEqual(before);
  });

  it.each([
    ['today', '2026-11-20', false],
    ['Saturday', '2026-11-21', true],
    ['Sunday', '2026-11-22', false],
    ['Monday', '2026-11-23', true],
    ['the holiday', '2026-11-24', false],
    ['Wednesday', '2026-11-25', true],
    ['Thursday, a fourth working day', '2026-11-26', false],
  ])('reattempt_date on %s (%s): allowed %s', async (_day, date, allowed) => {
    const { accountId, awb } = await shipment();
    const request = ndr.reattempt(asAccount(accountId), { awb, reattempt_date: date });
    if (allowed) expect((await request).data.reattempt_date).toBe(date);
    else
      await expect(request).rejects.toMatchObject(
        notAllowed(`reattempt_date must be one of the next 3 working days: ${NEXT_DAYS}`, 'reattempt_date'),
      );
  });

  it('refuses bad input before looking at the shipment (invalid), and an unknown or foreign AWB as not found', async () => {
    const { accountId, awb } = await shipment();
    const other = await ctx.createAccount();
    await expect(
      ndr.reattempt(asAccount(accountId), {
        awb: 'NOSUCHAWB',
        updated_phone_number: '12345',
        reattempt_date: '2026-02-30',
      }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      messages: [
        'updated_phone_number must be a 10-digit Indian mobile number',
        'reattempt_date 2026-02-30 is not a calendar date',
      ],
    });
    const notFound = { code: 'awb_not_found', kind: 'not_found', messages: [`AWB ${awb} not found`] };
    await expect(ndr.reattempt(asAccount(other.id), { awb })).rejects.toMatchObject(notFound);
    await expect(ndr.initiateRto(asAccount(other.id), awb)).rejects.toMatchObject(notFound);
  });
});

describe('who asked: a rule and a customer are recorded as such', () => {
  it("records an NDR rule's RTO as the rule's, named in the payload and the scan's description", async () => {
    const { accountId, awb, shipmentId } = await shipment();
    await ndr.initiateRto(asAccount(accountId), awb, undefined, { name: 'COD refused', index: 0 });
    expect(await actions(shipmentId)).toEqual([
      { action: 'rto', requested_by: 'rule', attempt: 1, payload: { rule: 'COD refused' } },
    ]);
    const [event] = await queryRows<{ description: string }>(
      ctx.db,
      sql`select description from tracking_events where shipment_id = ${shipmentId} and status = 'rto_initiated'`,
    );
    expect(event!.description).toBe("RTO requested by the merchant's NDR rule 'COD refused'");
  });

  it("stamps the merchant's RTO just after the latest scan when the courier's clock runs ahead", async () => {
    const { accountId, awb, shipmentId } = await shipment([...PICKED_UP, OUT]);
    // The failed delivery is stamped 5 minutes after NOW, within the 10 minutes a scan may lead.
    await tracking.ingest(SHADOWFAX, [{ awb, ...failed(0), event_time: '2026-11-20T10:05:00.000Z' } as CarrierEvent]);
    await ndr.initiateRto(asAccount(accountId), awb);
    const rows = await queryRows<{ status: string; t: string }>(
      ctx.db,
      sql`select status, to_char(event_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as t
          from tracking_events where shipment_id = ${shipmentId} and status in ('ndr_raised', 'rto_initiated') order by event_time`,
    );
    expect(rows).toEqual([
      { status: 'ndr_raised', t: '2026-11-20T10:05:00.000' },
      { status: 'rto_initiated', t: '2026-11-20T10:05:00.001' },
    ]);
  });

  describe("buyerAnswer: the customer's reply, answered rather than thrown", () => {
    it('books a reattempt on the next working day as the customer', async () => {
      const { accountId, shipmentId } = await shipment();
      expect(await ndr.buyerAnswer(accountId, shipmentId, 1, 'reattempt')).toEqual({
        done: true,
        message: 'Reattempt requested',
      });
      expect(await actions(shipmentId)).toEqual([
        { action: 'reattempt', requested_by: 'customer', attempt: 1, payload: { reattempt_date: '2026-11-21' } },
      ]);
    });

    it('turns a cancel into an RTO as the customer', async () => {
      const { accountId, shipmentId } = await shipment();
      expect(await ndr.buyerAnswer(accountId, shipmentId, 1, 'cancel')).toEqual({
        done: true,
        message: 'RTO initiated',
      });
      expect(await actions(shipmentId)).toEqual([{ action: 'rto', requested_by: 'customer', attempt: 1, payload: {} }]);
      expect((await shipmentRow(shipmentId)).status).toBe('rto_initiated');
      // Written down as the buyer's, Dakiya carrying out their answer (issue 51's audit log).
      expect(
        await queryRows(
          ctx.db,
          sql`select actor_type, actor_name, action from audit_log where account_id = ${accountId} and object_id = ${shipmentId} and action <> 'shipment.tracked'`,
        ),
      ).toEqual([
        { actor_type: 'system', actor_name: 'the buyer, answering the NDR message', action: 'shipment.rto_requested' },
      ]);
    });

    it('answers a reply to an earlier attempt, a shipment that moved on, an unknown one and a refusal, writing nothing', async () => {
      const { accountId, awb, shipmentId } = await shipment();
      expect(await ndr.buyerAnswer(accountId, shipmentId, 2, 'reattempt')).toEqual({
        done: false,
        message: 'the shipment moved on (ndr_raised, attempt 1)',
      });
      const other = await ctx.createAccount();
      expect(await ndr.buyerAnswer(other.id, shipmentId, 1, 'cancel')).toEqual({
        done: false,
        message: 'no such shipment',
      });
      await ndr.reattempt(asAccount(accountId), { awb });
      const before = await footprint(shipmentId);
      expect(await ndr.buyerAnswer(accountId, shipmentId, 1, 'reattempt')).toEqual({
        done: false,
        message: 'A reattempt is already requested for this failed delivery: wait for the courier to report it',
      });
      expect(await footprint(shipmentId)).toEqual(before);
      const moved = await shipment([...PICKED_UP]);
      expect(await ndr.buyerAnswer(moved.accountId, moved.shipmentId, 0, 'cancel')).toEqual({
        done: false,
        message: 'the shipment moved on (in_transit, attempt 0)',
      });
    });
  });
});

describe("the courier's queue", () => {
  it('refuses to acknowledge an unknown action, and a cursor it did not give', async () => {
    await expect(ndr.acknowledge(SHADOWFAX, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'ndr_action_not_found',
      kind: 'not_found',
      messages: ['Action not found'],
    });
    await expect(ndr.openForCarrier(SHADOWFAX, { cursor: 'soon.x' })).rejects.toMatchObject({
      code: 'invalid_request',
      kind: 'invalid',
      messages: ['cursor must be a next_cursor from an earlier answer'],
    });
  });

  it('hands the courier only its own open actions, and an acknowledged one no more', async () => {
    const { accountId, awb } = await shipment();
    const { data } = await ndr.reattempt(asAccount(accountId), { awb });
    const open = await ndr.openForCarrier(SHADOWFAX, { limit: '500' });
    expect(open.data.filter((a) => a.awb === awb)).toMatchObject([{ id: data.action_id, action: 'reattempt' }]);
    expect((await ndr.openForCarrier('CARDELHSURF01', {})).data.filter((a) => a.awb === awb)).toEqual([]);
    await expect(ndr.acknowledge('CARDELHSURF01', data.action_id)).rejects.toMatchObject({
      code: 'ndr_action_not_found',
    });
    expect((await ndr.acknowledge(SHADOWFAX, data.action_id)).data).toMatchObject({
      id: data.action_id,
      acknowledged_at: NOW,
    });
    expect((await ndr.openForCarrier(SHADOWFAX, { limit: '500' })).data.filter((a) => a.awb === awb)).toEqual([]);
  });
});
