import { paymentMethodOf } from '../../domain/rates/engine.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import {
  allocate,
  type AllocationRule,
  type Candidate,
  evaluate,
  needsHistory,
  type OrderFacts,
  type RuleConditions,
  type Strategy,
} from '../../domain/allocation/allocation.js';
import { ruleWarnings } from '../../domain/allocation/rule-checks.js';
import { checkAll, invalid } from '../../domain/errors.js';
import { resolvePincode } from '../../domain/geo/resolve.js';
import { ZONES, type Zone } from '../../domain/geo/zones.js';
import { paiseToRupees, rupeesToPaise } from '../../domain/money.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { ALLOCATION_ERRORS } from './allocation.errors.js';
import type { AllocationChoice, CourierAllocator } from '../contracts.js';
import * as repo from './allocation.repository.js';
import type { RuleInput, RuleViewType } from './allocation.schemas.js';

export type AllocationService = ReturnType<typeof createAllocationService>;

/**
 * How long a process trusts the rules it read for an account. A change made through this process
 * drops its copy at once; other processes see it within this time (a booking then reads no rules).
 */
export const RULES_CACHE_MS = 10_000;

export function toRule(row: repo.RuleRow): AllocationRule {
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    active: row.active,
    conditions: row.conditions as RuleConditions,
    strategy: row.strategy as Strategy,
    carrierIds: row.carrierIds,
  };
}

export function toRuleView(row: repo.RuleRow): RuleViewType {
  const c = row.conditions as RuleConditions;
  const conditions: RuleViewType['conditions'] = {
    ...(c.zones && { zones: [...c.zones] }),
    ...(c.paymentMethods && { payment_methods: [...c.paymentMethods] }),
    ...(c.weightMinGrams !== undefined && { weight_min_grams: c.weightMinGrams }),
    ...(c.weightMaxGrams !== undefined && { weight_max_grams: c.weightMaxGrams }),
    ...(c.orderValueMinPaise !== undefined && { order_value_min: paiseToRupees(c.orderValueMinPaise) }),
    ...(c.orderValueMaxPaise !== undefined && { order_value_max: paiseToRupees(c.orderValueMaxPaise) }),
    ...(c.pincodes && { pincodes: [...c.pincodes] }),
    ...(c.states && { states: [...c.states] }),
    ...(c.storeNames && { store_names: [...c.storeNames] }),
  };
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    active: row.active,
    strategy: row.strategy,
    carrier_ids: row.carrierIds,
    conditions,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createAllocationService({ db, clock, rates }: { db: Db; clock: Clock; rates: RatesContext }) {
  const cache = new Map<string, { rules: AllocationRule[]; until: number }>();

  async function rulesOf(ex: Executor, accountId: string): Promise<AllocationRule[]> {
    const now = Date.now();
    const kept = cache.get(accountId);
    if (kept && kept.until > now) return kept.rules;
    const rules = (await repo.listRules(ex, accountId)).map(toRule);
    cache.set(accountId, { rules, until: now + RULES_CACHE_MS });
    return rules;
  }

  /** Every problem of the body at once, each naming its field; the values in internal units. */
  function readRule(body: RuleInput): Omit<repo.RuleValues, 'updatedAt'> {
    const checks = checkAll();
    const c = body.conditions ?? {};
    const carrierIds = body.carrier_ids ?? [];
    for (const [i, id] of carrierIds.entries()) {
      checks.check(() => {
        if (!rates.catalogue.byId.has(id))
          throw invalid(
            `carrier_ids.${i} '${id}' is not a courier service (GET /carriers lists them)`,
            `carrier_ids.${i}`,
          );
        if (carrierIds.indexOf(id) !== i) throw invalid(`carrier_ids.${i} '${id}' is listed twice`, `carrier_ids.${i}`);
      });
    }
    if (body.strategy === 'priority' && carrierIds.length === 0) {
      checks.check(() => {
        throw invalid('carrier_ids must list at least one courier service for the priority strategy', 'carrier_ids');
      });
    }
    const zones = c.zones?.map((raw, i) => {
      const zone = raw
        .trim()
        .toUpperCase()
        .replace(/^ZONE_/, '');
      return checks.check(() => {
        if (!(ZONES as readonly string[]).includes(zone))
          throw invalid(
            `conditions.zones.${i} must be one of A, B, C, D, E (or zone_a … zone_e)`,
            `conditions.zones.${i}`,
          );
        return zone as Zone;
      });
    });
    const pincodes = c.pincodes?.map((p, i) =>
      checks.check(() => resolvePincode(rates.directory, p, `conditions.pincodes.${i}`).pincode),
    );
    const knownStates = new Map([...rates.directory.states].map((s) => [s.toLowerCase(), s]));
    const states = c.states?.map((s, i) =>
      checks.check(() => {
        const state = s.trim().toLowerCase();
        if (!knownStates.has(state))
          throw invalid(
            `conditions.states.${i} '${s}' is not a state of the pincode directory`,
            `conditions.states.${i}`,
          );
        return state;
      }),
    );
    // Named by the body's own fields (weight_min_grams, not weight_min), as the client sent them.
    const ordered = (min: number | undefined, max: number | undefined, minField: string, maxField: string) => {
      if (min !== undefined && max !== undefined && min > max) {
        checks.check(() => {
          throw invalid(`conditions.${minField} must not be above conditions.${maxField}`, `conditions.${minField}`);
        });
      }
    };
    ordered(c.weight_min_grams, c.weight_max_grams, 'weight_min_grams', 'weight_max_grams');
    ordered(c.order_value_min, c.order_value_max, 'order_value_min', 'order_value_max');
    checks.done();
    const conditions: RuleConditions = {
      ...(zones && { zones: [...new Set(zones as Zone[])] }),
      ...(c.payment_methods && { paymentMethods: [...new Set(c.payment_methods.map(paymentMethodOf))] }),
      ...(c.weight_min_grams !== undefined && { weightMinGrams: c.weight_min_grams }),
      ...(c.weight_max_grams !== undefined && { weightMaxGrams: c.weight_max_grams }),
      ...(c.order_value_min !== undefined && { orderValueMinPaise: rupeesToPaise(c.order_value_min) }),
      ...(c.order_value_max !== undefined && { orderValueMaxPaise: rupeesToPaise(c.order_value_max) }),
      ...(pincodes && { pincodes: [...new Set(pincodes as string[])] }),
      ...(states && { states: [...new Set(states as string[])] }),
      ...(c.store_names && { storeNames: [...new Set(c.store_names.map((s) => s.trim().toLowerCase()))] }),
    };
    return {
      name: body.name.trim(),
      priority: body.priority,
      active: body.active ?? true,
      strategy: body.strategy,
      carrierIds,
      conditions: conditions as Record<string, unknown>,
    };
  }

  /** The account's rules after a change, with the warnings of the whole set. */
  async function saved(accountId: string, row: repo.RuleRow) {
    cache.delete(accountId);
    const warnings = ruleWarnings((await repo.listRules(db, accountId)).map(toRule));
    return { data: toRuleView(row), warnings };
  }

  const allocator: CourierAllocator = {
    async choose<C extends Candidate>(
      ex: Executor,
      accountId: string,
      facts: OrderFacts,
      candidates: readonly C[],
    ): Promise<AllocationChoice<C>> {
      const rules = await rulesOf(ex, accountId);
      const history = needsHistory(rules, facts)
        ? await repo.deliveryHistory(
            ex,
            accountId,
            candidates.map((c) => c.service.id),
            facts.pincode,
            facts.zone,
          )
        : undefined;
      const outcomes = evaluate(rules, facts, candidates, history);
      return { chosen: allocate(rules, facts, candidates, history), outcomes };
    },
  };

  const record = auditRecorder(clock);
  return {
    allocator,

    async list(accountId: string) {
      const rows = await repo.listRules(db, accountId);
      return { data: rows.map(toRuleView), warnings: ruleWarnings(rows.map(toRule)) };
    },

    async get(accountId: string, id: string) {
      const row = (await repo.listRules(db, accountId)).find((r) => r.id === id);
      if (!row) throw ALLOCATION_ERRORS.allocation_rule_not_found.error('Allocation rule not found');
      return { data: toRuleView(row) };
    },

    async create(actor: Actor, body: RuleInput) {
      const { accountId } = actor;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const made = await repo.insertRule(tx, accountId, { ...readRule(body), createdAt: now, updatedAt: now });
        await record(tx, actor, {
          action: 'allocation_rule.created',
          objectType: 'allocation_rule',
          objectId: made.id,
          changes: { name: made.name },
        });
        return made;
      });
      return saved(accountId, row);
    },

    async replace(actor: Actor, id: string, body: RuleInput) {
      const { accountId } = actor;
      const row = await db.transaction(async (tx) => {
        const changed = await repo.updateRule(tx, accountId, id, { ...readRule(body), updatedAt: clock.now() });
        if (!changed) throw ALLOCATION_ERRORS.allocation_rule_not_found.error('Allocation rule not found');
        await record(tx, actor, {
          action: 'allocation_rule.changed',
          objectType: 'allocation_rule',
          objectId: id,
          changes: { name: changed.name },
        });
        return changed;
      });
      return saved(accountId, row);
    },

    async remove(actor: Actor, id: string) {
      const { accountId } = actor;
      const row = await db.transaction(async (tx) => {
        const deleted = await repo.deleteRule(tx, accountId, id);
        if (!deleted) throw ALLOCATION_ERRORS.allocation_rule_not_found.error('Allocation rule not found');
        await record(tx, actor, {
          action: 'allocation_rule.deleted',
          objectType: 'allocation_rule',
          objectId: id,
          changes: { name: deleted.name },
        });
        return deleted;
      });
      cache.delete(accountId);
      return { data: toRuleView(row) };
    },
  };
}
