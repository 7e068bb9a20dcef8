import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { CANCEL, post, UUID } from '../../../test/kit/http.js';
import { countRows } from '../../../test/kit/rows.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { listed } from '../../../test/kit/shipments.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { at, sendEvents, track } from '../../../test/kit/tracking.js';
import { NOW, PICKED_UP, RTO, useNdrApp } from '../../../test/ndr.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';

// NDR actions (issue 12): reattempt and initiate-rto for merchants (the instruction queue for
// couriers is in ndr-carrier-actions.once.test.ts). The clock is Friday 20 November 2026, 15:30 India
// time, so the next 3 working days are Saturday 21, Monday 23 and Wednesday 25 (Sunday 22 and the
// 24th, a holiday, are not).

let ctx: TestContext;
let shadowfax: string;
let delhivery: string;
const { shipment, reattempt, carrierGet } = useNdrApp((app, tokens) => {
  ctx = app;
  shadowfax = tokens.shadowfax;
  delhivery = tokens.delhivery;
});

/** Every row an NDR action could write, to show that a refused one wrote nothing. */
async function footprint() {
  return {
    actions: await countRows(ctx.database, 'shipment_actions'),
    events: await countRows(ctx.database, 'tracking_events'),
    milestones: await countRows(ctx.database, 'shipment_milestones'),
  };
}

/** The code each status of these routes answers with, but for the one a case names. */
const CODE_OF: Record<number, string> = { 400: 'invalid_request', 404: 'awb_not_found', 422: 'ndr_action_not_allowed' };

async function expectRefused(
  request: () => Promise<LightMyRequestResponse>,
  status: number,
  details: { field: string; message: string }[],
  code = CODE_OF[status],
) {
  const before = await footprint();
  const response = await request();
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({
    code,
    message: details[0]!.message,
    errors: details.map((d) => d.message),
    details,
  });
  expect(await footprint()).toEqual(before);
}

const refusedAwb = (message: string) => [{ field: 'awb', message }];

describe('POST /custom/api/v1/reattempt', () => {
  it('records the instruction without changing the status, and shows it in order-tracking, the listing and the courier queue', async () => {
    const { apiKey, awb, shipmentId } = await shipment();
    const body = {
      awb,
      updated_address: {
        address_line: 'Flat 4B, Sea View Apartments, 12 Marine Drive, Mumbai 400001',
        landmark: 'Opposite Sundance Cafe',
      },
      updated_phone_number: '+91 91234 56780',
      comments: 'Customer available after 6 pm',
      reattempt_date: '2026-11-23',
    };
    const response = await reattempt(apiKey, body);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toEqual({
      success: true,
      message: 'Reattempt requested',
      data: {
        awb,
        action_id: expect.stringMatching(UUID),
        reattempts_used: 1,
        reattempts_left: 1,
        reattempt_date: '2026-11-23',
      },
    });
    const action = {
      id: answer.data.action_id,
      action: 'reattempt',
      requested_by: 'merchant',
      requested_at: NOW,
      acknowledged_at: null,
      courier_status: 'waiting',
      refusal: null,
      details: {
        updated_address: body.updated_address,
        updated_phone_number: '+919123456780',
        comments: 'Customer available after 6 pm',
        reattempt_date: '2026-11-23',
      },
    };

    const tracking = await track(ctx, apiKey, awb);
    // Still ndr_raised in Dakiya's ten; Velocity's word says a reattempt is asked for.
    expect(tracking.shipment_status).toBe('reattempt_delivery');
    expect((tracking as unknown as { ndr_actions: unknown }).ndr_actions).toEqual([action]);
    const element = await listed(ctx, apiKey, shipmentId);
    expect(element.attributes.status).toBe('ndr_raised');
    expect(element.attributes.attempt_count).toBe(1);
    expect((element.attributes as unknown as { ndr_actions: unknown }).ndr_actions).toEqual([action]);

    const queue = await carrierGet(shadowfax);
    expect(queue.statusCode).toBe(200);
    expect(queue.json().data.filter((a: { awb: string }) => a.awb === awb)).toEqual([{ ...action, awb }]);
    expect((await carrierGet(delhivery)).json()).toEqual({ data: [], next_cursor: null });
  });

  it('allows one reattempt per failed delivery and two in all', async () => {
    const { apiKey, awb } = await shipment();
    expect((await reattempt(apiKey, { awb })).statusCode).toBe(200);
    await expectRefused(
      () => reattempt(apiKey, { awb }),
      422,
      refusedAwb('A reattempt is already requested for this failed delivery: wait for the courier to report it'),
    );

    await sendEvents(ctx, shadowfax, [
      { awb, status: 'out_for_delivery', event_time: at(120) },
      { awb, status: 'ndr_raised', ndr_reason: 'premises_closed', event_time: at(130) },
    ]);
    const second = await reattempt(apiKey, { awb, comments: 'Deliver to the neighbour' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ reattempts_used: 2, reattempts_left: 0, reattempt_date: null });

    await sendEvents(ctx, shadowfax, [
      { awb, status: 'out_for_delivery', event_time: at(140) },
      { awb, status: 'ndr_raised', ndr_reason: 'refused', event_time: at(150) },
    ]);
    await expectRefused(
      () => reattempt(apiKey, { awb }),
      422,
      refusedAwb('All 2 reattempts allowed for this shipment are used: initiate an RTO instead'),
    );
    expect(((await track(ctx, apiKey, awb)) as unknown as { ndr_actions: unknown[] }).ndr_actions).toHaveLength(2);
  });

  it.each([
    ['pending', [] as CarrierEvent[]],
    ['in_transit', PICKED_UP],
    ['out_for_delivery', [...PICKED_UP, { awb: '', status: 'out_for_delivery', event_time: at(60) }]],
    ['delivered', [...PICKED_UP, { awb: '', status: 'delivered', event_time: at(60) }]],
  ])('refuses a shipment that is %s', async (status, events) => {
    const { apiKey, awb } = await shipment(events);
    await expectRefused(
      () => reattempt(apiKey, { awb }),
      422,
      refusedAwb(`Shipment is ${status}: a reattempt can be requested only after a failed delivery (ndr_raised)`),
    );
  });

  it('refuses a change of pincode, city or state, and an address line naming another pincode', async () => {
    const { apiKey, awb } = await shipment();
    const moved = (field: string) => ({
      field: `updated_address.${field}`,
      message: `The ${field} cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address`,
    });
    await expectRefused(
      () => reattempt(apiKey, { awb, updated_address: { pincode: '110001', city: 'New Delhi', state: 'Delhi' } }),
      422,
      [moved('pincode'), moved('city'), moved('state')],
    );
    // A number is read as the pincode it stands for (Velocity's clients send them), and still refused.
    await expectRefused(() => reattempt(apiKey, { awb, updated_address: { pincode: 400002 } }), 422, [
      moved('pincode'),
    ]);
    await expectRefused(
      () => reattempt(apiKey, { awb, updated_address: { address_line: '5 MG Road, Bengaluru 560001' } }),
      422,
      [
        {
          field: 'updated_address.address_line',
          message:
            'address_line names pincode 560001 but the shipment goes to 400001: the pincode and city cannot be changed on a reattempt',
        },
      ],
    );
  });

  it('takes a reattempt_date only among the next 3 working days, India time', async () => {
    const { apiKey, awb } = await shipment();
    const notAllowed = [
      {
        field: 'reattempt_date',
        message: 'reattempt_date must be one of the next 3 working days: 2026-11-21, 2026-11-23, 2026-11-25',
      },
    ];
    for (const day of ['2026-11-20', '2026-11-22', '2026-11-24', '2026-11-26', '2025-11-21']) {
      await expectRefused(() => reattempt(apiKey, { awb, reattempt_date: day }), 422, notAllowed);
    }
    await expectRefused(() => reattempt(apiKey, { awb, reattempt_date: '2026-02-30' }), 400, [
      { field: 'reattempt_date', message: 'reattempt_date 2026-02-30 is not a calendar date' },
    ]);
    const badFormat = await reattempt(apiKey, { awb, reattempt_date: '23/11/2026' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().details).toEqual([
      { field: 'reattempt_date', message: 'reattempt_date must be a date written YYYY-MM-DD' },
    ]);
    const saturday = await reattempt(apiKey, { awb, reattempt_date: '2026-11-21' });
    expect(saturday.statusCode, saturday.body).toBe(200);
  });

  it('refuses a phone number that is not an Indian mobile number', async () => {
    const { apiKey, awb } = await shipment();
    await expectRefused(() => reattempt(apiKey, { awb, updated_phone_number: '12345' }), 400, [
      { field: 'updated_phone_number', message: 'updated_phone_number must be a 10-digit Indian mobile number' },
    ]);
  });

  it('names every bad field of one request together: the input first (400), then what the shipment refuses (422) (issue 16)', async () => {
    const { apiKey, awb } = await shipment(PICKED_UP);
    await expectRefused(
      () => reattempt(apiKey, { awb, updated_phone_number: '12345', reattempt_date: '2026-02-30' }),
      400,
      [
        { field: 'updated_phone_number', message: 'updated_phone_number must be a 10-digit Indian mobile number' },
        { field: 'reattempt_date', message: 'reattempt_date 2026-02-30 is not a calendar date' },
      ],
    );
    const body = {
      awb,
      updated_address: { address_line: '5 MG Road, Bengaluru 560001', city: 'Bengaluru' },
      reattempt_date: '2026-11-22',
    };
    await expectRefused(() => reattempt(apiKey, body), 422, [
      {
        field: 'awb',
        message: 'Shipment is in_transit: a reattempt can be requested only after a failed delivery (ndr_raised)',
      },
      {
        field: 'updated_address.city',
        message:
          'The city cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address',
      },
      {
        field: 'updated_address.address_line',
        message:
          'address_line names pincode 560001 but the shipment goes to 400001: the pincode and city cannot be changed on a reattempt',
      },
      {
        field: 'reattempt_date',
        message: 'reattempt_date must be one of the next 3 working days: 2026-11-21, 2026-11-23, 2026-11-25',
      },
    ]);
  });

  it("answers another account's AWB exactly as an unknown one, and writes nothing", async () => {
    const { awb } = await shipment();
    const stranger = await ctx.createAccount();
    await expectRefused(() => reattempt(stranger.apiKey, { awb }), 404, refusedAwb(`AWB ${awb} not found`));
    await expectRefused(
      () => reattempt(stranger.apiKey, { awb: 'SFX9999999999' }),
      404,
      refusedAwb('AWB SFX9999999999 not found'),
    );
  });

  it('replays an answer for a repeated Idempotency-Key instead of spending another reattempt', async () => {
    const { apiKey, awb } = await shipment();
    const first = await reattempt(apiKey, { awb }, { 'idempotency-key': `ndr-${awb}` });
    const again = await reattempt(apiKey, { awb }, { 'idempotency-key': `ndr-${awb}` });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(((await track(ctx, apiKey, awb)) as unknown as { ndr_actions: unknown[] }).ndr_actions).toHaveLength(1);
  });
});

describe('POST /custom/api/v1/initiate-rto', () => {
  it('moves an ndr_raised shipment to rto_initiated at once; the courier then carries it back', async () => {
    const { apiKey, awb, shipmentId } = await shipment();
    const response = await post(ctx, apiKey, RTO, { awb });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toEqual({
      success: true,
      message: 'RTO initiated',
      data: { awb, action_id: expect.stringMatching(UUID), status: 'rto_initiated' },
    });

    const tracking = await track(ctx, apiKey, awb);
    expect(tracking.shipment_status).toBe('rto_initiated');
    expect(tracking.shipment_track_activities![0]).toEqual({
      date: '2026-11-20 15:30:00',
      activity: 'RTO INITIATED',
      status: 'rto_initiated',
      description: 'RTO requested by the merchant',
      location: null,
      sr_status_label: 'rto_initiated',
    });
    const action = {
      id: answer.data.action_id,
      action: 'rto',
      requested_by: 'merchant',
      requested_at: NOW,
      acknowledged_at: null,
      courier_status: 'waiting',
      refusal: null,
      details: {},
    };
    expect((tracking as unknown as { ndr_actions: unknown }).ndr_actions).toEqual([action]);
    const element = await listed(ctx, apiKey, shipmentId);
    expect(element.attributes.status).toBe('rto_initiated');
    expect(element.attributes.shipment_milestones.map((m) => m.milestone)).toContain('rto_initiated');
    expect((element.attributes as unknown as { ndr_actions: unknown }).ndr_actions).toEqual([action]);
    await expectRefused(
      () => post(ctx, apiKey, RTO, { awb }),
      422,
      refusedAwb('Shipment is rto_initiated: its RTO is already under way'),
    );
    const filtered = await post(ctx, apiKey, '/custom/api/v1/shipments', { rto_reason: 'merchant_requested' });
    expect(filtered.json().data.map((s: { id: string }) => s.id)).toEqual([shipmentId]);

    // The courier's own scan of the stage repeats it; its onward scans move the shipment on.
    ctx.clock.set('2026-11-20T12:00:00.000Z');
    const results = await sendEvents(ctx, shadowfax, [
      { awb, status: 'rto_initiated', event_time: at(300) },
      { awb, status: 'rto_in_transit', event_time: at(320) },
    ]);
    expect(results.map((r) => r.accepted)).toEqual([true, true]);
    expect((await track(ctx, apiKey, awb)).shipment_status).toBe('rto_in_transit');
    await expectRefused(
      () => post(ctx, apiKey, RTO, { awb }),
      422,
      refusedAwb('Shipment is rto_in_transit: its RTO is already under way'),
    );
    await expectRefused(
      () => reattempt(apiKey, { awb }),
      422,
      refusedAwb('Shipment is rto_in_transit: a reattempt can be requested only after a failed delivery (ndr_raised)'),
    );
  });

  it("comes after the latest scan when the courier's clock runs ahead of ours", async () => {
    const { apiKey, awb } = await shipment([
      { awb: '', status: 'in_transit', event_time: at(212) },
      { awb: '', status: 'ndr_raised', event_time: at(215) },
    ]);
    const response = await post(ctx, apiKey, RTO, { awb });
    expect(response.statusCode, response.body).toBe(200);
    const tracking = await track(ctx, apiKey, awb);
    expect(tracking.shipment_status).toBe('rto_initiated');
    expect(tracking.shipment_track_activities!.map((a) => [a.date, a.status])).toEqual([
      ['2026-11-20 15:35:00', 'rto_initiated'],
      ['2026-11-20 15:35:00', 'ndr_raised'],
      ['2026-11-20 15:32:00', 'in_transit'],
    ]);
  });

  it('is allowed from in_transit and from an exception (others)', async () => {
    for (const events of [
      PICKED_UP,
      [...PICKED_UP, { awb: '', status: 'others', sub_status: 'on_hold', event_time: at(30) }],
    ]) {
      const { apiKey, awb } = await shipment(events);
      const response = await post(ctx, apiKey, RTO, { awb });
      expect(response.statusCode, response.body).toBe(200);
      expect((await track(ctx, apiKey, awb)).shipment_status).toBe('rto_initiated');
    }
  });

  it.each([
    ['pending', [] as CarrierEvent[], 'Shipment is pending (not picked up yet): cancel it with cancel-order instead'],
    [
      'out_for_delivery',
      [...PICKED_UP, { awb: '', status: 'out_for_delivery', event_time: at(60) }],
      'Shipment is out_for_delivery: request an RTO once the courier reports the outcome of this attempt',
    ],
    [
      'delivered',
      [...PICKED_UP, { awb: '', status: 'delivered', event_time: at(60) }],
      'Shipment is delivered and can no longer be returned to origin',
    ],
    [
      'rto_delivered',
      [
        ...PICKED_UP,
        { awb: '', status: 'rto_initiated', event_time: at(60) },
        { awb: '', status: 'rto_delivered', event_time: at(90) },
      ],
      'Shipment is rto_delivered and can no longer be returned to origin',
    ],
  ])('refuses a shipment that is %s, naming why', async (_status, events, message) => {
    const { apiKey, awb } = await shipment(events);
    await expectRefused(() => post(ctx, apiKey, RTO, { awb }), 422, refusedAwb(message));
  });

  it('refuses a cancelled shipment, and answers another account’s AWB as an unknown one', async () => {
    const { apiKey, awb } = await shipment([]);
    expect((await post(ctx, apiKey, CANCEL, { awbs: [awb] })).json().results[0].cancelled).toBe(true);
    await expectRefused(
      () => post(ctx, apiKey, RTO, { awb }),
      422,
      refusedAwb('Shipment is cancelled and can no longer be returned to origin'),
    );
    const stranger = await ctx.createAccount();
    await expectRefused(() => post(ctx, stranger.apiKey, RTO, { awb }), 404, refusedAwb(`AWB ${awb} not found`));
  });
});

describe('NDR actions on a return AWB', () => {
  it('refuse it as a return (422 naming awb), not as an unknown AWB, and write nothing; another account still gets a 404', async () => {
    const { apiKey } = await ctx.createAccount();
    const booked = await bookReturn(ctx, apiKey, await createCityWarehouse(ctx, apiKey));
    const awb = booked.awb_code!;
    const message = `AWB ${awb} is a return; NDR actions apply to forward shipments`;
    await expectRefused(() => reattempt(apiKey, { awb }), 422, refusedAwb(message), 'ndr_not_for_returns');
    await expectRefused(() => post(ctx, apiKey, RTO, { awb }), 422, refusedAwb(message), 'ndr_not_for_returns');
    const stranger = await ctx.createAccount();
    await expectRefused(() => reattempt(stranger.apiKey, { awb }), 404, refusedAwb(`AWB ${awb} not found`));
    await expectRefused(() => post(ctx, stranger.apiKey, RTO, { awb }), 404, refusedAwb(`AWB ${awb} not found`));
  });
});
