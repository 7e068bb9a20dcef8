import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ValidateFunction } from './all-errors.js';
import { nearestName } from './nearest-name.js';
import { addUnknownFieldWarnings, type IgnoredField, MAX_NAME_CHARS, MAX_NAMED } from './unknown-fields.js';

/**
 * Velocity's API ignores fields it does not know and takes numbers written as strings and strings
 * written as numbers; its own samples rely on both. On the routes under LENIENT_PREFIX a body is
 * first checked as it came. Only when that fails is it reshaped, once, against its schema:
 * unknown fields are dropped (and named back to the caller in IGNORED_FIELDS_HEADER), a plain
 * decimal string becomes the number a field expects, a number becomes the string a field
 * expects, "true"/"false" become booleans, and "" for an optional field that takes no text is
 * taken as absent. Then it is checked again, as strictly as before, so a
 * wrong value is still a 400 naming its field. A body that was right to begin with costs nothing.
 */
export const LENIENT_PREFIX = '/custom/api/v1/';
export const IGNORED_FIELDS_HEADER = 'dakiya-ignored-fields';
/** Past this many characters, the rest of the names are counted, so junk cannot make an oversized header. */
const MAX_HEADER_CHARS = 1024;

const IGNORED = Symbol('ignoredFields');
const DECIMAL = /^-?\d{1,20}(?:\.\d{1,20})?$/;

type Schema = Record<string, unknown>;
// What Fastify really passes a compiler (its published types say a bare schema).
type RouteValidatorCompiler = (route: { schema: Schema; url: string; httpPart: string }) => ValidateFunction;

/** Fastify's validator factory, with the body validators of lenient routes wrapped. */
export function lenientValidatorFactory(buildDefault: BuildCompilerFromPool): BuildCompilerFromPool {
  return (externalSchemas, options) => {
    const compile = buildDefault(externalSchemas, options) as unknown as RouteValidatorCompiler;
    const lenientCompile: RouteValidatorCompiler = (route) => {
      const strict = compile(route);
      if (route.httpPart !== 'body' || !route.url.startsWith(LENIENT_PREFIX)) return strict;
      return lenientValidator(strict, route.schema);
    };
    return lenientCompile as unknown as ReturnType<BuildCompilerFromPool>;
  };
}

function lenientValidator(strict: ValidateFunction, schema: Schema): ValidateFunction {
  // The body as sent is checked without explaining a failure: only the reshaped body's is reported.
  const check = strict.check ?? strict;
  const validate: ValidateFunction = (data) => {
    if (check(data)) return true;
    const ignored: IgnoredField[] = [];
    normalise(data, schema, '', ignored);
    if (ignored.length > 0 && data !== null && typeof data === 'object') {
      Object.defineProperty(data, IGNORED, { value: ignored, enumerable: false });
    }
    const valid = strict(data);
    validate.errors = strict.errors;
    return valid;
  };
  return validate;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The JSON types a schema (or any branch of its union) accepts. */
function acceptedTypes(schema: Schema): Set<string> {
  const types = new Set<string>();
  const add = (s: Schema) => {
    const type = s.type;
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type)) for (const t of type) types.add(String(t));
    for (const value of [...((s.enum as unknown[]) ?? []), ...('const' in s ? [s.const] : [])])
      types.add(jsonType(value));
    for (const branch of (s.anyOf as Schema[] | undefined) ?? []) add(branch);
  };
  add(schema);
  if (types.has('integer')) types.add('number');
  return types;
}

/** The branch of a schema that describes a value of this JSON type (a union picks its first fit). */
function branchFor(schema: Schema, type: 'object' | 'array'): Schema | undefined {
  if (schema.type === type) return schema;
  for (const branch of (schema.anyOf as Schema[] | undefined) ?? []) {
    const found = branchFor(branch, type);
    if (found) return found;
  }
  return undefined;
}

function coercePrimitive(value: unknown, types: Set<string>): unknown {
  if (types.has(jsonType(value))) return value;
  if (typeof value === 'string') {
    if (types.has('number') && DECIMAL.test(value)) return Number(value);
    if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  }
  if (typeof value === 'number' && types.has('string') && DECIMAL.test(String(value))) return String(value);
  return value;
}

/** Reshapes `value` in place where it can (objects, arrays) and returns the value to keep. */
function normalise(value: unknown, schema: Schema, path: string, ignored: IgnoredField[]): unknown {
  if (isObject(value)) {
    const objectSchema = branchFor(schema, 'object');
    if (!objectSchema) return value;
    const properties = (objectSchema.properties as Record<string, Schema> | undefined) ?? {};
    const required = (objectSchema.required as string[] | undefined) ?? [];
    for (const key of Object.keys(value)) {
      const child = path ? `${path}.${key}` : key;
      if (Object.hasOwn(properties, key)) {
        // Velocity clients send "" for an optional number they do not have (`"discount": ""`): it is absent.
        if (value[key] === '' && !required.includes(key) && !acceptedTypes(properties[key]!).has('string'))
          delete value[key];
        else value[key] = normalise(value[key], properties[key]!, child, ignored);
      } else if (objectSchema.additionalProperties === false) {
        delete value[key];
        const nearest = nearestName(key, Object.keys(properties));
        ignored.push(
          nearest === undefined ? { path: child } : { path: child, nearest: path ? `${path}.${nearest}` : nearest },
        );
      }
    }
    return value;
  }
  if (Array.isArray(value)) {
    const arraySchema = branchFor(schema, 'array');
    if (!arraySchema) return value;
    const tuple = (arraySchema.prefixItems ?? (Array.isArray(arraySchema.items) ? arraySchema.items : undefined)) as
      | Schema[]
      | undefined;
    const items = Array.isArray(arraySchema.items) ? undefined : (arraySchema.items as Schema | undefined);
    for (let i = 0; i < value.length; i++) {
      const itemSchema = tuple ? tuple[i] : items;
      if (itemSchema && typeof itemSchema === 'object')
        value[i] = normalise(value[i], itemSchema, `${path}.${i}`, ignored);
    }
    return value;
  }
  return coercePrimitive(value, acceptedTypes(schema));
}

/** Header-safe: a field name is the caller's text, so anything but plain characters is percent-encoded. */
function headerName(name: string): string {
  const short = name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}...` : name;
  // toWellFormed: a lone surrogate would make encodeURIComponent throw.
  return /^[\w.[\]-]+$/.test(short) ? short : encodeURIComponent(short.toWellFormed());
}

export function ignoredFieldsHeader(ignored: readonly IgnoredField[]): string {
  let header = '';
  let named = 0;
  for (const { path: name } of ignored.slice(0, MAX_NAMED)) {
    const next = header ? `${header}, ${headerName(name)}` : headerName(name);
    if (next.length > MAX_HEADER_CHARS) break;
    header = next;
    named++;
  }
  return named < ignored.length ? `${header}, ... (${ignored.length - named} more)` : header;
}

/** The body's ignored fields, when the validator dropped any. */
export function ignoredFields(body: unknown): IgnoredField[] | undefined {
  return isObject(body) ? (body as { [IGNORED]?: IgnoredField[] })[IGNORED] : undefined;
}

/** Sets the ignored-fields header when the body had any; the error handler calls it too. */
export function reportIgnoredFields(request: FastifyRequest, reply: FastifyReply): void {
  const ignored = ignoredFields(request.body);
  if (ignored) reply.header(IGNORED_FIELDS_HEADER, ignoredFieldsHeader(ignored));
}

/**
 * Names the ignored fields on every answer of a lenient route that takes a body: the handler is
 * wrapped (a hook would cost every request of the busiest routes a hook run), and the error
 * handler covers answers that never reach it. A success names them in its body's `warnings` too.
 */
export function installIgnoredFieldsHeader(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(LENIENT_PREFIX) || !route.schema?.body) return;
    addUnknownFieldWarnings(route, (request) => ignoredFields(request.body));
    const handler = route.handler;
    route.handler = function reportingIgnoredFields(this: FastifyInstance, request, reply) {
      reportIgnoredFields(request, reply);
      return handler.call(this, request, reply);
    };
  });
}

type OpenApiDocument = {
  paths?: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: unknown }> };
        responses?: Record<string, { headers?: Record<string, unknown> }>;
      }
    >
  >;
  components?: Record<string, unknown>;
};

/**
 * A lenient route's body schema as the document shows it: without `additionalProperties: false`,
 * since an unknown field is ignored and named, not refused. The validators keep it (it is how the
 * strict check finds the fields to drop), so the document gets copies; the route's own objects,
 * which normalise() reads, are left as they are.
 */
function allowingUnknownFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowingUnknownFields);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    // Property names and examples are data, not schemas: only the keywords that hold schemas are followed.
    if (key === 'properties' && value !== null && typeof value === 'object') {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, allowingUnknownFields(property)]),
      );
    } else if (['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'then', 'else', 'if', 'not'].includes(key)) {
      copy[key] = allowingUnknownFields(value);
    } else {
      copy[key] = value;
    }
  }
  return copy;
}

/**
 * OpenAPI: every answer of a lenient route that takes a body may carry the ignored-fields header,
 * and its body schema admits unknown fields.
 */
export function documentIgnoredFieldsHeader(document: OpenApiDocument): OpenApiDocument {
  document.components ??= {};
  const components = document.components;
  components.headers = {
    ...(components.headers as object | undefined),
    IgnoredFields: {
      description:
        'The body fields this route does not know, which were ignored (not stored, not checked), as dotted paths ' +
        'separated by ", " (e.g. "idempotency_key, order_items.0.colour"). Absent when nothing was ignored. Names ' +
        `with characters other than letters, digits and . _ [ ] - are percent-encoded; past ${MAX_NAMED} names the ` +
        'rest are counted ("... (N more)").',
      schema: { type: 'string' },
      example: 'idempotency_key, order_items.0.colour',
    },
  };
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(LENIENT_PREFIX)) continue;
    for (const operation of Object.values(operations)) {
      if (!operation.requestBody) continue;
      for (const media of Object.values(operation.requestBody.content ?? {}))
        media.schema = allowingUnknownFields(media.schema);
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          'Dakiya-Ignored-Fields': { $ref: '#/components/headers/IgnoredFields' },
        };
      }
    }
  }
  return document;
}
