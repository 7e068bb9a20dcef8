// The routes document their request and answer examples in their schemas (an `examples` keyword,
// which /openapi.json shows); a test that sends or expects a documented example takes it from there
// instead of copying it.

/** The first documented example of a schema; fails when it has none. */
export function exampleOf(schema: object): Record<string, unknown> {
  const [example] = ((schema as { examples?: unknown[] }).examples ?? []) as Record<string, unknown>[];
  if (example === undefined) throw new Error('the schema documents no example');
  return example;
}
