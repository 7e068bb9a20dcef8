import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { ValidateFunction } from './all-errors.js';

/**
 * PostgreSQL cannot store NUL in text, and a lone UTF-16 surrogate has no UTF-8 form: either one
 * reaching a query is a 500, and neither is ever meaningful in a name, an address or an id. So
 * every string value a route takes (JSON and multipart bodies, query strings, path parameters and
 * headers alike) is checked here, in the validator of each part, before its schema: one rule for
 * every route, answered as a 400 naming each field at fault. Keys are not values: a known key is
 * clean, and an unknown one is refused, or ignored and named percent-encoded on the lenient routes.
 */
export const TEXT_KEYWORD = 'wellFormedText';
export const TEXT_ERROR = 'must not contain NUL characters or unpaired UTF-16 surrogates';
/** Past this many, the rest of a hostile body's fields are not worth naming. */
const MAX_REPORTED = 20;

type RouteValidatorCompiler = (route: { schema: unknown; url: string; httpPart: string }) => ValidateFunction;

const NONE: readonly string[] = [];

const isBadText = (text: string) => text.includes('\u0000') || !text.isWellFormed();

/**
 * Whether any string in `value` is bad. Every request's body and headers are walked, and nearly all
 * are clean: this walk builds no paths. Both walks use a stack
 * of their own rather than recursion: a body's depth is bounded (http/json-body.ts), but a walk
 * that cannot overflow needs no such promise.
 */
function hasBadText(value: unknown): boolean {
  if (typeof value === 'string') return isBadText(value);
  if (value === null || typeof value !== 'object') return false;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (badOrKept(node[i], pending)) return true;
    } else {
      for (const key in node)
        if (Object.hasOwn(node, key) && badOrKept((node as Record<string, unknown>)[key], pending)) return true;
    }
  }
  return false;
}

/** Whether `child` is bad text; a container is kept in `pending` for later. (Not a closure: no function made per walk.) */
function badOrKept(child: unknown, pending: object[]): boolean {
  if (typeof child === 'string') return isBadText(child);
  if (child !== null && typeof child === 'object') pending.push(child);
  return false;
}

const pointerSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** JSON pointers (Ajv's instancePath) of every bad string in `value`, in document order. */
export function badTextPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0 && found.length < MAX_REPORTED) {
    const { value: node, path } = pending.pop()!;
    if (typeof node === 'string') {
      if (isBadText(node)) found.push(path);
    } else if (node !== null && typeof node === 'object') {
      const keys = Array.isArray(node) ? node.map((_, i) => String(i)) : Object.keys(node);
      // Pushed last to first, so the first child is taken next.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        pending.push({ value: (node as Record<string, unknown>)[key], path: `${path}/${pointerSegment(key)}` });
      }
    }
  }
  return found;
}

/** Fastify's validator factory, with every validator of every route part checking text first. */
export function wellFormedTextFactory(build: BuildCompilerFromPool): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options) as unknown as RouteValidatorCompiler;
    const checkingCompile: RouteValidatorCompiler = (route) => {
      const validate = compile(route);
      const checked: ValidateFunction = (data) => {
        // Clean text (nearly every request) makes no list of paths.
        const bad = hasBadText(data) ? badTextPaths(data) : NONE;
        const valid = validate(data);
        if (bad.length === 0) {
          checked.errors = validate.errors;
          return valid;
        }
        // Every problem at once: the bad text, and the schema's complaints about other fields (a
        // value with bad text in it is not also told it breaks its pattern).
        const within = (path: string) => bad.some((b) => path === b || path.startsWith(`${b}/`));
        const others = valid
          ? []
          : ((validate.errors ?? []) as { instancePath: string }[]).filter((e) => !within(e.instancePath));
        checked.errors = [
          ...bad.map((instancePath) => ({ keyword: TEXT_KEYWORD, instancePath, message: TEXT_ERROR, params: {} })),
          ...others,
        ];
        return false;
      };
      return checked;
    };
    return checkingCompile as unknown as ReturnType<BuildCompilerFromPool>;
  };
}
