import { EXAMPLE } from '../../src/http/examples.js';
// The routes document their request and answer examples in their schemas (an `examples` keyword,
// which /openapi.json shows); a test that sends or expects a documented example takes it from there
// instead of copying it.

/** The first documented example of a schema; fails when it has none. */
export function exampleOf(schema: object): Record<string, unknown> {
  const [example] = ((schema as { examples?: unknown[] }).examples ?? []) as Record<string, unknown>[];
  if (example === undefined) throw new Error('the schema documents no example');
  return example;
}

/**
 * A documented example request with the example ids (src/http/examples.ts) replaced by real ones,
 * as a user pastes their own; a field set to undefined in `overrides` is left out.
 */
export function withRealIds(
  example: object,
  ids: Partial<Record<keyof typeof EXAMPLE, string>>,
  overrides: Record<string, unknown> = {},
) {
  const substitute = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const name = (Object.keys(EXAMPLE) as (keyof typeof EXAMPLE)[]).find((k) => EXAMPLE[k] === value);
      return name && ids[name] !== undefined ? ids[name] : value;
    }
    if (Array.isArray(value)) return value.map(substitute);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
    return value;
  };
  const body = { ...(substitute(example) as Record<string, unknown>), ...overrides };
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  return body;
}
