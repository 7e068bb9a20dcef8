import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** A shipped data file (directory, zones, couriers, holidays) is unreadable or wrong: start-up stops. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

export interface SchemaIssue {
  /** JSON pointer of the offending value, e.g. `/couriers/3/prices/forward/A/first`. */
  path: string;
  message: string;
}

/**
 * One readable issue per offending value. TypeBox reports a union mismatch as one error per branch
 * plus a summary, and an unknown property twice; an operator editing a data file wants one line
 * that says what is allowed. TypeBox stops collecting after its global `maxErrors` (8 by default,
 * a DoS guard we leave alone), so a badly broken file shows its first problems only.
 */
export function schemaIssues(schema: TSchema, value: unknown): SchemaIssue[] {
  // Slots keep the order TypeBox reports in; a grouped path fills its slot when first seen.
  const slots: (SchemaIssue | { path: string; consts: unknown[]; types: string[]; messages: string[] })[] = [];
  const byPath = new Map<string, { path: string; consts: unknown[]; types: string[]; messages: string[] }>();
  for (const error of Value.Errors(schema, value)) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'boolean') continue;
    if (error.keyword === 'required') {
      for (const name of (params.requiredProperties as string[] | undefined) ?? []) {
        slots.push({ path: `${error.instancePath}/${name}`, message: 'is required' });
      }
      continue;
    }
    if (error.keyword === 'additionalProperties') {
      for (const name of (params.additionalProperties as string[] | undefined) ?? []) {
        slots.push({ path: `${error.instancePath}/${name}`, message: 'is not a known field' });
      }
      continue;
    }
    let entry = byPath.get(error.instancePath);
    if (entry === undefined) {
      entry = { path: error.instancePath, consts: [], types: [], messages: [] };
      byPath.set(error.instancePath, entry);
      slots.push(entry);
    }
    if (error.keyword === 'const') entry.consts.push(params.allowedValue);
    else if (error.keyword === 'type' && typeof params.type === 'string') entry.types.push(params.type);
    if (error.keyword !== 'anyOf') entry.messages.push(error.message);
  }
  return slots.map((slot) => {
    if ('message' in slot) return slot;
    let message: string;
    if (slot.consts.length > 1) {
      message = `must be one of ${slot.consts.map((c) => JSON.stringify(c)).join(', ')}`;
    } else if (slot.types.length > 1) {
      message = `must be ${slot.types.join(' or ')}`;
    } else {
      message = slot.messages[0] ?? 'is invalid';
    }
    return { path: slot.path, message };
  });
}

/** `/couriers/3/prices/forward/A` → `prices.forward.A` once the leading segments are dropped. */
export function pointerToField(pointer: string, dropSegments = 0): string {
  return pointer
    .split('/')
    .slice(1 + dropSegments)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** Joins issues into one start-up error message, capped so a wholly broken file stays readable. */
export function formatIssues(header: string, lines: string[], limit = 10): string {
  const shown = lines.slice(0, limit).map((line) => `  - ${line}`);
  if (lines.length > limit) shown.push(`  … and ${lines.length - limit} more`);
  return `${header}\n${shown.join('\n')}`;
}
