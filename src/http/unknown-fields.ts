import type { FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { FieldError } from '../domain/errors.js';

/*
 * A field a lenient route does not know is ignored (lenient-input.ts). Named only in a header, a
 * typo went unseen: a body with "billing_pincod" was told "billing_pincode is required" by someone
 * who thinks they sent it. So the answer's body names each one too, with the known field nearest
 * to its name: a 400 among its errors (the typo may be why it failed), a success in `warnings`.
 * Other refusals (404, 422, …) keep the header alone: what they refuse is not the body's shape.
 */

/** A body field the route does not know, and the known field of the same object nearest to its name. */
export interface IgnoredField {
  path: string;
  nearest?: string;
}

/** Past this many names the rest are counted; a name past this many characters is cut. */
export const MAX_NAMED = 20;
export const MAX_NAME_CHARS = 100;

// A name is the caller's text: cut, and a lone surrogate made U+FFFD so that it serialises.
const shown = (name: string) =>
  (name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}...` : name).toWellFormed();

/** Each ignored field as a problem naming it, the first MAX_NAMED of them, then how many more. */
export function unknownFieldProblems(ignored: readonly IgnoredField[]): FieldError[] {
  const listed = ignored.slice(0, MAX_NAMED).map(({ path, nearest }): FieldError => {
    const field = shown(path);
    const message = `${field} is not a field of this request and was ignored`;
    return { field, message: nearest === undefined ? message : `${message}; did you mean ${shown(nearest)}?` };
  });
  const more = ignored.length - listed.length;
  if (more > 0) {
    const field = shown(ignored[MAX_NAMED]!.path);
    listed.push({ field, message: `${field} and ${more - 1} more fields this request does not know were ignored` });
  }
  return listed;
}

const UnknownFieldWarnings = Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
  description:
    "Dakiya's addition, present only when there is something to say. The body fields this route does not know, " +
    'each ignored (not stored, not checked) and named with the known field nearest to its name ' +
    '("billing_pincod is not a field of this request and was ignored; did you mean billing_pincode?"), as ' +
    'Dakiya-Ignored-Fields names them; where the answer has warnings of its own, these follow them.',
  examples: [
    [
      {
        field: 'billing_pincod',
        message: 'billing_pincod is not a field of this request and was ignored; did you mean billing_pincode?',
      },
    ],
  ],
});

type Schema = { type?: unknown; properties?: Record<string, unknown>; anyOf?: unknown[]; $id?: string };

/**
 * A success's schema with `warnings` among its fields: an object's (one that has its own is left as
 * it is), or each object of a union's; a copy, since a schema may be shared with routes that take no
 * body (its $id would name two schemas). Undefined for answers that are not JSON objects.
 */
function withWarnings(schema: unknown): Schema | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const { $id: _id, ...copy } = schema as Schema;
  if (copy.type === 'object' && copy.properties) {
    if (Object.hasOwn(copy.properties, 'warnings')) return undefined;
    return { ...copy, properties: { ...copy.properties, warnings: UnknownFieldWarnings } };
  }
  if (!Array.isArray(copy.anyOf)) return undefined;
  const branches = copy.anyOf.map((branch) => withWarnings(branch));
  if (branches.every((b) => b === undefined)) return undefined;
  return { ...copy, anyOf: branches.map((b, i) => b ?? copy.anyOf![i]) };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The answer's JSON text with the ignored fields named: a 400's envelope lists them after its
 * problems (its `message` stays the first problem), a success's object gets them in `warnings`,
 * after its own. Anything else (an array, another status) is left as it is.
 */
export function namingUnknownFields(status: number, json: string, ignored: readonly IgnoredField[]): string {
  if (status !== 400 && (status < 200 || status >= 300)) return json;
  let answer: unknown;
  try {
    answer = JSON.parse(json);
  } catch {
    return json;
  }
  if (!isPlainObject(answer)) return json;
  const problems = unknownFieldProblems(ignored);
  if (status === 400) {
    if (!Array.isArray(answer.errors)) return json;
    const details = Array.isArray(answer.details) ? answer.details : [];
    return JSON.stringify({
      ...answer,
      errors: [...answer.errors, ...problems.map((p) => p.message)],
      details: [...details, ...problems],
    });
  }
  const own = answer.warnings;
  if (own === undefined) {
    // The text as written, with one field more: an answer's numbers keep the form they were written in.
    const end = json.lastIndexOf('}');
    const empty = Object.keys(answer).length === 0;
    return `${json.slice(0, end)}${empty ? '' : ','}"warnings":${JSON.stringify(problems)}${json.slice(end)}`;
  }
  if (!Array.isArray(own)) return json;
  return JSON.stringify({ ...answer, warnings: [...own, ...problems] });
}

/**
 * A lenient route's answers name the ignored fields in their body (namingUnknownFields): a hook
 * on this route alone, which costs a request without unknown fields one look at its body. Every
 * JSON object its successes answer gets `warnings` in its schema, for the document.
 */
export function addUnknownFieldWarnings(
  route: RouteOptions,
  ignoredOf: (request: FastifyRequest) => readonly IgnoredField[] | undefined,
): void {
  const responses = route.schema?.response as Record<string, unknown> | undefined;
  for (const [status, schema] of Object.entries(responses ?? {})) {
    const documented = /^2\d\d$/.test(status) ? withWarnings(schema) : undefined;
    if (documented) responses![status] = documented;
  }
  // Answers sent as text or bytes (the listing's, written by the database; the quotes; an
  // idempotent replay's) are named as serialised ones are: a replay of the same body, the same names.
  const nameThem: onSendHookHandler<unknown> = (request, reply, payload, done) => {
    const ignored = ignoredOf(request);
    if (!ignored || !isJson(reply.getHeader('content-type'))) return done(null, payload);
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : undefined;
    done(null, text === undefined ? payload : namingUnknownFields(reply.statusCode, text, ignored));
  };
  route.onSend = [...[route.onSend ?? []].flat(), nameThem] as RouteOptions['onSend'];
}

const isJson = (type: unknown) => typeof type === 'string' && type.startsWith('application/json');
