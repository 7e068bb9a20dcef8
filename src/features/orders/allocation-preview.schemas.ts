import { type Static, Type } from 'typebox';
import type { Allocation, RuleOutcome } from '../../domain/allocation/allocation.js';
import type { CourierQuote, RateQuote } from '../../domain/rates/engine.js';
import { zoneLabel } from '../../domain/geo/zones.js';
import type { FieldError } from '../../domain/errors.js';
import { Nullable } from '../../http/schemas.js';

// The allocation a booking records and answers, and the preview's answer (POST /allocation/preview).

export const AllocationView = Nullable(
  Type.Object(
    {
      rule_id: Nullable(
        Type.String({
          format: 'uuid',
          description: 'The allocation rule that chose; null when none matched (the cheapest was booked).',
        }),
      ),
      rule: Nullable(Type.String({ description: "That rule's name." })),
      strategy: Type.String({ description: 'cheapest, fastest, best_performance or priority.' }),
      reason: Type.String({ description: 'Why this courier, in words.' }),
    },
    { description: 'How the courier was chosen for an order sent without carrier_id; null when carrier_id named it.' },
  ),
);

type StoredAllocation = { ruleId: string | null; rule: string | null; strategy: string; reason: string };

export function allocationView(stored: StoredAllocation | null): Static<typeof AllocationView> {
  return stored && { rule_id: stored.ruleId, rule: stored.rule, strategy: stored.strategy, reason: stored.reason };
}

const RuleOutcomeView = Type.Object({
  rule_id: Type.String({ format: 'uuid' }),
  rule: Type.String(),
  priority: Type.Integer(),
  strategy: Type.String(),
  matched: Type.Boolean({ description: 'Whether the order meets its conditions.' }),
  carrier_id: Nullable(
    Type.String({
      description: 'What it would choose; null when it does not match or none of its couriers can carry the parcel.',
    }),
  ),
  courier_name: Nullable(Type.String()),
  reason: Type.String({ description: 'Why it does not match, or why that courier.' }),
});

export const PreviewResponse = Type.Object({
  data: Type.Object({
    carrier_id: Type.String({
      description: 'The courier service a booking of this order would get now (forward-order-orchestration).',
    }),
    courier_name: Type.String(),
    zone: Type.String(),
    allocation: AllocationView,
    rules: Type.Array(RuleOutcomeView, {
      description: 'Each active rule of the account, in the order they are tried.',
    }),
    warnings: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  }),
});

export function previewView(
  quote: RateQuote,
  chosen: { courier: CourierQuote; allocation: Allocation | null; outcomes: RuleOutcome<CourierQuote>[] },
  warnings: FieldError[],
): Static<typeof PreviewResponse> {
  return {
    data: {
      carrier_id: chosen.courier.service.id,
      courier_name: chosen.courier.service.name,
      zone: zoneLabel(quote.zone),
      allocation: allocationView(chosen.allocation),
      rules: chosen.outcomes.map((o) => ({
        rule_id: o.rule.id,
        rule: o.rule.name,
        priority: o.rule.priority,
        strategy: o.rule.strategy,
        matched: o.matched,
        carrier_id: o.courier?.service.id ?? null,
        courier_name: o.courier?.service.name ?? null,
        reason: o.reason,
      })),
      ...(warnings.length > 0 && { warnings }),
    },
  };
}
