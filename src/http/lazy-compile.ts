import { createRequire } from 'node:module';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { ValidateFunction } from './all-errors.js';

/**
 * Every route's validators and response serializers are compiled the first time a request needs
 * them, not at start-up: Fastify compiles them all in `ready()` (a GET route's twice, for HEAD),
 * and on a 2-core machine that was most of a start's CPU (issue 28: a later start under 5 s), for
 * routes a given process may never serve. A compiled function is kept, so each route part pays
 * once. `compileAll()` compiles whatever is still waiting: the tests call it, so a schema that
 * cannot compile fails there rather than as a route's first 500.
 */
export interface LazySchemas {
  validators: (build: BuildCompilerFromPool) => BuildCompilerFromPool;
  serializers: () => SerializerFactory;
  compileAll(): void;
}

type RouteValidatorCompiler = (route: { schema: unknown; url: string; httpPart: string }) => ValidateFunction;
type Serialize = (data: unknown) => string;
type RouteSerializerCompiler = (route: { schema: unknown; method: string; url: string; httpStatus: string }) => Serialize;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => RouteSerializerCompiler;

/** The serializer factory Fastify uses when given none, resolved from Fastify's own dependencies. */
function fastifySerializers(): SerializerFactory {
  const fromHere = createRequire(import.meta.url);
  const selector = createRequire(fromHere.resolve('fastify'))('@fastify/fast-json-stringify-compiler') as () => SerializerFactory;
  return selector();
}

export function lazySchemas(): LazySchemas {
  const waiting = new Set<() => void>();
  return {
    validators: (build) => (externalSchemas, options) => {
      let compiler: RouteValidatorCompiler | undefined;
      const compile: RouteValidatorCompiler = (route) => {
        let validate: ValidateFunction | undefined;
        const ensure = () => {
          if (validate) return validate;
          compiler ??= build(externalSchemas, options) as unknown as RouteValidatorCompiler;
          validate = compiler(route);
          waiting.delete(ensure);
          return validate;
        };
        waiting.add(ensure);
        const lazy: ValidateFunction = (data) => {
          const compiled = ensure();
          const valid = compiled(data);
          lazy.errors = compiled.errors;
          return valid;
        };
        return lazy;
      };
      return compile as unknown as ReturnType<BuildCompilerFromPool>;
    },
    serializers: () => {
      const factory = fastifySerializers();
      return (externalSchemas, options) => {
        let compiler: RouteSerializerCompiler | undefined;
        return (route) => {
          let serialize: Serialize | undefined;
          const ensure = () => {
            if (serialize) return serialize;
            compiler ??= factory(externalSchemas, options);
            serialize = compiler(route);
            waiting.delete(ensure);
            return serialize;
          };
          waiting.add(ensure);
          return (data) => ensure()(data);
        };
      };
    },
    compileAll() {
      for (const ensure of [...waiting]) ensure();
    },
  };
}
