import type { FieldError } from '../domain/errors.js';

// A schema violation (Ajv's report) in our words: one message per problem, naming the field and
// saying what it must be, most useful first.

export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

function fieldPath(instancePath: string, child?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof child === 'string') parts.push(child);
  return parts.join('.') || 'body';
}

const characters = (limit: unknown) => (limit === 1 ? '1 character' : `${String(limit)} characters`);

/** Turns one schema violation into a message that names the field and says what it must be. */
export function describeValidationError(error: AjvError): FieldError {
  switch (error.keyword) {
    case 'required': {
      const field = fieldPath(error.instancePath, error.params.missingProperty);
      // A conditional requirement (if/then) says what would do instead.
      const condition = error.parentSchema?.['x-required-error'];
      return { field, message: `${field} ${typeof condition === 'string' ? condition : 'is required'}` };
    }
    case 'additionalProperties': {
      const field = fieldPath(error.instancePath, error.params.additionalProperty);
      return { field, message: `${field} is not a known field` };
    }
  }
  const field = fieldPath(error.instancePath);
  const custom = error.parentSchema?.['x-error'];
  if (typeof custom === 'string') return { field, message: `${field} ${custom}` };
  switch (error.keyword) {
    case 'type':
      return { field, message: `${field} must be of type ${String(error.params.type)}` };
    case 'minLength':
      return { field, message: `${field} must be at least ${characters(error.params.limit)} long` };
    case 'maxLength':
      return { field, message: `${field} must be at most ${characters(error.params.limit)} long` };
    default:
      return { field, message: `${field} ${error.message ?? 'is invalid'}` };
  }
}

/** Missing fields first (what a client most often forgets), then wrong values, then unknown fields. */
const RANK: Record<string, number> = { required: 0, additionalProperties: 2 };

/**
 * One message per problem, every field at fault, most useful first (RANK; the schema's order
 * within a rank). A failing union (a nullable field) reports each branch's failure plus an `anyOf`
 * summary: keep the field's own `x-error` message when it has one (on the union or a branch),
 * else merge the branches' types into one message ("must be of type string or null").
 */
export function describeValidationErrors(errors: AjvError[]): FieldError[] {
  const byPath = new Map<string, AjvError[]>();
  for (const error of errors) {
    const group = byPath.get(error.instancePath);
    if (group) group.push(error);
    else byPath.set(error.instancePath, [error]);
  }
  const seen = new Set<string>();
  const ranked: { rank: number; detail: FieldError }[] = [];
  for (const group of byPath.values()) {
    for (const { error, detail } of describeOneValue(group)) {
      const key = `${detail.field}\u0000${detail.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // A conditional requirement ("this, or that") after the plain ones.
      const conditional = error.keyword === 'required' && error.parentSchema?.['x-required-error'] !== undefined;
      ranked.push({ rank: conditional ? 0.5 : (RANK[error.keyword] ?? 1), detail });
    }
  }
  // Array.prototype.sort is stable: the schema's order stays within a rank.
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.detail);
}

/** The messages for the errors of one value (one instancePath). */
function describeOneValue(errors: AjvError[]): { error: AjvError; detail: FieldError }[] {
  // `if` only reports that its `then` failed, which that failure says better.
  errors = errors.filter((e) => e.keyword !== 'if');
  const custom = (e: AjvError) =>
    e.keyword !== 'required' && e.keyword !== 'additionalProperties' && typeof e.parentSchema?.['x-error'] === 'string';
  const hasCustom = errors.some(custom);
  // A union's own message (its x-error) speaks for its branches; one custom message per value,
  // the innermost first, so a bad zone inside "a value or a list" says what a zone must be.
  let spoken = false;
  let kept = errors.filter((e) => {
    if (custom(e)) {
      if (spoken) return false;
      spoken = true;
      return true;
    }
    return (e.keyword !== 'anyOf' || errors.length === 1) && !hasCustom;
  });
  // A value of the right type for one branch of a union fails that branch's own rule (a pincode
  // number over 999999): the other branches' type errors say nothing useful beside it.
  const ruled = kept.some(
    (e) =>
      e.keyword !== 'type' && e.keyword !== 'anyOf' && e.keyword !== 'required' && e.keyword !== 'additionalProperties',
  );
  if (ruled) kept = kept.filter((e) => e.keyword !== 'type');
  const types = kept.filter((e) => e.keyword === 'type' && !custom(e)).map((e) => String(e.params.type));
  return kept.map((error) => {
    const field = fieldPath(error.instancePath);
    const detail =
      error.keyword === 'type' && !custom(error)
        ? { field, message: `${field} must be of type ${types.join(' or ')}` }
        : describeValidationError(error);
    return { error, detail };
  });
}
