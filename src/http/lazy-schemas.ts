import { createHash } from 'node:crypto';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from './all-errors.js';

/**
 * Compiling every route's validators (Ajv) and response serializers (fast-json-stringify) is most
 * of what building the app costs: about 1.5 s of CPU for some 200 routes, paid by every start and
 * by every test file, which uses a handful of them. So each one is compiled the first time it is
 * used, and `warm` compiles all that are still waiting: the server calls it once it listens (a few
 * at a time, between requests), and a test calls it to prove that every schema compiles.
 */
export class SchemaWarmer {
  private pending: (() => unknown)[] = [];

  /** Keeps a compilation to do later; it may already have been done by a request by then. */
  add(compile: () => unknown): void {
    this.pending.push(compile);
  }

  /** How many compilations have not been forced by `warm` yet. */
  get waiting(): number {
    return this.pending.length;
  }

  /**
   * Compiles waiting schemas, all of them or until `budgetMs` has passed; answers how many are left
   * and what the compilers threw (a schema that does not compile answers its route's requests with
   * a 500, so it is worth a log).
   */
  warm(budgetMs = Number.POSITIVE_INFINITY): { left: number; failures: unknown[] } {
    const failures: unknown[] = [];
    const until = performance.now() + budgetMs;
    while (this.pending.length > 0 && performance.now() < until) {
      try {
        this.pending.shift()!();
      } catch (error) {
        failures.push(error);
      }
    }
    return { left: this.pending.length, failures };
  }
}

type RouteValidatorCompiler = (route: unknown) => ValidateFunction;

/**
 * What each schema compiled to, for every app this process builds: a test worker builds one per
 * test file, and compiling the routes those files use again and again was a fifth of a worker's
 * CPU. A compiled function depends only on the compiler, its schema's content, the compiler's
 * options and the shared schemas references resolve against: one map per compiler, keyed by the
 * rest (route modules rebuild some schemas for each app, so the content, not the object, is the
 * key). The options' functions (Ajv's plugins, onCreate) are not in the key: server.ts's are module
 * constants, the same in every app.
 */
const compiledByCompiler = new WeakMap<object, Map<string, unknown>>();

/** What `compiler` made of the keyed schema, made once: each compiler (server.ts keeps one of each) has its own. */
function compiledOnce<T>(compiler: object, key: string, compile: () => T): T {
  let compiled = compiledByCompiler.get(compiler);
  if (!compiled) {
    compiled = new Map();
    compiledByCompiler.set(compiler, compiled);
  }
  if (!compiled.has(key)) compiled.set(key, compile());
  return compiled.get(key) as T;
}

const digest = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('base64');

/** A compiler's options and the shared schemas it resolves references against. */
const compilerKey = (externalSchemas: unknown, options: unknown) => digest([externalSchemas, options]);

type RouteParts = { schema?: unknown; httpPart?: string; httpStatus?: string; contentType?: string };

/** Fastify's validator factory, each validator compiled on its first request. */
export function lazyValidatorFactory(build: BuildCompilerFromPool, warmer: SchemaWarmer): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    let compileRoute: RouteValidatorCompiler | undefined;
    const key = compilerKey(externalSchemas, options);
    const lazyCompile: RouteValidatorCompiler = (route) => {
      let compiled: ValidateFunction | undefined;
      const { schema, httpPart } = route as RouteParts;
      const ensure = () => {
        compiled ??= compiledOnce(build, `${key} ${httpPart} ${digest(schema)}`, () => {
          compileRoute ??= build(externalSchemas, options) as unknown as RouteValidatorCompiler;
          return compileRoute(route);
        });
        return compiled;
      };
      // The wrappers above read `errors` from the function they called, as Ajv's callers do.
      const validate: ValidateFunction = (data) => {
        const check = ensure();
        const valid = check(data);
        validate.errors = check.errors;
        return valid;
      };
      warmer.add(ensure);
      return validate;
    };
    return lazyCompile as unknown as ReturnType<BuildCompilerFromPool>;
  };
}

/** Fastify's serializer factory, each response serializer compiled on its first reply. */
export function lazySerializerFactory(build: SerializerFactory, warmer: SchemaWarmer): SerializerFactory {
  return (externalSchemas, options) => {
    let compileRoute: ReturnType<SerializerFactory> | undefined;
    const key = compilerKey(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      const { schema, httpStatus, contentType } = route as RouteParts;
      const ensure = () => {
        serialize ??= compiledOnce(build, `${key} ${httpStatus} ${contentType} ${digest(schema)}`, () => {
          compileRoute ??= build(externalSchemas, options);
          return compileRoute(route);
        });
        return serialize;
      };
      warmer.add(ensure);
      return (doc: unknown) => ensure()(doc);
    };
  };
}

/**
 * Compiles the waiting schemas in slices of a few milliseconds, each slice after the I/O already
 * waiting (a request's headers, a signal), so that warming up never holds a request back by more
 * than about one slice. `onDone` hears how many were compiled and the CPU they took: benchmarks wait
 * for it, since a measurement taken while it runs times the compilers, not the requests.
 */
export function warmInBackground(
  warmer: SchemaWarmer,
  onFailure: (error: unknown) => void,
  onDone: (compiled: number, cpuMs: number) => void = () => {},
  sliceMs = 5,
): void {
  const total = warmer.waiting;
  let cpuMs = 0;
  const step = () => {
    const sliceStart = performance.now();
    const { left, failures } = warmer.warm(sliceMs);
    cpuMs += performance.now() - sliceStart;
    for (const failure of failures) onFailure(failure);
    if (left > 0) setImmediate(step);
    else onDone(total, cpuMs);
  };
  setImmediate(step);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's schemas still to compile (createHttpServer). */
    schemaWarmer: SchemaWarmer;
  }
}
