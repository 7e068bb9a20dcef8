import { sql } from 'drizzle-orm';
import { unknownField } from '../../../test/lenient-input.js';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import type { TestContext } from '../../../test/app.js';
import { authed, HOUR, SHIPMENTS, UUID, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { at, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { NOW, PICKED_UP, REATTEMPT, useNdrApp } from '../../../test/ndr.js';
import { eventsSettled } from '../../../test/databases.js';

// NDR rules (docs/rto.md): matched when an NDR is raised, carried out through the NDR path. The
// clock is Friday 20 November 2026, 15:30 India time: the next working day is Saturday 21.

let ctx: TestContext;
let shadowfax: string;
useNdrApp((app, tokens) => {
  ctx = app;
  shadowfax = tokens.shadowfax;
});

const RULES = `${V1}/ndr-rules`;
const UNAVAILABLE_ONCE = {
  name: 'Unavailable: try again once',
  when: { ndr_reasons: ['customer_unavailable'], attempt_max: 1 },
  action: 'reattempt',
};
const REFUSED_COD = {
  name: 'Refused COD: ask, then RTO',
  when: { ndr_reasons: ['refused'], payment: 'cod' },
  action: 'message_buyer',
  rto_after_hours: 24,
};
const SECOND_NDR = { name: 'Second NDR: RTO', when: { attempt_min: 2 }, action: 'rto' };

const putRules = (apiKey: string, rules: unknown[]) =>
  ctx.app.inject({ method: 'PUT', url: RULES, headers: authed(apiKey), payload: { rules } });

/** A new account with `rules` and a Shadowfax shipment to Mumbai, picked up. */
async function shipmentWithRules(rules: unknown[], cod = false) {
  ctx.clock.set(at(0));
  const { apiKey } = await ctx.createAccount();
  if (rules.length > 0) expect((await putRules(apiKey, rules)).statusCode).toBe(200);
  const booked = await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey), { cod });
  const awb = booked.awb_code!;
  ctx.clock.set(NOW);
  await sendEvents(
    ctx,
    shadowfax,
    PICKED_UP.map((e) => ({ ...e, awb })),
  );
  return { apiKey, awb, shipmentId: booked.shipment_id };
}

/**
 * The rules' rounds until their consumer has read every event: on PostgreSQL an event is read only
 * once no older transaction of the whole server (other files' databases too) can still commit.
 */
async function rulesRound() {
  // A long transaction elsewhere on the server (another file's bulk load) holds every event back until it ends.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await ctx.app.ndrRules.runOnce();
    const [row] = await queryRows<{ caught_up: boolean }>(
      ctx.database.db,
      sql`select coalesce((select (c.after_txid, c.after_position) >= (e.txid, e.position)
            from event_consumers c, (select txid, position from events order by txid desc, position desc limit 1) e
           where c.name = 'ndr-rules'), true) as caught_up`,
    );
    if (row!.caught_up) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the NDR rules did not catch up with the event log');
}

/** A failed delivery attempt `minutes` after the clock's start, then the rules' round. */
async function fail(awb: string, minutes: number, reason: string) {
  await sendEvents(ctx, shadowfax, [
    { awb, status: 'out_for_delivery', event_time: at(minutes) },
    { awb, status: 'ndr_raised', ndr_reason: reason, event_time: at(minutes + 5) },
  ]);
  await rulesRound();
}

async function shipmentOf(apiKey: string, awb: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: SHIPMENTS,
    headers: authed(apiKey),
    payload: { search: awb },
  });
  return response.json().data[0].attributes;
}

async function eventsOf(apiKey: string, ...types: string[]) {
  const query = types.map((t) => `type[]=${t}`).join('&');
  await eventsSettled(ctx.database);
  const response = await ctx.app.inject({ method: 'GET', url: `${V1}/events?${query}`, headers: authed(apiKey) });
  return (response.json().data as { type: string; data: Record<string, unknown> }[]).map(({ type, data }) => {
    const { shipment: _snapshot, ...change } = data;
    return { type, ...change } as { type: string } & Record<string, unknown>;
  });
}

describe("an account's NDR rules", () => {
  it('reattempt once on the next working day, then RTO at the second NDR: each action an event with its rule', async () => {
    const { apiKey, awb, shipmentId } = await shipmentWithRules([UNAVAILABLE_ONCE, REFUSED_COD, SECOND_NDR]);
    await fail(awb, 30, 'customer_unavailable');
    let shipment = await shipmentOf(apiKey, awb);
    expect(shipment.status).toBe('ndr_raised');
    expect(shipment.ndr_actions).toEqual([
      {
        id: expect.stringMatching(UUID),
        action: 'reattempt',
        requested_by: 'rule',
        requested_at: NOW,
        acknowledged_at: null,
        courier_status: 'waiting',
        refusal: null,
        details: { reattempt_date: '2026-11-21', rule: 'Unavailable: try again once' },
      },
    ]);
    const reattemptId = shipment.ndr_actions[0].id;

    // The courier's next attempt fails an hour later.
    ctx.clock.advance(HOUR);
    await fail(awb, 60, 'customer_unavailable');
    shipment = await shipmentOf(apiKey, awb);
    expect(shipment.status).toBe('rto_initiated');
    expect(shipment.rto_reason).toBe('merchant_requested');
    expect(
      shipment.ndr_actions.map((a: { action: string; requested_by: string; details: unknown }) => [
        a.action,
        a.requested_by,
        a.details,
      ]),
    ).toEqual([
      ['reattempt', 'rule', { reattempt_date: '2026-11-21', rule: 'Unavailable: try again once' }],
      ['rto', 'rule', { rule: 'Second NDR: RTO' }],
    ]);
    expect(shipment.ndr_all_outcomes).toEqual(['reattempt', 'rto']);
    const listed = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: authed(apiKey),
      payload: { 'ndr_all_outcomes[]': ['rto'] },
    });
    expect(
      listed.json().data.map((e: { attributes: { tracking_number: string } }) => e.attributes.tracking_number),
    ).toEqual([awb]);
    expect(
      await eventsOf(apiKey, 'shipment.ndr_action_taken', 'shipment.reattempt_requested', 'shipment.rto_initiated'),
    ).toEqual([
      {
        type: 'shipment.reattempt_requested',
        action: expect.objectContaining({ id: reattemptId, requested_by: 'rule' }),
      },
      {
        type: 'shipment.ndr_action_taken',
        rule: { name: 'Unavailable: try again once', index: 0 },
        action: 'reattempt',
        outcome: 'done',
        reason: null,
        attempt: 1,
        action_id: reattemptId,
      },
      expect.objectContaining({
        type: 'shipment.rto_initiated',
        to: 'rto_initiated',
        rto_reason: 'merchant_requested',
      }),
      {
        type: 'shipment.ndr_action_taken',
        rule: { name: 'Second NDR: RTO', index: 2 },
        action: 'rto',
        outcome: 'done',
        reason: null,
        attempt: 2,
        action_id: shipment.ndr_actions[1].id,
      },
    ]);
    // A replayed round plans nothing twice.
    await rulesRound();
    expect((await shipmentOf(apiKey, awb)).ndr_actions).toHaveLength(2);
    // The audit log names each rule as the one who asked (issue 51), Dakiya acting for the account.
    expect(
      await queryRows(
        ctx.database.db,
        sql`select actor_type, actor_name, action from audit_log where object_id = ${shipmentId} and action <> 'shipment.tracked' order by at, id`,
      ),
    ).toEqual([
      {
        actor_type: 'system',
        actor_name: 'the NDR rule "Unavailable: try again once"',
        action: 'shipment.reattempt_requested',
      },
      { actor_type: 'system', actor_name: 'the NDR rule "Second NDR: RTO"', action: 'shipment.rto_requested' },
    ]);
  });

  it("goes through the NDR path's limits: a third reattempt is refused, and the refusal is an event", async () => {
    const { apiKey, awb } = await shipmentWithRules([{ name: 'Always again', when: {}, action: 'reattempt' }]);
    await fail(awb, 30, 'customer_unavailable');
    await fail(awb, 60, 'premises_closed');
    await fail(awb, 90, 'customer_unavailable');
    const shipment = await shipmentOf(apiKey, awb);
    expect(shipment.ndr_actions.map((a: { action: string }) => a.action)).toEqual(['reattempt', 'reattempt']);
    expect((await eventsOf(apiKey, 'shipment.ndr_action_taken')).map((e) => [e.attempt, e.outcome, e.reason])).toEqual([
      [1, 'done', null],
      [2, 'done', null],
      [3, 'refused', 'All 2 reattempts allowed for this shipment are used: initiate an RTO instead'],
    ]);
  });

  it('asks the buyer of a refused COD parcel, and initiates the RTO when the buyer has not answered in 24 hours', async () => {
    const { apiKey, awb } = await shipmentWithRules([UNAVAILABLE_ONCE, REFUSED_COD, SECOND_NDR], true);
    await fail(awb, 30, 'refused');
    expect(await eventsOf(apiKey, 'shipment.ndr_buyer_message_requested', 'shipment.ndr_action_taken')).toEqual([
      {
        type: 'shipment.ndr_buyer_message_requested',
        rule: { name: 'Refused COD: ask, then RTO', index: 1 },
        action: 'message_buyer',
        outcome: 'done',
        reason: null,
        attempt: 1,
        action_id: null,
        rto_after: '2026-11-21T10:00:00.000Z',
      },
      {
        type: 'shipment.ndr_action_taken',
        rule: { name: 'Refused COD: ask, then RTO', index: 1 },
        action: 'message_buyer',
        outcome: 'done',
        reason: null,
        attempt: 1,
        action_id: null,
      },
    ]);
    expect((await shipmentOf(apiKey, awb)).ndr_all_outcomes).toEqual(['buyer_message']);

    ctx.clock.advance(23 * HOUR);
    await rulesRound();
    expect((await shipmentOf(apiKey, awb)).status).toBe('ndr_raised');
    ctx.clock.advance(HOUR);
    await rulesRound();
    const shipment = await shipmentOf(apiKey, awb);
    expect(shipment.status).toBe('rto_initiated');
    expect(shipment.ndr_all_outcomes).toEqual(['buyer_message', 'rto']);
    expect((await eventsOf(apiKey, 'shipment.ndr_action_taken')).at(-1)).toMatchObject({
      action: 'rto_fallback',
      outcome: 'done',
      attempt: 1,
    });
  });

  it('does not initiate the RTO when the buyer answered with a reattempt', async () => {
    const { apiKey, awb } = await shipmentWithRules([REFUSED_COD], true);
    await fail(awb, 30, 'refused');
    expect(
      (await ctx.app.inject({ method: 'POST', url: REATTEMPT, headers: authed(apiKey), payload: { awb } })).statusCode,
    ).toBe(200);
    ctx.clock.advance(25 * HOUR);
    await rulesRound();
    const shipment = await shipmentOf(apiKey, awb);
    expect(shipment.status).toBe('ndr_raised');
    expect(
      shipment.ndr_actions.map((a: { action: string; requested_by: string }) => [a.action, a.requested_by]),
    ).toEqual([['reattempt', 'merchant']]);
    expect((await eventsOf(apiKey, 'shipment.ndr_action_taken')).map((e) => e.action)).toEqual(['message_buyer']);
  });

  it("acts on this account's shipments only: another account's NDR meets none of these rules", async () => {
    const withRules = await shipmentWithRules([{ name: 'Always RTO', when: {}, action: 'rto' }]);
    const without = await shipmentWithRules([]);
    await fail(without.awb, 30, 'customer_unavailable');
    expect((await shipmentOf(without.apiKey, without.awb)).ndr_actions).toEqual([]);
    expect(await eventsOf(without.apiKey, 'shipment.ndr_action_taken')).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(without.apiKey) })).json()).toEqual({
      data: { rules: [] },
    });
    await fail(withRules.awb, 30, 'customer_unavailable');
    expect((await shipmentOf(withRules.apiKey, withRules.awb)).status).toBe('rto_initiated');
  });
});

describe('PUT /custom/api/v1/ndr-rules', () => {
  it('answers and keeps the rules as set, in order', async () => {
    const { apiKey } = await ctx.createAccount();
    const rules = [UNAVAILABLE_ONCE, REFUSED_COD, SECOND_NDR];
    const response = await putRules(apiKey, rules);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { rules } });
    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(apiKey) })).json()).toEqual({
      data: { rules },
    });
  });

  it('ignores unknown fields, naming them by their path', async () => {
    const { apiKey } = await ctx.createAccount();
    const response = await putRules(apiKey, [
      { ...SECOND_NDR, when: { ...SECOND_NDR.when, channel: 'web' }, priority: 1 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['dakiya-ignored-fields']).toBe('rules.0.when.channel, rules.0.priority');
    expect(response.json()).toEqual({
      data: { rules: [SECOND_NDR] },
      warnings: [unknownField('rules.0.when.channel'), unknownField('rules.0.priority')],
    });
  });

  it.each([
    [[{ name: '', when: {}, action: 'call' }], 400, ['rules.0.name', 'rules.0.action']],
    [
      [{ name: 'A', when: { attempt_min: 0, payment: 'upi' }, action: 'rto' }],
      400,
      ['rules.0.when.payment', 'rules.0.when.attempt_min'],
    ],
    [
      [
        {
          name: 'A',
          when: { ndr_reasons: ['not_home'], attempt_min: 3, attempt_max: 2 },
          action: 'rto',
          rto_after_hours: 5,
        },
        { name: 'A', when: {}, action: 'reattempt' },
      ],
      422,
      ['rules.0.when.ndr_reasons', 'rules.0.when.attempt_min', 'rules.0.rto_after_hours', 'rules.1.name'],
    ],
  ])('refuses %j naming every bad field, and keeps the rules it had', async (rules, status, fields) => {
    const { apiKey } = await ctx.createAccount();
    await putRules(apiKey, [SECOND_NDR]);
    const response = await putRules(apiKey, rules);
    expect(response.statusCode).toBe(status);
    expect(response.json().code).toBe(status === 422 ? 'ndr_rules_invalid' : 'invalid_request');
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(fields);
    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(apiKey) })).json()).toEqual({
      data: { rules: [SECOND_NDR] },
    });
  });
});
