import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { lazySerializerFactory, lazyValidatorFactory, SchemaWarmer } from './lazy-schemas.js';

// Every app a process builds (a test worker builds one per file) shares what a schema compiled
// to, as long as the schema's content, the compiler's options and the shared schemas agree.

/** A compiler that counts its compilations; each validator accepts what has a `name`. */
function countingValidatorCompiler() {
  const compiled: unknown[] = [];
  const build = (() => (route: { schema: unknown }) => {
    compiled.push(route.schema);
    return (data: { name?: unknown }) => data.name !== undefined;
  }) as unknown as BuildCompilerFromPool;
  return { build, compiled };
}

type Validate = (route: object) => (data: unknown) => boolean;
const validatorOf = (factory: BuildCompilerFromPool, shared: object, options: object, route: object) =>
  (factory(shared as never, options as never) as unknown as Validate)(route);

const uniqueName = (suffix: string) => ({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', description: `lazy-schemas.unit.test: ${suffix}` } },
});

describe('compiled validators', () => {
  it('are compiled once for every app whose schema, options and shared schemas agree', () => {
    const { build, compiled } = countingValidatorCompiler();
    const schema = uniqueName('agree');
    for (let app = 0; app < 3; app++) {
      // Each app builds its schema object anew, as some route modules do.
      const validate = validatorOf(
        lazyValidatorFactory(build, new SchemaWarmer()),
        {},
        { x: 1 },
        {
          schema: structuredClone(schema),
          httpPart: 'body',
        },
      );
      expect([validate({ name: 'a' }), validate({})]).toEqual([true, false]);
    }
    expect(compiled).toHaveLength(1);
  });

  it('are compiled again when the options, the shared schemas, the part or the schema differ', () => {
    const { build, compiled } = countingValidatorCompiler();
    const schema = uniqueName('differ');
    const cases: [object, object, string, object][] = [
      [{}, { x: 1 }, 'body', schema],
      [{}, { x: 2 }, 'body', schema],
      [{ Store: { $id: 'Store', type: 'object' } }, { x: 1 }, 'body', schema],
      [{}, { x: 1 }, 'querystring', schema],
      [{}, { x: 1 }, 'body', uniqueName('other')],
    ];
    for (const [shared, options, httpPart, routeSchema] of cases)
      validatorOf(lazyValidatorFactory(build, new SchemaWarmer()), shared, options, { schema: routeSchema, httpPart })({
        name: 'a',
      });
    expect(compiled).toHaveLength(cases.length);
  });
});

describe('compiled serializers', () => {
  it('are compiled once per schema, status and content type for every app', () => {
    const compiled: unknown[] = [];
    const build = (() => (route: { schema: unknown }) => {
      compiled.push(route.schema);
      return (doc: unknown) => JSON.stringify(doc);
    }) as unknown as SerializerFactory;
    const schema = uniqueName('serializer');
    const serialize = (httpStatus: string) =>
      (
        lazySerializerFactory(build, new SchemaWarmer())({}, {}) as unknown as (route: object) => (d: unknown) => string
      )({ schema: structuredClone(schema), httpStatus, contentType: 'application/json' });
    expect([serialize('200')({ name: 'a' }), serialize('200')({ name: 'b' })]).toEqual([
      '{"name":"a"}',
      '{"name":"b"}',
    ]);
    serialize('201')({ name: 'c' });
    expect(compiled).toHaveLength(2);
  });
});
