import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, post, UNKNOWN_ID, UUID, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody, ratesFor } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { sql } from 'drizzle-orm';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const RULES = `${V1}/allocation/rules`;
const PREVIEW = `${V1}/allocation/preview`;
// Carries 3 kg and up: never a 0.5 kg parcel.
const DELHIVERY_5KG = 'CARDELH5KG001';
const NOW = '2026-11-20T06:30:00.000Z';

async function addRule(apiKey: string, body: Record<string, unknown>) {
  const response = await post(ctx, apiKey, RULES, body);
  if (response.statusCode !== 201) throw new Error(`rule refused: ${response.statusCode} ${response.body}`);
  return response.json() as { data: { id: string }; warnings: { field: string; message: string }[] };
}

async function preview(apiKey: string, body: Record<string, unknown>) {
  const response = await post(ctx, apiKey, PREVIEW, body);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** The preview of the body, then a real booking of it: both must name the same courier and allocation. */
async function previewThenBook(apiKey: string, body: Record<string, unknown>) {
  const seen = await preview(apiKey, body);
  const booked = await orchestrate(ctx, apiKey, body);
  expect(booked.courier_company_id).toBe(seen.carrier_id);
  expect(booked.allocation).toEqual(seen.allocation);
  const [row] = await queryRows<{ allocation: unknown }>(
    ctx.database.db,
    sql`select allocation from shipments where id = ${booked.shipment_id}`,
  );
  expect(row!.allocation).toEqual(
    seen.allocation && {
      ruleId: seen.allocation.rule_id,
      rule: seen.allocation.rule,
      strategy: seen.allocation.strategy,
      reason: seen.allocation.reason,
    },
  );
  return seen;
}

describe('allocation rules: CRUD', () => {
  it('creates, lists, reads, replaces and deletes a rule, answering it in API units', async () => {
    const m = await merchant(ctx);
    const created = await post(ctx, m.apiKey, RULES, {
      name: ' Metro COD ',
      priority: 10,
      strategy: 'priority',
      carrier_ids: [SHADOWFAX, DELHIVERY_SURFACE],
      conditions: {
        zones: ['zone_a', 'B'],
        payment_methods: ['COD'],
        weight_min_grams: 0,
        weight_max_grams: 1000,
        order_value_min: 100.5,
        order_value_max: 5000,
        pincodes: [400001, '110001'],
        states: ['MAHARASHTRA'],
        store_names: ['Acme-Online'],
      },
    });
    expect(created.statusCode).toBe(201);
    const rule = {
      id: expect.stringMatching(UUID),
      name: 'Metro COD',
      priority: 10,
      active: true,
      strategy: 'priority',
      carrier_ids: [SHADOWFAX, DELHIVERY_SURFACE],
      conditions: {
        zones: ['A', 'B'],
        payment_methods: ['cod'],
        weight_min_grams: 0,
        weight_max_grams: 1000,
        order_value_min: 100.5,
        order_value_max: 5000,
        pincodes: ['400001', '110001'],
        states: ['maharashtra'],
        store_names: ['acme-online'],
      },
      created_at: NOW,
      updated_at: NOW,
    };
    expect(created.json()).toEqual({ data: rule, warnings: [] });
    const { id } = created.json().data;

    const list = await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(m.apiKey) });
    expect(list.json()).toEqual({ data: [rule], warnings: [] });
    const one = await ctx.app.inject({ method: 'GET', url: `${RULES}/${id}`, headers: authed(m.apiKey) });
    expect(one.json()).toEqual({ data: rule });

    ctx.clock.advance(60_000);
    const replaced = await ctx.app.inject({
      method: 'PUT',
      url: `${RULES}/${id}`,
      headers: authed(m.apiKey),
      payload: { name: 'Everything', priority: 5, active: false, strategy: 'cheapest' },
    });
    expect(replaced.statusCode).toBe(200);
    const everything = {
      ...rule,
      name: 'Everything',
      priority: 5,
      active: false,
      strategy: 'cheapest',
      carrier_ids: [],
      conditions: {},
      updated_at: '2026-11-20T06:31:00.000Z',
    };
    expect(replaced.json()).toEqual({ data: everything, warnings: [] });

    const deleted = await ctx.app.inject({ method: 'DELETE', url: `${RULES}/${id}`, headers: authed(m.apiKey) });
    expect(deleted.json()).toEqual({ data: everything });
    expect((await ctx.app.inject({ method: 'GET', url: `${RULES}/${id}`, headers: authed(m.apiKey) })).statusCode).toBe(
      404,
    );
    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(m.apiKey) })).json()).toEqual({
      data: [],
      warnings: [],
    });
  });

  it("another account's rule is a 404 to read, replace and delete, and is not listed", async () => {
    const owner = await merchant(ctx);
    const other = await merchant(ctx);
    const { data } = await addRule(owner.apiKey, { name: 'Mine', priority: 1, strategy: 'fastest' });
    for (const [method, payload] of [
      ['GET'],
      ['PUT', { name: 'Taken', priority: 1, strategy: 'cheapest' }],
      ['DELETE'],
    ] as const) {
      const response = await ctx.app.inject({
        method,
        url: `${RULES}/${data.id}`,
        headers: authed(other.apiKey),
        ...(payload && { payload }),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'allocation_rule_not_found',
        message: 'Allocation rule not found',
      });
    }
    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(other.apiKey) })).json()).toEqual({
      data: [],
      warnings: [],
    });
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${RULES}/${UNKNOWN_ID}`, headers: authed(owner.apiKey) }))
        .statusCode,
    ).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${RULES}/not-a-uuid`, headers: authed(owner.apiKey) })).statusCode,
    ).toBe(404);
    // The owner's rule still stands.
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${RULES}/${data.id}`, headers: authed(owner.apiKey) })).json().data
        .name,
    ).toBe('Mine');
  });

  it('names every bad field of a rule in one 400, and writes nothing', async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, RULES, {
      name: 'Bad',
      priority: 1,
      strategy: 'priority',
      carrier_ids: ['CARNOPE', SHADOWFAX, SHADOWFAX],
      conditions: {
        zones: ['B', 'F'],
        pincodes: ['110001', '999999', '12'],
        states: ['Delhi', 'Atlantis'],
        weight_min_grams: 2000,
        weight_max_grams: 1000,
        order_value_min: 500,
        order_value_max: 100,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((e: { field: string }) => e.field)).toEqual([
      'carrier_ids.0',
      'carrier_ids.2',
      'conditions.zones.1',
      'conditions.pincodes.1',
      'conditions.pincodes.2',
      'conditions.states.1',
      'conditions.weight_min_grams',
      'conditions.order_value_min',
    ]);
    expect(response.json().details).toContainEqual({
      field: 'conditions.weight_min_grams',
      message: 'conditions.weight_min_grams must not be above conditions.weight_max_grams',
    });
    expect(response.json().details).toContainEqual({
      field: 'carrier_ids.0',
      message: "carrier_ids.0 'CARNOPE' is not a courier service (GET /carriers lists them)",
    });
    expect(response.json().details).toContainEqual({
      field: 'conditions.states.1',
      message: "conditions.states.1 'Atlantis' is not a state of the pincode directory",
    });

    const noCouriers = await post(ctx, m.apiKey, RULES, {
      name: 'Fixed',
      priority: 1,
      strategy: 'priority',
      carrier_ids: [],
    });
    expect(noCouriers.statusCode).toBe(400);
    expect(noCouriers.json().details).toEqual([
      { field: 'carrier_ids', message: 'carrier_ids must list at least one courier service for the priority strategy' },
    ]);

    const schema = await post(ctx, m.apiKey, RULES, {
      name: '',
      priority: -1,
      strategy: 'random',
      conditions: { zones: [], weight_max_grams: -5 },
    });
    expect(schema.statusCode).toBe(400);
    expect(
      schema
        .json()
        .details.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['conditions.weight_max_grams', 'conditions.zones', 'name', 'priority', 'strategy']);

    expect((await ctx.app.inject({ method: 'GET', url: RULES, headers: authed(m.apiKey) })).json().data).toEqual([]);
  });

  it('warns of overlapping rules and of a rule an earlier one covers', async () => {
    const m = await merchant(ctx);
    const cod = await addRule(m.apiKey, {
      name: 'COD',
      priority: 1,
      strategy: 'cheapest',
      conditions: { payment_methods: ['cod'] },
    });
    expect(cod.warnings).toEqual([]);
    const light = await addRule(m.apiKey, {
      name: 'Light COD',
      priority: 2,
      strategy: 'fastest',
      conditions: { payment_methods: ['cod'], weight_max_grams: 500 },
    });
    expect(light.warnings).toEqual([
      {
        field: light.data.id,
        message:
          "rule 'Light COD' can never match: rule 'COD' (priority 1) matches every order it matches and may choose every courier it may",
      },
    ]);
    const metro = await addRule(m.apiKey, {
      name: 'Metro',
      priority: 3,
      strategy: 'cheapest',
      conditions: { zones: ['A'] },
    });
    expect(metro.warnings).toEqual([
      light.warnings[0],
      {
        field: metro.data.id,
        message: "rule 'Metro' overlaps rule 'COD' (priority 1): orders matching both go to 'COD'",
      },
      {
        field: metro.data.id,
        message: "rule 'Metro' overlaps rule 'Light COD' (priority 2): orders matching both go to 'Light COD'",
      },
    ]);
  });
});

describe('allocation: the preview chooses as the booking does', () => {
  it('with no rules, the cheapest serviceable service', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const rates = await ratesFor(ctx, m.apiKey, body);
    const seen = await previewThenBook(m.apiKey, body);
    expect(seen).toEqual({
      carrier_id: rates[0]!.carrier_id,
      courier_name: rates[0]!.carrier_name,
      zone: 'zone_c',
      allocation: {
        rule_id: null,
        rule: null,
        strategy: 'cheapest',
        reason: `the account has no active rules: ${rates[0]!.carrier_name}, the cheapest of ${rates.length} serviceable at ₹${rates[0]!.charges.total_forward_charges.toFixed(2)}`,
      },
      rules: [],
    });
  });

  it('each strategy, an unserviceable first choice skipped, a rule that does not match, and carrier_id winning', async () => {
    const m = await merchant(ctx);
    const body = () => orderBody(m.warehouseId);
    const rates = await ratesFor(ctx, m.apiKey, body());
    const names = new Map(rates.map((r) => [r.carrier_id, r.carrier_name]));
    const cod = await addRule(m.apiKey, {
      name: 'COD',
      priority: 1,
      strategy: 'fastest',
      conditions: { payment_methods: ['cod'] },
    });
    const fixed = await addRule(m.apiKey, {
      name: 'Fixed',
      priority: 2,
      strategy: 'priority',
      carrier_ids: [DELHIVERY_5KG, DELHIVERY_SURFACE, SHADOWFAX],
    });

    const seen = await previewThenBook(m.apiKey, body());
    expect(seen.carrier_id).toBe(DELHIVERY_SURFACE);
    expect(seen.allocation).toEqual({
      rule_id: fixed.data.id,
      rule: 'Fixed',
      strategy: 'priority',
      reason: `${names.get(DELHIVERY_SURFACE)} is number 2 of the rule's priority list; the 1 listed before it cannot carry this parcel`,
    });
    expect(seen.rules).toEqual([
      {
        rule_id: cod.data.id,
        rule: 'COD',
        priority: 1,
        strategy: 'fastest',
        matched: false,
        carrier_id: null,
        courier_name: null,
        reason: 'payment prepaid is not among cod',
      },
      {
        rule_id: fixed.data.id,
        rule: 'Fixed',
        priority: 2,
        strategy: 'priority',
        matched: true,
        carrier_id: DELHIVERY_SURFACE,
        courier_name: names.get(DELHIVERY_SURFACE),
        reason: seen.allocation.reason,
      },
    ]);

    // COD: the fastest, the cheapest of those arriving first.
    const codBody = () => orderBody(m.warehouseId, { payment_method: 'COD', cod_collectible: 998 });
    const codRates = await ratesFor(ctx, m.apiKey, codBody());
    const first = codRates.reduce((best, r) =>
      r.expected_delivery.delivery < best.expected_delivery.delivery ? r : best,
    );
    const fastest = await previewThenBook(m.apiKey, codBody());
    expect(fastest.carrier_id).toBe(first.carrier_id);
    expect(fastest.allocation).toEqual({
      rule_id: cod.data.id,
      rule: 'COD',
      strategy: 'fastest',
      reason: `${first.carrier_name} delivers first of ${codRates.length} serviceable, by ${first.expected_delivery.delivery}, at ₹${first.charges.total_forward_charges.toFixed(2)}`,
    });

    // A named courier wins; the booking records no allocation.
    const named = await previewThenBook(m.apiKey, body());
    expect(named.carrier_id).toBe(DELHIVERY_SURFACE);
    const withCarrier = { ...body(), carrier_id: SHADOWFAX };
    const chosen = await previewThenBook(m.apiKey, withCarrier);
    expect(chosen).toMatchObject({ carrier_id: SHADOWFAX, allocation: null });
  });

  it('an edit takes effect at once, and a rule with no serviceable courier is skipped', async () => {
    const m = await merchant(ctx);
    const rule = await addRule(m.apiKey, {
      name: 'Tiny',
      priority: 1,
      strategy: 'cheapest',
      carrier_ids: [DELHIVERY_5KG],
    });
    const rates = await ratesFor(ctx, m.apiKey, orderBody(m.warehouseId));
    const skipped = await previewThenBook(m.apiKey, orderBody(m.warehouseId));
    expect(skipped.allocation).toEqual({
      rule_id: null,
      rule: null,
      strategy: 'cheapest',
      reason: `no rule matched: ${rates[0]!.carrier_name}, the cheapest of ${rates.length} serviceable at ₹${rates[0]!.charges.total_forward_charges.toFixed(2)}; rule 'Tiny' skipped: none of its couriers can carry this parcel`,
    });
    await ctx.app.inject({
      method: 'PUT',
      url: `${RULES}/${rule.data.id}`,
      headers: authed(m.apiKey),
      payload: { name: 'Tiny', priority: 1, strategy: 'priority', carrier_ids: [SHADOWFAX] },
    });
    expect((await previewThenBook(m.apiKey, orderBody(m.warehouseId))).carrier_id).toBe(SHADOWFAX);
    await ctx.app.inject({ method: 'DELETE', url: `${RULES}/${rule.data.id}`, headers: authed(m.apiKey) });
    expect((await previewThenBook(m.apiKey, orderBody(m.warehouseId))).allocation.reason).toMatch(
      /^the account has no active rules: /,
    );
  });

  it("best delivery performance from the account's own history at the pincode; another account's history and rules count for nothing", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
    const delhivery = await issueCarrierToken(ctx, DELHIVERY_SURFACE);
    const minutesOn = (minutes: number) => new Date(ctx.clock.now().getTime() + minutes * 60_000).toISOString();
    // Shadowfax: 4 delivered, 1 returned; Delhivery: 5 delivered, all to 400001.
    for (const [carrier, token, rto] of [
      [SHADOWFAX, shadowfax, [false, false, false, false, true]],
      [DELHIVERY_SURFACE, delhivery, [false, false, false, false, false]],
    ] as const) {
      for (const returned of rto) {
        const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: carrier }));
        const awb = booked.awb_code!;
        const ending = returned
          ? { awb, status: 'rto_initiated', event_time: minutesOn(2) }
          : { awb, status: 'delivered', event_time: minutesOn(2) };
        const results = await sendEvents(ctx, token, [{ awb, status: 'in_transit', event_time: minutesOn(1) }, ending]);
        expect(results.every((r) => r.accepted)).toBe(true);
      }
    }
    const best = await addRule(m.apiKey, {
      name: 'Best',
      priority: 1,
      strategy: 'best_performance',
      carrier_ids: [SHADOWFAX, DELHIVERY_SURFACE],
    });
    const rates = await ratesFor(ctx, m.apiKey, orderBody(m.warehouseId));
    const names = new Map(rates.map((r) => [r.carrier_id, r.carrier_name]));
    const seen = await previewThenBook(m.apiKey, orderBody(m.warehouseId));
    expect(seen.allocation).toEqual({
      rule_id: best.data.id,
      rule: 'Best',
      strategy: 'best_performance',
      reason: `${names.get(DELHIVERY_SURFACE)} delivered 100% of 5 closed shipments to pincode 400001, the best of 2 serviceable`,
    });

    // The other account has no rules and no history: the cheapest, though the same rule would have chosen otherwise.
    const theirs = await previewThenBook(other.apiKey, orderBody(other.warehouseId));
    expect(theirs.allocation.rule).toBeNull();
    await addRule(other.apiKey, {
      name: 'Best',
      priority: 1,
      strategy: 'best_performance',
      carrier_ids: [SHADOWFAX, DELHIVERY_SURFACE],
    });
    const cheaper = rates.find((r) => r.carrier_id === SHADOWFAX || r.carrier_id === DELHIVERY_SURFACE)!;
    const noHistory = await previewThenBook(other.apiKey, orderBody(other.warehouseId));
    expect(noHistory.allocation.reason).toBe(
      `no courier has 5 closed shipments to pincode 400001 or zone C yet: ${cheaper.carrier_name}, the cheapest of 2 serviceable`,
    );
  });

  it('refuses a preview as the booking would, naming the fields', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId, { length: 0, weight: -1 });
    const response = await post(ctx, m.apiKey, PREVIEW, body);
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .details.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['length', 'weight']);
    const booking = await post(ctx, m.apiKey, `${V1}/forward-order-orchestration`, body);
    expect(booking.json()).toEqual(response.json());
    const unserviceable = await post(
      ctx,
      m.apiKey,
      PREVIEW,
      orderBody(m.warehouseId, {
        billing_pincode: '744101',
        billing_city: 'Port Blair',
        billing_state: 'Andaman and Nicobar Islands',
        weight: 40,
      }),
    );
    expect(unserviceable.statusCode).toBe(422);
  });
});
