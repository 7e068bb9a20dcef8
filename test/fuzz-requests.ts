import fc from 'fast-check';
import { BOUNDARY } from './kit/uploads.js';

// Requests generated from the operations of /openapi.json: mostly well-formed, so that they get
// past validation into the services and the database, and some with a hostile value somewhere.

export type Schema = { [key: string]: unknown };

export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  security?: Record<string, string[]>[];
}

/** What exists in the fuzzed account, so that some requests name real rows and reach the database. */
export interface Known {
  /** Values worth trying, by body, query or header field name. */
  fields: Record<string, unknown[]>;
  /**
   * Path parameter values, by `<path template> <name>`; and query values of one operation, by
   * `<METHOD> <path template> <name>`, where a field name means another thing there (`state`).
   */
  params: Record<string, unknown[]>;
  /** The Authorization header for each security scheme. */
  credentials: Record<string, string>;
  /** The Authorization header of an operation that needs another credential of its scheme, by `<METHOD> <path template>`. */
  operationCredentials: Record<string, string>;
  /** Bodies the operation accepts, by `<METHOD> <path template>`, to be sent with one field off. */
  bodies: Record<string, unknown[]>;
  /** Applied to each JSON body as it is sent (fresh order ids, so that one-off bodies are not all duplicates). */
  fresh(body: unknown): unknown;
}

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Short, printable description for failure messages. */
  summary: string;
}

const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udbff\udbff',
  '',
  ' ',
  '\t\r\n',
  'x'.repeat(5000),
  "' or 1=1 --",
  '%00',
  '../../etc/passwd',
  '\u202e',
  '💥',
  '0',
  '-1',
  '1e400',
  'NaN',
  'null',
  'true',
  '2026-02-30',
  '99999-12-31T00:00:00Z',
];
const NASTY_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  1e-300,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  2 ** 63,
  1e15,
  1e16,
  1e21,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];
const WRONG_TYPES = [null, true, false, [], {}, [1, 'a'], { a: { b: [] } }];

/** A string with a NUL or a lone surrogate slipped in somewhere. */
const corrupted = (s: string) =>
  fc
    .tuple(fc.nat(s.length), fc.constantFrom('\u0000', '\ud800', '\udc00'))
    .map(([i, c]) => s.slice(0, i) + c + s.slice(i));

function hostile(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.constantFrom(...WRONG_TYPES),
    fc.integer(),
    fc.double(),
    valid.chain((v) => (typeof v === 'string' ? corrupted(v) : fc.constant(v))),
  );
}

interface Generation {
  doc: OpenApiDocument;
  known: Known;
  /** Weight of a hostile value at each node against 12 for a fitting one; 0 for clean requests. */
  hostility: number;
}

function deref(schema: Schema, doc: OpenApiDocument): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return deref(doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? {}, doc);
}

function fromPattern(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return undefined;
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc
        .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
  }
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Math.min(Number(schema.maxLength ?? 40), Math.max(minLength, 60));
  const plain = fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
  const matching = typeof schema.pattern === 'string' ? fromPattern(schema.pattern) : undefined;
  return matching ? fc.oneof({ arbitrary: matching, weight: 4 }, { arbitrary: plain, weight: 1 }) : plain;
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const lower = (schema.exclusiveMinimum ?? schema.minimum) as number | undefined;
  const upper = (schema.exclusiveMaximum ?? schema.maximum) as number | undefined;
  if (integer) {
    const min =
      lower === undefined
        ? Number.MIN_SAFE_INTEGER
        : Math.ceil(lower) + (schema.exclusiveMinimum === undefined ? 0 : 1);
    const max =
      upper === undefined
        ? Number.MAX_SAFE_INTEGER
        : Math.floor(upper) - (schema.exclusiveMaximum === undefined ? 0 : 1);
    return fc.integer({ min, max: Math.max(min, max) });
  }
  return fc.double({
    min: lower ?? -1e308,
    max: upper ?? 1e308,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectOf(schema: Schema, g: Generation): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, valueFor(child, g, key)])),
    { requiredKeys: required.filter((key) => key in properties) },
  ) as fc.Arbitrary<Record<string, unknown>>;
  if (g.hostility === 0) return record;
  const rarely = <T>(arbitrary: fc.Arbitrary<T>) =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, { arbitrary, weight: g.hostility });
  return fc
    .tuple(
      record,
      rarely(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }))),
      rarely(fc.nat()),
    )
    .map(([value, extra, drop]) => {
      const out = { ...value };
      if (extra)
        Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      if (drop !== undefined && required.length > 0) delete out[required[drop % required.length]!];
      return out;
    });
}

function arrayOf(schema: Schema, g: Generation, name?: string): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.prefixItems))
    return fc.tuple(...(schema.prefixItems as Schema[]).map((item) => valueFor(item, g, name)));
  const minLength = Number(schema.minItems ?? 0);
  const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 3), 3));
  return fc.array(valueFor((schema.items as Schema | undefined) ?? {}, g, name), { minLength, maxLength });
}

/** Values that fit the schema (as far as a generator can tell), without the hostile ones. */
function fitting(schema: Schema, g: Generation, name?: string): fc.Arbitrary<unknown> {
  const s = deref(schema, g.doc);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => fitting(branch, g, name)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string | undefined];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringOf(s);
        case 'integer':
        case 'number':
          return numberOf(s, type === 'integer');
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return arrayOf(s, g, name);
        case 'object':
          return objectOf(s, g);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

/** A value for the field `name`: a known one sometimes, else one from its schema, rarely a hostile one. */
function valueFor(
  schema: Schema,
  g: Generation,
  name?: string,
  known = name ? g.known.fields[name] : undefined,
): fc.Arbitrary<unknown> {
  const own = fitting(schema, g, name);
  const fits = known?.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 2 }, { arbitrary: own, weight: 1 })
    : own;
  if (g.hostility === 0) return fits;
  return fc.oneof({ arbitrary: fits, weight: 12 }, { arbitrary: hostile(fits), weight: g.hostility });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * An accepted value with one thing changed somewhere inside it: a field replaced by another value
 * of its schema or a hostile one, removed, or a field added. Gets one bad value deep into a route.
 */
function oneOff(value: unknown, schema: Schema, g: Generation, name?: string): fc.Arbitrary<unknown> {
  const s = deref(schema, g.doc);
  const replaced = fc.oneof(fitting(s, g, name), hostile(fitting(s, g, name)));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const objectSchema = isRecord(value) ? (branches?.find((b) => deref(b, g.doc).type === 'object') ?? s) : undefined;
  if (isRecord(value) && objectSchema) {
    const properties = (deref(objectSchema, g.doc).properties as Record<string, Schema> | undefined) ?? {};
    const keys = Object.keys(properties);
    if (keys.length === 0) return replaced;
    return fc.oneof(
      {
        arbitrary: fc.constantFrom(...keys).chain((key) =>
          fc.oneof(
            {
              arbitrary: oneOff(value[key], properties[key]!, g, key).map((child) => ({ ...value, [key]: child })),
              weight: 6,
            },
            {
              arbitrary: fc.constant(Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))),
              weight: 1,
            },
          ),
        ),
        weight: 8,
      },
      {
        arbitrary: fc
          .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }))
          .map(([k, v]) => ({ ...value, [k]: v })),
        weight: 1,
      },
    );
  }
  const arraySchema = Array.isArray(value) ? (branches?.find((b) => deref(b, g.doc).type === 'array') ?? s) : undefined;
  if (Array.isArray(value) && value.length > 0 && arraySchema) {
    const a = deref(arraySchema, g.doc);
    const itemSchema = (i: number) =>
      (a.prefixItems as Schema[] | undefined)?.[i] ?? (a.items as Schema | undefined) ?? {};
    return fc.oneof(
      {
        arbitrary: fc
          .nat(value.length - 1)
          .chain((i) =>
            oneOff(value[i], itemSchema(i), g, name).map((item) => value.map((v, j) => (j === i ? item : v))),
          ),
        weight: 4,
      },
      { arbitrary: replaced, weight: 1 },
    );
  }
  return replaced;
}

/**
 * Percent-encodes any JS string as a client would send it: UTF-8, and a lone surrogate as the
 * three bytes WTF-8 gives it (encodeURIComponent would throw).
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (/^[A-Za-z0-9\-_.~]$/.test(char)) out += char;
    else for (const byte of wtf8(code)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function wtf8(code: number): number[] {
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 63)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function multipartPayload(fields: Record<string, unknown>): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const file = name === 'logo' && typeof value === 'string';
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"${file ? '; filename="logo.png"\r\nContent-Type: image/png' : ''}\r\n\r\n`;
    chunks.push(
      Buffer.from(head),
      file ? Buffer.from(value, 'base64') : Buffer.from(wtf8String(asText(value))),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const wtf8String = (text: string) => Uint8Array.from([...text].flatMap((char) => wtf8(char.codePointAt(0)!)));

/** Node refuses control characters in header values before any route sees them: keep to what it would pass on. */
const headerSafe = (value: unknown) => asText(value).replace(/[^\x20-\x7e]/g, '?');

function bodyOf(
  op: Operation,
  g: Generation,
  accepted: unknown[],
): fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'headers'> & { body: string }> {
  const content = op.requestBody?.content ?? {};
  const encodings: fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'headers'> & { body: string }>[] = [];
  const json = content['application/json'];
  if (json) {
    const values =
      accepted.length > 0
        ? fc.constantFrom(...accepted).chain((body) => oneOff(body, json.schema, g))
        : valueFor(json.schema, g);
    encodings.push(
      values
        .map((value) => g.known.fresh(value))
        .map((value) => ({
          payload: JSON.stringify(value),
          headers: { 'content-type': 'application/json' },
          body: `json ${JSON.stringify(value).slice(0, 2000)}`,
        })),
    );
  }
  const form = content['multipart/form-data'];
  if (form) {
    encodings.push(
      valueFor(form.schema, g).map((value) => {
        const fields =
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? (value as Record<string, unknown>)
            : { value };
        return {
          payload: multipartPayload(fields),
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          body: `multipart ${JSON.stringify(fields).slice(0, 400)}`,
        };
      }),
    );
  }
  if (g.hostility > 0) {
    encodings.push(
      fc.constantFrom(
        { payload: '{"a":', headers: { 'content-type': 'application/json' }, body: 'malformed JSON' },
        { payload: '', headers: { 'content-type': 'application/json' }, body: 'empty JSON body' },
        { payload: 'store_name=x', headers: { 'content-type': 'text/plain' }, body: 'text/plain' },
        { payload: '[]', headers: { 'content-type': 'application/json' }, body: 'JSON array' },
      ),
    );
  }
  return fc.oneof(...encodings);
}

function requestOf(
  path: string,
  method: string,
  op: Operation,
  g: Generation,
  accepted: unknown[] = [],
): fc.Arbitrary<FuzzRequest> {
  const parameters = op.parameters ?? [];
  const params = parameters.filter((p) => p.in === 'path');
  const query = parameters.filter((p) => p.in === 'query');
  const headers = parameters.filter((p) => p.in === 'header');
  const overLong = fc.string({ minLength: 101, maxLength: 300, unit: 'grapheme-ascii' });
  const paramValue = (p: Parameter) => {
    // A method's own values first (DELETE gets a resource of its own, so the others keep theirs).
    const known = g.known.params[`${method.toUpperCase()} ${path} ${p.name}`] ?? g.known.params[`${path} ${p.name}`];
    const value = valueFor(p.schema, g, p.name, known);
    return g.hostility === 0
      ? value
      : fc.oneof({ arbitrary: value, weight: 12 }, { arbitrary: overLong, weight: g.hostility });
  };
  const optional = (p: Parameter, value: fc.Arbitrary<unknown>) =>
    p.required ? value : fc.oneof(fc.constant(undefined), value);
  const requirement = op.security ?? g.doc.security ?? [];
  const scheme = Object.keys(requirement[0] ?? {})[0];
  const credential =
    g.known.operationCredentials[`${method.toUpperCase()} ${path}`] ??
    (scheme ? g.known.credentials[scheme] : undefined);
  const authorization =
    credential === undefined
      ? fc.constant(undefined)
      : g.hostility === 0
        ? fc.constant(credential)
        : fc.oneof(
            { arbitrary: fc.constant(credential), weight: 12 },
            fc.constantFrom(undefined, 'Bearer nope', `${credential}x`),
          );
  return fc
    .record({
      params: fc.tuple(...params.map(paramValue)),
      query: fc.tuple(
        ...query.map((p) =>
          optional(
            p,
            valueFor(
              p.schema,
              g,
              p.name,
              g.known.params[`${method.toUpperCase()} ${path} ${p.name}`] ?? g.known.fields[p.name],
            ),
          ),
        ),
      ),
      headers: fc.tuple(...headers.map((p) => optional(p, valueFor(p.schema, g, p.name)))),
      body: op.requestBody ? bodyOf(op, g, accepted) : fc.constant(undefined),
      authorization,
    })
    .map(({ params: paramValues, query: queryValues, headers: headerValues, body, authorization: auth }) => {
      let url = path;
      params.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, percentEncode(asText(paramValues[i])));
      });
      const pairs = query.flatMap((p, i) => {
        const value = queryValues[i];
        if (value === undefined) return [];
        return (Array.isArray(value) ? value : [value]).map(
          (v) => `${percentEncode(p.name)}=${percentEncode(asText(v))}`,
        );
      });
      if (pairs.length > 0) url += `?${pairs.join('&')}`;
      const requestHeaders: Record<string, string> = { ...body?.headers };
      headers.forEach((p, i) => {
        if (headerValues[i] !== undefined) requestHeaders[p.name] = headerSafe(headerValues[i]);
      });
      if (auth !== undefined) requestHeaders.authorization = auth;
      const upper = method.toUpperCase() as FuzzRequest['method'];
      return {
        method: upper,
        url,
        headers: requestHeaders,
        ...(body && { payload: body.payload }),
        summary: `${upper} ${url.slice(0, 300)} ${JSON.stringify({ ...requestHeaders, authorization: auth && '<credential>' })} ${body?.body ?? ''}`,
      };
    });
}

/**
 * Requests for one operation: a quarter generated clean from the schemas, a quarter with hostile
 * values scattered in, and half an accepted body with one thing off.
 */
export function requestsFor(
  doc: OpenApiDocument,
  known: Known,
  path: string,
  method: string,
): fc.Arbitrary<FuzzRequest> {
  const op = doc.paths[path]![method]!;
  const accepted = known.bodies[`${method.toUpperCase()} ${path}`] ?? [];
  const generated = [
    requestOf(path, method, op, { doc, known, hostility: 0 }),
    requestOf(path, method, op, { doc, known, hostility: 2 }),
  ];
  if (accepted.length === 0) return fc.oneof(...generated);
  return fc.oneof(...generated, {
    arbitrary: requestOf(path, method, op, { doc, known, hostility: 0 }, accepted),
    weight: 2,
  });
}
