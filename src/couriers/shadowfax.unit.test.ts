import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { refusedCreate } from '../demo/simulators/shadowfax-sim-rules.js';
import {
  SHADOWFAX_TOKEN,
  type ShadowfaxSimulator,
  startShadowfaxSimulator,
} from '../demo/simulators/shadowfax-simulator.js';
import { defaultRatesContext } from '../data-files.js';
import { defaultSettings } from '../settings.js';
import type { BookingRequest, Connector, Instruction } from './connector.js';
import answers from './fixtures/shadowfax/answers.json' with { type: 'json' };
import captures from './fixtures/shadowfax/tracking-captures.json' with { type: 'json' };
import { bookedAwb, readCancelAnswer, readReverseCancelAnswer, updateTaken } from './shadowfax-answers.js';
import { settingsWith } from './courier-credentials.service.js';
import { createShadowfaxConnector, errorWords } from './shadowfax.connector.js';
import { shadowfaxForwardOrder, shadowfaxReattempt } from './shadowfax-requests.js';
import { requestRecord } from './shadowfax-tracking.js';

const service = defaultRatesContext().catalogue.byId.get('CARSHFXSTD001')!;
const _address = BUYER;
const request = (reference: string, journey: BookingRequest['journey'] = 'forward') =>
  bookingRequest(reference, { journey });
const none = () => Promise.reject(new Error('a Shadowfax booking draws no AWB of ours'));
const reattempt = (payload: Record<string, unknown>): Instruction => ({
  action: 'reattempt',
  at: new Date('2026-11-20T06:30:00Z'),
  payload,
});
const scan = (status_id: string, created: string) => ({ status_id, status: status_id, remarks: status_id, created });

describe('Shadowfax answers read as the sources show them', () => {
  it('reads a create: its data, a reverse request at the top, and a duplicate as the booking it names', () => {
    expect(bookedAwb(answers.create.success.answer, '3399845736')).toEqual({
      awb: 'SF401022456TST',
      routingCode: null,
    });
    expect(
      bookedAwb({ message: 'Success', awb_number: 'R88120001SFX', client_request_id: 'R88120001SFX' }, 'x'),
    ).toEqual({
      awb: 'R88120001SFX',
      routingCode: null,
    });
    // S5: HTTP 200 "Failure … already created with AWB …" with the AWB at the top (index ids 54543910210, 60839310414).
    expect(bookedAwb(answers.create.duplicate.answer, '3399845736')).toEqual({
      awb: 'SF401022456TST',
      routingCode: null,
    });
    expect(bookedAwb(answers.create.duplicate.answer, 'another-order')).toBeUndefined();
    for (const failure of answers.create.failures.answers) expect(bookedAwb(failure, 'x')).toBeUndefined();
    expect(errorWords(answers.create.failures.answers[1])).toBe(
      'Invalid Pickup Pincode. Pickup pincode 128888 is not serviceable',
    );
  });

  it('reads a cancellation: 200 and "already in its cancellation phase" done, 304 queued, 400 refused', () => {
    for (const done of answers.cancel.cancelled) expect(readCancelAnswer(done)).toBe('cancelled');
    expect(readCancelAnswer(answers.cancel.queued.answer)).toEqual({
      queued: 'Cancellation queued: the order will be cancelled at its next scan',
    });
    expect(readCancelAnswer({ responseCode: '304' })).toEqual({
      queued: 'the parcel is moving: Shadowfax cancels it at its next scan',
    });
    expect(readCancelAnswer(answers.cancel.refused.answer)).toEqual({
      refused: 'Order cannot be cancelled. Invalid state.',
    });
    // The words "Success" prove nothing without the code, nor a 200 beside words of refusal (index id 69389638682).
    expect(readCancelAnswer({ message: 'Success' })).toEqual({ refused: 'Success' });
    expect(readCancelAnswer({ responseCode: 200, responseMsg: 'Order cannot be cancelled' })).toEqual({
      refused: 'Order cannot be cancelled',
    });
    expect(readReverseCancelAnswer({ responseCode: 200, responseMsg: 'Request could not be cancelled' })).toEqual({
      refused: 'Request could not be cancelled',
    });
    expect(readReverseCancelAnswer(answers.mark_cancel.cancelled)).toBe('cancelled');
    expect(readReverseCancelAnswer({ responseCode: 304, responseMsg: 'queued' })).toEqual({ refused: 'queued' });
    expect(updateTaken({ message: 'Success' })).toBe(true);
    expect(updateTaken({ message: 'Failure', errors: 'Invalid status' })).toEqual({ refused: 'Invalid status' });
  });

  it('finds a reverse request in its answer: at the top, under data, or keyed by its id', () => {
    expect(requestRecord(captures.reverse_request_new.answer, 'SF100000192431JIF')).toMatchObject({
      pickup_request_state_histories: null,
      status: 'New',
    });
    expect(requestRecord(captures.reverse_request_returned.answer, 'R107620440JIF')).toMatchObject({
      status: 'Returned To Client',
    });
    expect(requestRecord({ data: { client_request_id: 'R1', pickup_request_state_histories: [] } }, 'R1')).toEqual({
      client_request_id: 'R1',
      pickup_request_state_histories: [],
    });
    expect(requestRecord({ message: 'Invalid AWB' }, 'R1')).toBeUndefined();
  });
});

describe("an account's own Shadowfax order type", () => {
  it("replaces the server's SHADOWFAX_ORDER_TYPE when its credentials name one", () => {
    const server = {
      ...defaultSettings().couriers,
      shadowfax: { token: 't', baseUrl: 'https://dale.shadowfax.in', orderType: 'warehouse' as const },
    };
    expect(settingsWith(server, 'shadowfax', { api_token: 'own', order_type: 'marketplace' }).shadowfax).toEqual({
      token: 'own',
      baseUrl: 'https://dale.shadowfax.in',
      orderType: 'marketplace',
    });
    expect(settingsWith(server, 'shadowfax', { api_token: 'own' }).shadowfax.orderType).toBe('warehouse');
  });
});

describe('Shadowfax request bodies', () => {
  it('sends the way back as rto_details on a warehouse order and rts_details on a marketplace one', () => {
    const warehouse = shadowfaxForwardOrder(request('ref-w'), 'warehouse');
    const marketplace = shadowfaxForwardOrder(request('ref-m'), 'marketplace');
    expect(warehouse).toMatchObject({ order_type: 'warehouse', rto_details: warehouse.pickup_details });
    expect(warehouse).not.toHaveProperty('rts_details');
    expect(marketplace).toMatchObject({ order_type: 'marketplace', rts_details: marketplace.pickup_details });
    expect(marketplace).not.toHaveProperty('rto_details');
  });

  it('re-attempts with status_update reopen_ndr and only the delivery details that changed', () => {
    expect(shadowfaxReattempt('SF1', reattempt({}))).toEqual({
      awb_number: 'SF1',
      status_update: { status: 'reopen_ndr' },
    });
    // The NDR route's address object (ndr.schemas.ts) as one line, never dropped; the phone as contact.
    expect(
      shadowfaxReattempt(
        'SF1',
        reattempt({
          updated_address: { address_line: 'Flat 4, 12 Marine Drive', landmark: 'Opposite the Oval' },
          updated_phone_number: '+919876543210',
          reattempt_date: '2026-11-22',
          comments: 'Call before coming',
        }),
      ),
    ).toEqual({
      awb_number: 'SF1',
      status_update: { status: 'reopen_ndr' },
      delivery_details: { customer_address: 'Flat 4, 12 Marine Drive, Opposite the Oval', contact: '9876543210' },
    });
    expect(shadowfaxReattempt('SF1', reattempt({ updated_address: { address_line: '12 Marine Drive' } }))).toEqual({
      awb_number: 'SF1',
      status_update: { status: 'reopen_ndr' },
      delivery_details: { customer_address: '12 Marine Drive' },
    });
    // The shape of the documented body and of a client's reattempt (index ids 54543910210, 17374548919).
    const body = shadowfaxReattempt(
      'SF1',
      reattempt({ updated_address: { address_line: 'x' }, updated_phone_number: '9876543210' }),
    );
    expect(Object.keys(body).every((key) => key in answers.order_update.documented)).toBe(true);
    expect(
      Object.keys(body.delivery_details!).every((key) => key in answers.order_update.documented.delivery_details),
    ).toBe(true);
    expect(body.status_update).toEqual(answers.order_update.reattempt.body.status_update);
  });

  it('refuses a landmark without its street, which Shadowfax would take for the whole address', () => {
    expect(() => shadowfaxReattempt('SF1', reattempt({ updated_address: { landmark: 'Opposite the Oval' } }))).toThrow(
      expect.objectContaining({
        code: 'courier_refused',
        messages: [
          'Shadowfax refused: it takes a corrected address as one whole line (customer_address): a landmark alone would replace the address; send the street address with it',
        ],
      }),
    );
  });
});

describe('shadowfax connector against the simulator', () => {
  let sim: ShadowfaxSimulator;
  let connector: Connector;
  const make = (orderType?: 'warehouse' | 'marketplace') =>
    createShadowfaxConnector({
      token: SHADOWFAX_TOKEN,
      baseUrl: sim.baseUrl,
      timeoutMs: 2000,
      retryDelayMs: 1,
      clock: { now: () => new Date('2026-11-20T06:30:00Z') },
      ...(orderType && { orderType }),
    });
  const book = async (reference: string, c = connector) =>
    (await c.book(service, request(reference), none, undefined as never)).awb;

  beforeAll(async () => {
    sim = await startShadowfaxSimulator({ orderTypes: ['warehouse'] });
    connector = make();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('asks POST /api/v4/clients/bulk_track/ for several, leaving out AWBs it does not answer', async () => {
    const awb = await book('ref-2');
    const scans = await connector.pull(service, [
      { awb, journey: 'forward' },
      { awb: 'SF000000000FPL', journey: 'forward' },
    ]);
    expect(JSON.parse(sim.requests.at(-1)!.body)).toEqual({ awb_numbers: [awb, 'SF000000000FPL'] });
    expect([...scans.keys()]).toEqual([awb]);
    expect(scans.get(awb)).toEqual({ events: [], unread: [] });
  });

  it('reads a tracking answer without tracking_details as unreadable, so the poller asks again later', async () => {
    sim.failNext('/api/v4/clients/bulk_track/', 'malformed');
    await expect(
      connector.pull(service, [
        { awb: 'A', journey: 'forward' },
        { awb: 'B', journey: 'forward' },
      ]),
    ).rejects.toMatchObject({ kind: 'malformed' });
  });

  it('takes a duplicate create as the booking already made (S5), and refuses an order type the account lacks (S4)', async () => {
    const awb = await book('ref-dup');
    expect(await book('ref-dup')).toBe(awb);
    const booked = [...sim.orders.values()].filter(
      (o) => (o.body.order_details as { client_order_id?: string })?.client_order_id === 'ref-dup',
    );
    expect(booked.map((o) => o.awb)).toEqual([awb]);
    await expect(book('ref-mkt', make('marketplace'))).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Shadowfax refused: Order type marketplace is not enabled for this client'],
    });
  });

  it('books with the e-way bill as order_details.eway_bill, which the simulator refuses past 12 alphanumeric characters', async () => {
    const withBill = (reference: string, ewayBillNumber: string) =>
      connector.book(service, { ...request(reference), ewayBillNumber }, none, undefined as never);
    const { awb } = await withBill('ref-ewb', '331009876543');
    expect((sim.orders.get(awb)!.body.order_details as Record<string, unknown>).eway_bill).toBe('331009876543');
    await expect(withBill('ref-ewb-long', '3310098765431')).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Shadowfax refused: order_details.eway_bill: Ensure this field has no more than 12 characters.'],
    });
    await expect(withBill('ref-ewb-dash', '3310-0987654')).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Shadowfax refused: order_details.eway_bill: Enter a valid value.'],
    });
    const calls = sim.callsTo('/api/v3/clients/orders/').map((c) => JSON.parse(c.body).order_details.client_order_id);
    expect(calls.slice(-3)).toEqual(['ref-ewb', 'ref-ewb-long', 'ref-ewb-dash']);
    const order = shadowfaxForwardOrder(request('ref-ewb-number'));
    const asNumber = { ...order, order_details: { ...order.order_details, eway_bill: 331009876543 } };
    expect(refusedCreate('forward', asNumber, ['warehouse'])).toEqual({
      status: 400,
      body: { message: 'Failure', errors: { order_details: { eway_bill: ['Not a valid string.'] } } },
    });
    expect(refusedCreate('forward', order, ['warehouse'])).toBeUndefined();
  });

  it('cancels at rest, queues while moving (304), refuses once delivered, and RTOs a queued parcel without refusing', async () => {
    const resting = await book('ref-c1');
    expect(await connector.cancel(service, resting)).toBeUndefined();
    // A second cancel finds it "already in its cancellation phase": done.
    expect(await connector.cancel(service, resting)).toBeUndefined();

    const moving = await book('ref-c2');
    sim.scan(
      moving,
      scan('received_from_client_warehouse', '2026-11-20T08:00:00Z'),
      scan('bag_in_transit', '2026-11-20T09:00:00Z'),
    );
    expect(await connector.cancel(service, moving)).toEqual({
      queued: 'Cancellation queued: the order will be cancelled at its next scan',
    });
    // Intercepted at its next check-in: a warehouse order starts its return to origin.
    sim.scan(moving, scan('bag_received', '2026-11-20T10:00:00Z'));
    expect(sim.orders.get(moving)!.scans.map((s) => s.status_id)).toEqual([
      'received_from_client_warehouse',
      'bag_in_transit',
      'bag_received',
      'rto',
    ]);

    const delivered = await book('ref-c3');
    sim.scan(delivered, scan('delivered', '2026-11-20T10:00:00Z'));
    await expect(connector.cancel(service, delivered)).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Shadowfax refused: could not cancel it: Order cannot be cancelled. Invalid state.'],
    });

    const outForDelivery = await book('ref-c4');
    sim.scan(
      outForDelivery,
      scan('received_from_client_warehouse', '2026-11-20T08:00:00Z'),
      scan('ofd', '2026-11-20T09:00:00Z'),
    );
    await expect(
      connector.instruct(service, outForDelivery, { action: 'rto', at: new Date('2026-11-20T09:30:00Z'), payload: {} }),
    ).resolves.toBeUndefined();
    expect(JSON.parse(sim.callsTo('/api/v3/clients/orders/cancel/').at(-1)!.body)).toEqual({
      request_id: outForDelivery,
      cancel_remarks: 'Return to seller requested by the merchant',
    });
  });

  it('cancels a return’s pickup at mark_cancel (S6), and says why Shadowfax will not once it is collected', async () => {
    const awb = (await connector.book(service, request('ref-r1', 'return'), none, undefined as never)).awb;
    expect(await connector.cancel(service, awb, undefined, 'return')).toBeUndefined();
    const [call] = sim.callsTo('/api/v2/clients/requests/mark_cancel');
    expect(call).toMatchObject({ method: 'POST', authorization: `Token ${SHADOWFAX_TOKEN}` });
    // The body a client sends (index id 46763779103) with the remark the reverse documentation allows.
    expect(JSON.parse(call!.body)).toEqual({ ...answers.mark_cancel.request, request_id: awb });
    expect(answers.mark_cancel.allowed_remarks).toContain(JSON.parse(call!.body).cancel_remarks);
    expect(sim.callsTo('/api/v3/clients/orders/cancel/').some((c) => JSON.parse(c.body).request_id === awb)).toBe(
      false,
    );

    const collected = (await connector.book(service, request('ref-r2', 'return'), none, undefined as never)).awb;
    sim.state(collected, { state: 'Picked', comment: 'Picked', created_at: '2026-11-20T08:00:00Z' });
    await expect(connector.cancel(service, collected, undefined, 'return')).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Shadowfax refused: could not cancel the pickup: Request cannot be cancelled once picked up'],
    });
  });

  it('pulls a return at GET /api/v4/clients/requests/{awb} and forward parcels in one round', async () => {
    const forward = await book('ref-p1');
    const awb = (await connector.book(service, request('ref-p2', 'return'), none, undefined as never)).awb;
    const fresh = await connector.pull(service, [{ awb, journey: 'return' }]);
    expect(fresh.get(awb)).toEqual({ events: [], unread: [] });
    sim.state(
      awb,
      {
        state: 'Out For Pickup',
        comment: 'Item Out For Pickup at Okhla',
        current_location: 'Okhla',
        created_at: '2026-11-20T08:00:00Z',
      },
      { state: 'Picked', comment: 'Picked', current_location: 'Okhla', created_at: '2026-11-20T09:00:00Z' },
    );
    const scans = await connector.pull(service, [
      { awb: forward, journey: 'forward' },
      { awb, journey: 'return' },
      { awb: 'R00000000SFX', journey: 'return' },
    ]);
    expect(sim.callsTo(`/api/v4/clients/requests/${awb}`)).toHaveLength(2);
    expect(sim.callsTo(`/api/v4/clients/orders/${forward}/track/`)).toHaveLength(1);
    expect([...scans.keys()]).toEqual([forward, awb]);
    expect(scans.get(awb)!.events.map((e) => [e.status, e.sub_status ?? null, e.event_time])).toEqual([
      ['return_pickup_scheduled', null, '2026-11-20T08:00:00.000Z'],
      ['return_picked_up', 'return_picked_up', '2026-11-20T09:00:00.000Z'],
    ]);
  });
});

describe('shadowfax connector on a marketplace account', () => {
  it('books with rts_details, and a cancellation after pickup comes back as a return to seller, to its end', async () => {
    const sim = await startShadowfaxSimulator({ orderTypes: ['marketplace'] });
    try {
      const connector = createShadowfaxConnector({
        token: SHADOWFAX_TOKEN,
        baseUrl: sim.baseUrl,
        timeoutMs: 2000,
        orderType: 'marketplace',
        clock: { now: () => new Date('2026-11-20T06:30:00Z') },
      });
      const { awb } = await connector.book(service, request('ref-m1'), none, undefined as never);
      const body = JSON.parse(sim.callsTo('/api/v3/clients/orders/')[0]!.body) as Record<string, unknown>;
      expect(body).toMatchObject({ order_type: 'marketplace', rts_details: body.pickup_details });
      expect(body).not.toHaveProperty('rto_details');

      sim.scan(awb, scan('picked', '2026-11-20T08:00:00Z'), scan('recd_at_fwd_hub', '2026-11-20T09:00:00Z'));
      expect(await connector.cancel(service, awb)).toBeUndefined();
      sim.scan(
        awb,
        scan('rts_in_process', '2026-11-20T11:00:00Z'),
        scan('rts_ofd', '2026-11-20T12:00:00Z'),
        scan('rts_d', '2026-11-20T13:00:00Z'),
      );
      const { events } = (await connector.pull(service, [{ awb, journey: 'forward' }])).get(awb)!;
      expect(events.map((e) => [e.status, e.event_time])).toEqual([
        ['in_transit', '2026-11-20T08:00:00.000Z'],
        ['in_transit', '2026-11-20T09:00:00.000Z'],
        // At rest when cancelled: Shadowfax starts the return to seller (the simulator a minute later).
        ['rto_initiated', '2026-11-20T09:01:00.000Z'],
        ['rto_in_transit', '2026-11-20T11:00:00.000Z'],
        ['rto_in_transit', '2026-11-20T12:00:00.000Z'],
        ['rto_delivered', '2026-11-20T13:00:00.000Z'],
      ]);
    } finally {
      await sim.close();
    }
  });
});
