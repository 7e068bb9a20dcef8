import type { KeywordDefinition } from 'ajv';
import prefixItemsModule from 'ajv/dist/vocabularies/applicator/prefixItems.js';
import { type Static, type TSchema, type TSchemaOptions, Type } from 'typebox';

/**
 * A fixed-length array written as JSON Schema 2020-12 has it (`prefixItems`), which is what an
 * OpenAPI 3.1 document must contain. TypeBox's own Tuple still writes draft-04's `items: [...]`.
 */
export function Tuple<const T extends TSchema[]>(items: [...T], options: TSchemaOptions = {}) {
  return Type.Unsafe<{ [K in keyof T]: Static<T[K]> }>({
    ...options,
    type: 'array',
    prefixItems: items,
    minItems: items.length,
    maxItems: items.length,
  });
}

/**
 * Fastify's Ajv speaks draft-07, which has no `prefixItems`: Ajv's own 2020-12 implementation of
 * the keyword, added to it, validates each position (and reports the position's own errors).
 */
// A CommonJS module: Node hands its exports object as the default import, some loaders its `default`.
const loaded = prefixItemsModule as unknown as KeywordDefinition & { default?: KeywordDefinition };
export const prefixItems: KeywordDefinition = loaded.default ?? loaded;
