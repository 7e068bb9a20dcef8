import { Type } from 'typebox';
import { DataFileError, formatIssues, pointerToField, schemaIssues } from '../data-file-issues.js';

/*
 * The e-way bill rule's data (rule 138 of the CGST Rules): the goods exempt by HSN and the States'
 * own limits for movement within the State, read from data/eway-bill-*.json with their sources.
 */

export interface StateLimit {
  limitPaise: number;
  /** Goods the State's higher limit does not cover (they keep the ₹50,000 of rule 138(1)). */
  exceptHsnPrefixes: readonly string[];
  notification: string;
}

export interface ExemptGoods {
  hsnPrefix: string;
  goods: string;
}

export interface EwayBillRules {
  interstateLimitPaise: number;
  /** By State, spelt as the pincode directory spells it. */
  stateLimits: ReadonlyMap<string, StateLimit>;
  exempt: readonly ExemptGoods[];
}

const HsnPrefix = Type.String({ pattern: '^[0-9]{2,8}$' });

const ExemptFile = Type.Object({
  source: Type.String({ minLength: 1 }),
  exempt: Type.Array(
    Type.Object({
      hsn_prefix: HsnPrefix,
      goods: Type.String({ minLength: 1 }),
      annexure_items: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 }),
    }),
  ),
});

const LimitsFile = Type.Object({
  source: Type.String({ minLength: 1 }),
  interstate_limit_rupees: Type.Integer({ minimum: 1 }),
  states: Type.Array(
    Type.Object({
      state: Type.String({ minLength: 1 }),
      intrastate_limit_rupees: Type.Integer({ minimum: 1 }),
      except_hsn_prefixes: Type.Optional(Type.Array(HsnPrefix)),
      notification: Type.String({ minLength: 1 }),
    }),
  ),
});

function checked<T>(schema: Parameters<typeof schemaIssues>[0], json: unknown, source: string): T {
  const issues = schemaIssues(schema, json);
  if (issues.length > 0) {
    throw new DataFileError(
      formatIssues(
        `Invalid e-way bill file ${source}:`,
        issues.map((i) => `field "${pointerToField(i.path) || '(root)'}": ${i.message}`),
      ),
    );
  }
  return json as T;
}

/**
 * Both files, checked: a State the pincode directory does not know would never match an order,
 * so it stops start-up rather than quietly asking for e-way bills the State does not.
 */
export function parseEwayBillRules(
  exemptJson: unknown,
  limitsJson: unknown,
  knownStates: ReadonlySet<string>,
  sources = { exempt: 'eway-bill-exempt-hsn.json', limits: 'eway-bill-state-limits.json' },
): EwayBillRules {
  const exempt = checked<{ exempt: { hsn_prefix: string; goods: string }[] }>(ExemptFile, exemptJson, sources.exempt);
  const limits = checked<{
    interstate_limit_rupees: number;
    states: { state: string; intrastate_limit_rupees: number; except_hsn_prefixes?: string[]; notification: string }[];
  }>(LimitsFile, limitsJson, sources.limits);
  const problems: string[] = [];
  const stateLimits = new Map<string, StateLimit>();
  limits.states.forEach((entry, index) => {
    const field = `field "states.${index}.state"`;
    if (!knownStates.has(entry.state))
      problems.push(`${field}: "${entry.state}" is not a State of the pincode directory`);
    if (stateLimits.has(entry.state)) problems.push(`${field}: "${entry.state}" is listed twice`);
    stateLimits.set(entry.state, {
      limitPaise: entry.intrastate_limit_rupees * 100,
      exceptHsnPrefixes: entry.except_hsn_prefixes ?? [],
      notification: entry.notification,
    });
  });
  if (problems.length > 0)
    throw new DataFileError(formatIssues(`Invalid e-way bill file ${sources.limits}:`, problems));
  return {
    interstateLimitPaise: limits.interstate_limit_rupees * 100,
    stateLimits,
    exempt: exempt.exempt.map((e) => ({ hsnPrefix: e.hsn_prefix, goods: e.goods })),
  };
}
