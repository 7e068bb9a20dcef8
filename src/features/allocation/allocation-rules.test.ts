import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_RATES } from '../../../test/app.js';
import { BLUEDART_AIR, DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { queryRows } from '../../base/db/client.js';
import type { Candidate, OrderFacts } from '../../domain/allocation/allocation.js';
import { type AllocationService, createAllocationService } from './allocation.service.js';
import type { RuleInput } from './allocation.schemas.js';

// The allocation service's rules as functions over a real database (both engines): how a rule's
// body is read (normalised, stored in internal units, every bad field named at once) and which
// courier the allocator chooses, and why, for an order's facts. The routes' contract (CRUD, the
// preview through the rate engine) is allocation.once.test.ts's.

let ctx: UseCaseContext;
let allocation: AllocationService;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As allocation.register.ts builds it.
  allocation = createAllocationService({ db: ctx.db, clock: ctx.clock, rates: ctx.rates });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  ctx.clock.set('2026-11-20T10:00:00.000Z');
});

const account = async () => (await ctx.createAccount()).id;
/** The services' names, from the rates the use-case context runs on (its default). */
const nameOf = (id: string) => PUSH_RATES.catalogue.byId.get(id)!.name;

/** The quote's serviceable services, cheapest first: Shadowfax ₹42 (day 5), Delhivery ₹50 (day 4), Blue Dart ₹90 (day 2). */
const candidate = (id: string, rupees: number, deliveryDay: number): Candidate => ({
  service: { id, name: nameOf(id) },
  totalPaise: rupees * 100,
  deliveryDay,
});
const CANDIDATES = [candidate(SHADOWFAX, 42, 5), candidate(DELHIVERY_SURFACE, 50, 4), candidate(BLUEDART_AIR, 90, 2)];

const FACTS: OrderFacts = {
  zone: 'C',
  paymentMethod: 'cod',
  weightGrams: 500,
  orderValuePaise: 99_900,
  pincode: '400001',
  state: 'maharashtra',
  storeName: null,
};

const rule = (name: string, over: Partial<RuleInput> = {}): RuleInput => ({
  name,
  priority: 10,
  strategy: 'cheapest',
  ...over,
});

describe('reading a rule', () => {
  it('normalises zones, states, store names and payment methods, drops repeats, and keeps money in paise', async () => {
    const id = await account();
    const { data, warnings } = await allocation.create(asAccount(id), {
      name: '  Metro COD  ',
      priority: 5,
      strategy: 'priority',
      carrier_ids: [BLUEDART_AIR, SHADOWFAX],
      conditions: {
        zones: [' zone_c ', 'C', 'a'],
        payment_methods: ['COD', 'cod'],
        states: ['Maharashtra', 'MAHARASHTRA'],
        store_names: ['  My Shop ', 'my shop'],
        order_value_min: 100.5,
        order_value_max: 2000,
        weight_min_grams: 0,
        weight_max_grams: 1000,
      },
    });
    expect(warnings).toEqual([]);
    expect(data).toEqual({
      id: expect.any(String),
      name: 'Metro COD',
      priority: 5,
      active: true,
      strategy: 'priority',
      carrier_ids: [BLUEDART_AIR, SHADOWFAX],
      conditions: {
        zones: ['C', 'A'],
        payment_methods: ['cod'],
        states: ['maharashtra'],
        store_names: ['my shop'],
        order_value_min: 100.5,
        order_value_max: 2000,
        weight_min_grams: 0,
        weight_max_grams: 1000,
      },
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:00:00.000Z',
    });
    const [row] = await queryRows<{ conditions: Record<string, unknown> }>(
      ctx.db,
      sql`select conditions from allocation_rules where id = ${data.id}`,
    );
    expect(row!.conditions).toEqual({
      zones: ['C', 'A'],
      paymentMethods: ['cod'],
      states: ['maharashtra'],
      storeNames: ['my shop'],
      orderValueMinPaise: 10050,
      orderValueMaxPaise: 200000,
      weightMinGrams: 0,
      weightMaxGrams: 1000,
    });
    ctx.clock.set('2026-11-21T10:00:00.000Z');
    const replaced = await allocation.replace(asAccount(id), data.id, rule('Renamed', { active: false }));
    expect(replaced.data).toMatchObject({
      name: 'Renamed',
      active: false,
      conditions: {},
      carrier_ids: [],
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
    });
  });

  it.each<[string, Partial<RuleInput>, { field: string; message: string }[]]>([
    [
      'an unknown courier service and one listed twice',
      { carrier_ids: [SHADOWFAX, 'CARNOPE', SHADOWFAX] },
      [
        {
          field: 'carrier_ids.1',
          message: "carrier_ids.1 'CARNOPE' is not a courier service (GET /carriers lists them)",
        },
        { field: 'carrier_ids.2', message: `carrier_ids.2 '${SHADOWFAX}' is listed twice` },
      ],
    ],
    [
      'the priority strategy without couriers',
      { strategy: 'priority' },
      [
        {
          field: 'carrier_ids',
          message: 'carrier_ids must list at least one courier service for the priority strategy',
        },
      ],
    ],
    [
      'a zone that is not A to E',
      { conditions: { zones: ['B', 'zone_f'] } },
      [
        {
          field: 'conditions.zones.1',
          message: 'conditions.zones.1 must be one of A, B, C, D, E (or zone_a … zone_e)',
        },
      ],
    ],
    [
      'a state the directory does not know',
      { conditions: { states: ['Atlantis'] } },
      [
        {
          field: 'conditions.states.0',
          message: "conditions.states.0 'Atlantis' is not a state of the pincode directory",
        },
      ],
    ],
    [
      'ranges the wrong way round, both named',
      { conditions: { weight_min_grams: 2000, weight_max_grams: 1000, order_value_min: 500, order_value_max: 499.99 } },
      [
        {
          field: 'conditions.weight_min_grams',
          message: 'conditions.weight_min_grams must not be above conditions.weight_max_grams',
        },
        {
          field: 'conditions.order_value_min',
          message: 'conditions.order_value_min must not be above conditions.order_value_max',
        },
      ],
    ],
  ])('refuses %s, naming each field, and writes nothing', async (_name, over, details) => {
    const id = await account();
    await expect(allocation.create(asAccount(id), rule('Bad', over))).rejects.toMatchObject({
      code: 'invalid_request',
      kind: 'invalid',
      messages: details.map((d) => d.message),
      details,
    });
    expect(await allocation.list(id)).toEqual({ data: [], warnings: [] });
  });

  it("answers another account's rule as unknown, to read, replace and delete", async () => {
    const id = await account();
    const other = await account();
    const { data } = await allocation.create(asAccount(id), rule('Mine'));
    const notFound = { code: 'allocation_rule_not_found', kind: 'not_found', messages: ['Allocation rule not found'] };
    await expect(allocation.get(other, data.id)).rejects.toMatchObject(notFound);
    await expect(allocation.replace(asAccount(other), data.id, rule('Theirs'))).rejects.toMatchObject(notFound);
    await expect(allocation.remove(asAccount(other), data.id)).rejects.toMatchObject(notFound);
    expect((await allocation.get(id, data.id)).data.name).toBe('Mine');
    expect((await allocation.remove(asAccount(id), data.id)).data.id).toBe(data.id);
    await expect(allocation.get(id, data.id)).rejects.toMatchObject(notFound);
  });
});

describe('the allocator', () => {
  const choose = async (accountId: string, facts: Partial<OrderFacts> = {}, candidates = CANDIDATES) => {
    const { chosen } = await allocation.allocator.choose(ctx.db, accountId, { ...FACTS, ...facts }, candidates);
    return chosen && { carrier: chosen.courier.service.id, ...chosen.allocation };
  };

  it('with no rules, the cheapest serviceable; with none serviceable, nothing', async () => {
    const id = await account();
    expect(await choose(id)).toEqual({
      carrier: SHADOWFAX,
      ruleId: null,
      rule: null,
      strategy: 'cheapest',
      reason: `the account has no active rules: ${nameOf(SHADOWFAX)}, the cheapest of 3 serviceable at ₹42.00`,
    });
    expect(await choose(id, {}, [])).toBeNull();
  });

  it.each<[string, Partial<RuleInput>, string, (n: (id: string) => string) => string]>([
    ['cheapest', {}, SHADOWFAX, (n) => `${n(SHADOWFAX)} is the cheapest of 3 serviceable at ₹42.00`],
    [
      'cheapest among its couriers',
      { carrier_ids: [BLUEDART_AIR, DELHIVERY_SURFACE] },
      DELHIVERY_SURFACE,
      (n) => `${n(DELHIVERY_SURFACE)} is the cheapest of 2 serviceable at ₹50.00`,
    ],
    [
      'fastest',
      { strategy: 'fastest' },
      BLUEDART_AIR,
      // Its day is the quote's, printed as a date: matched by pattern below.
      () => '',
    ],
    [
      'priority, its first listed',
      { strategy: 'priority', carrier_ids: [DELHIVERY_SURFACE, SHADOWFAX] },
      DELHIVERY_SURFACE,
      (n) => `${n(DELHIVERY_SURFACE)} is number 1 of the rule's priority list`,
    ],
    [
      'priority, past one that cannot carry it',
      { strategy: 'priority', carrier_ids: ['CARDTDCSTD001', BLUEDART_AIR] },
      BLUEDART_AIR,
      (n) =>
        `${n(BLUEDART_AIR)} is number 2 of the rule's priority list; the 1 listed before it cannot carry this parcel`,
    ],
    [
      'best_performance without history: the cheapest',
      { strategy: 'best_performance' },
      SHADOWFAX,
      (n) =>
        `no courier has 5 closed shipments to pincode 400001 or zone C yet: ${n(SHADOWFAX)}, the cheapest of 3 serviceable`,
    ],
  ])('a matching rule, %s', async (_name, over, carrier, reason) => {
    const id = await account();
    const { data } = await allocation.create(asAccount(id), rule('The rule', over));
    const chosen = await choose(id);
    expect(chosen).toMatchObject({
      carrier,
      ruleId: data.id,
      rule: 'The rule',
      strategy: data.strategy,
    });
    if (data.strategy === 'fastest')
      expect(chosen!.reason).toMatch(/^.+ delivers first of 3 serviceable, by .+, at ₹90\.00$/);
    else expect(chosen!.reason).toBe(reason(nameOf));
  });

  it('tries active rules lowest priority first; a matching rule that cannot carry is named, one that does not match is not', async () => {
    const id = await account();
    await allocation.create(asAccount(id), rule('Inactive', { priority: 1, active: false, strategy: 'fastest' }));
    await allocation.create(
      asAccount(id),
      rule('Prepaid only', { priority: 2, conditions: { payment_methods: ['prepaid'] } }),
    );
    await allocation.create(asAccount(id), rule('DTDC', { priority: 3, carrier_ids: ['CARDTDCSTD001'] }));
    const { data: later } = await allocation.create(asAccount(id), rule('Air', { priority: 4, strategy: 'fastest' }));
    expect(await choose(id)).toMatchObject({
      carrier: BLUEDART_AIR,
      ruleId: later.id,
      reason: expect.stringMatching(/; rule 'DTDC' skipped: none of its couriers can carry this parcel$/),
    });
    // A prepaid order meets 'Prepaid only' first.
    expect(await choose(id, { paymentMethod: 'prepaid' })).toMatchObject({ carrier: SHADOWFAX, rule: 'Prepaid only' });
  });

  it('with rules none of which match, the cheapest, saying so', async () => {
    const id = await account();
    await allocation.create(asAccount(id), rule('Heavy', { conditions: { weight_min_grams: 5000 } }));
    await allocation.create(asAccount(id), rule('Zone A', { conditions: { zones: ['A'] } }));
    expect(await choose(id)).toMatchObject({
      carrier: SHADOWFAX,
      ruleId: null,
      reason: `no rule matched: ${nameOf(SHADOWFAX)}, the cheapest of 3 serviceable at ₹42.00`,
    });
  });

  it('a change made through the service takes effect at once, and a removed rule no longer chooses', async () => {
    const id = await account();
    expect((await choose(id))!.carrier).toBe(SHADOWFAX);
    const { data } = await allocation.create(asAccount(id), rule('Air', { strategy: 'fastest' }));
    expect((await choose(id))!.carrier).toBe(BLUEDART_AIR);
    await allocation.replace(
      asAccount(id),
      data.id,
      rule('Air', { strategy: 'priority', carrier_ids: [DELHIVERY_SURFACE] }),
    );
    expect((await choose(id))!.carrier).toBe(DELHIVERY_SURFACE);
    await allocation.remove(asAccount(id), data.id);
    expect((await choose(id))!.rule).toBeNull();
  });
});
