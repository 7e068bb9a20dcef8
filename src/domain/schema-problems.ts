import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { DomainError, type FieldError } from './errors.js';

/**
 * What a body breaks of a route's schema, in the words the route's own validation uses, for a body
 * a use case receives from another module rather than from a request (a store's order, an
 * exchange's two legs): every field at fault, a missing one named itself rather than its parent.
 */
export function schemaProblems(schema: TSchema, body: unknown): FieldError[] {
  return [...Value.Errors(schema, body)].flatMap((error) => {
    const path = error.instancePath.split('/').filter(Boolean);
    const missing =
      error.keyword === 'required' ? (error.params as { requiredProperties?: unknown }).requiredProperties : undefined;
    if (Array.isArray(missing) && missing.length > 0)
      return missing.map((name) => {
        const field = [...path, String(name)].join('.');
        return { field, message: `${field} is required` };
      });
    const field = path.join('.') || 'body';
    return [{ field, message: `${field} ${error.message}` }];
  });
}

/** Refuses a body that breaks `schema`, naming every field at fault, as the route's validation would (a 400). */
export function requireSchema(schema: TSchema, body: unknown): void {
  const problems = schemaProblems(schema, body);
  if (problems.length > 0)
    throw new DomainError(
      'invalid',
      problems.map((problem) => problem.message),
      problems,
    );
}
