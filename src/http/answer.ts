import type { TSchema } from 'typebox';

/**
 * A route's answer as OpenAPI shows it: the schema, what the answer means in words (else Swagger
 * says "Default Response") and a hand-written example (else Swagger UI invents one from the
 * patterns). Shared schemas stay as they are; each route gets its own copy with its own words.
 */
export function answer<T extends TSchema>(schema: T, description: string, ...examples: unknown[]): T {
  return { ...schema, description, ...(examples.length > 0 && { examples }) } as T;
}
