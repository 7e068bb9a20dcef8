import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';

/**
 * A 400 names every field at fault, not the first: a client with seventeen missing fields should
 * not need seventeen round trips. Ajv's `allErrors` costs nothing on a valid body but keeps
 * checking an invalid one, so a hostile body (a megabyte of bad array items) would make millions
 * of error objects. Hence two validators per route part: the first-failure one (the only one a
 * valid request ever meets), and, compiled the first time a request fails, the every-error one,
 * run only on a body of at most MAX_EXPLAINED_VALUES values; a larger failing body gets the first
 * error alone. Larger legitimate bodies exist (500 tracking events), but they are valid or fail in
 * a way the first error explains.
 */
export const MAX_EXPLAINED_VALUES = 10_000;

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown;
  /** The first-failure check alone, without the every-error pass (the lenient routes check twice). */
  check?: (data: unknown) => boolean;
}
type RouteValidatorCompiler = (route: { schema: unknown; url: string; httpPart: string }) => ValidateFunction;

/** Whether `value` holds at most `budget` values (every node counts), without walking more than that. */
export function withinValues(value: unknown, budget = MAX_EXPLAINED_VALUES): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (--left < 0) return false;
    const next = stack.pop();
    if (next !== null && typeof next === 'object') {
      for (const child of Array.isArray(next) ? next : Object.values(next)) stack.push(child);
    }
  }
  return true;
}

/** Fastify's validator factory: each validator fails fast, then explains the failure in full. */
export function allErrorsFactory(build: BuildCompilerFromPool): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    const fast = build(externalSchemas, options) as unknown as RouteValidatorCompiler;
    const thoroughOptions = {
      ...options,
      customOptions: { ...options?.customOptions, allErrors: true },
    } as Parameters<BuildCompilerFromPool>[1];
    let thoroughCompiler: RouteValidatorCompiler | undefined;
    const compile: RouteValidatorCompiler = (route) => {
      const check = fast(route);
      let thorough: ValidateFunction | undefined;
      const validate: ValidateFunction = (data) => {
        if (check(data)) return true;
        validate.errors = check.errors;
        if (withinValues(data)) {
          thoroughCompiler ??= build(externalSchemas, thoroughOptions) as unknown as RouteValidatorCompiler;
          thorough ??= thoroughCompiler(route);
          thorough(data);
          validate.errors = thorough.errors;
        }
        return false;
      };
      validate.check = check;
      return validate;
    };
    return compile as unknown as ReturnType<BuildCompilerFromPool>;
  };
}
