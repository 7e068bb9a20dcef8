import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { isDatabaseUnavailable, isDiskFull } from '../base/db/errors.js';
import { reportIgnoredFields } from './lenient-input.js';
import { TEXT_KEYWORD } from './text-input.js';
import { type AjvError, describeValidationErrors } from './validation-errors.js';
import { FILE_TOO_LARGE, fileTooLarge, TOO_MANY_FILES, tooManyFiles } from './uploads.js';
import { DomainError, type FieldError, type ProblemKind } from '../domain/errors.js';

export type { FieldError } from '../domain/errors.js';
export { checkAll } from '../domain/errors.js';

const STATUS_OF: Record<ProblemKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
};
const KIND_OF = new Map(Object.entries(STATUS_OF).map(([kind, status]) => [status, kind as ProblemKind]));

/** A domain error with its HTTP status and headers: the messages of the `{errors: [...]}` envelope. */
export class AppError extends DomainError {
  constructor(
    readonly statusCode: number,
    messages: string[],
    details?: FieldError[],
    readonly headers?: Record<string, string>,
    code?: string,
  ) {
    super(KIND_OF.get(statusCode) ?? 'invalid', messages, details, code);
    this.name = 'AppError';
  }
}

/** The one place a domain error becomes an HTTP answer. */
export function asAppError(error: DomainError): AppError {
  return error instanceof AppError
    ? error
    : new AppError(STATUS_OF[error.kind], error.messages, error.details, undefined, error.code);
}

export const badRequest = (message: string, field?: string) =>
  new AppError(400, [message], field ? [{ field, message }] : undefined);
/** A 401 with its challenge (`WWW-Authenticate`), which RFC 9110 requires of every 401: see http/auth.ts. */
export const unauthorized = (message: string, challenge: string) =>
  new AppError(401, [message], undefined, { 'www-authenticate': challenge });
export const forbidden = (message: string) => new AppError(403, [message]);
export const notFound = (message: string) => new AppError(404, [message]);
export const conflict = (message: string) => new AppError(409, [message]);
export const unprocessable = (message: string, field?: string) =>
  new AppError(422, [message], field ? [{ field, message }] : undefined);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, [message], undefined, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });
export const unavailable = (message: string) => new AppError(503, [message]);

/**
 * A lost connection costs one retry: the pool connects afresh on the next checkout. A database
 * that stays down keeps answering this, and /readyz (503 too) tells a load balancer to look away.
 */
const DATABASE_RETRY_AFTER_SECONDS = 1;
/**
 * The database could not be reached, or dropped the connection mid-request: the transaction rolled
 * back, or (a commit whose answer was lost) committed whole; a retry with the same Idempotency-Key
 * gets the one result either way.
 */
export const databaseUnavailable = (diskFull = false) =>
  diskFull
    ? new AppError(503, ["The database's disk is full: nothing was written; retry later"], undefined, {
        'retry-after': String(DISK_FULL_RETRY_AFTER_SECONDS),
      })
    : new AppError(503, ['The database is not answering; retry shortly'], undefined, {
        'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
      });
/** A full disk waits for its operator: asked again much sooner, it would only be refused again. */
const DISK_FULL_RETRY_AFTER_SECONDS = 30;

export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: 'The first of `errors`: Velocity clients read `message` first.' }),
    errors: Type.Array(Type.String(), { description: 'Human-readable messages, most important first.' }),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description:
          'The input fields at fault, where the error is about specific fields. A 400 of a /custom/api/v1 route ' +
          'that takes a body names after them (and in `errors`) each body field the route does not know, which was ' +
          'ignored, with the known field nearest to its name: "billing_pincod is not a field of this request and ' +
          'was ignored; did you mean billing_pincode?".',
      }),
    ),
  },
  {
    $id: 'ErrorBody',
    description: 'Every error answers with this envelope.',
    // Every problem of a request is listed at once, so the example shows two.
    examples: [
      {
        message: 'billing_phone must be a valid Indian phone number (10 digits)',
        errors: [
          'billing_phone must be a valid Indian phone number (10 digits)',
          'billing_pincode must be a 6-digit Indian pincode',
        ],
        details: [
          { field: 'billing_phone', message: 'billing_phone must be a valid Indian phone number (10 digits)' },
          { field: 'billing_pincode', message: 'billing_pincode must be a 6-digit Indian pincode' },
        ],
      },
    ],
  },
);

/** The error envelope: `message` (what Velocity clients read), `errors`, and `details` where fields are at fault. */
export function errorBody(messages: string[], details?: FieldError[]) {
  return details
    ? { message: messages[0] ?? '', errors: messages, details }
    : { message: messages[0] ?? '', errors: messages };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed or invalid input: every problem found is listed, most useful first.',
  401: 'Missing, malformed, unknown, revoked or expired credential; WWW-Authenticate names the Bearer realm. HTTP Basic is refused with what to send instead (POST /custom/api/v1/auth-token exchanges a username and password for a token).',
  403: 'The link is not valid.',
  404: 'Unknown resource, or one that belongs to another account.',
  409: "Conflicts with a request still in progress; or, on a booking, the AWB the courier's allotted series gives is already issued (named, with the series; nothing written).",
  410: 'The link has expired.',
  413: 'Body too large.',
  414: 'A path parameter is longer than 100 characters.',
  415: 'Unsupported Content-Type.',
  422: "Valid input that conflicts with the account's state.",
  429: 'Rate limited; see Retry-After.',
  502: 'The courier could not be reached or answered nonsense (named in the message); nothing was written.',
  503: 'Not ready: the database is not answering or dropped the connection (see Retry-After; a retry with the same Idempotency-Key gets the one result), or, for logins, the rate-limit store is not answering; or the courier is limiting us or failing repeatedly (see Retry-After).',
};

/** Response schemas for the error statuses a route can answer, for validation-free OpenAPI docs. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, Type.Ref('ErrorBody', { description: ERROR_DESCRIPTIONS[status] ?? 'Error.' })]),
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a route's path id names, for the 404 a malformed id gets. */
    resource?: string;
    /** A missing body means `{}` (every field optional) rather than a 400. */
    optionalBody?: boolean;
    /** The route never reaches the database (liveness), so never answers its 503. */
    noDatabase?: boolean;
  }
}

/** Past this many problems, the rest are counted rather than listed. */
export const MAX_REPORTED_ERRORS = 50;

/** The 400 for a failed validation: every problem up to MAX_REPORTED_ERRORS, the rest counted. */
export function validationErrorBody(details: FieldError[]) {
  const listed = details.slice(0, MAX_REPORTED_ERRORS);
  const messages = listed.map((d) => d.message);
  if (details.length > listed.length) messages.push(`... and ${details.length - listed.length} more problems`);
  return errorBody(messages, listed);
}

/** Fastify's and its plugins' own errors, in our words; `field` where one input field is at fault. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string; field?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON body' },
  FST_PARTS_LIMIT: { status: 413, message: 'Too many parts in the multipart body' },
  FST_FIELDS_LIMIT: { status: 413, message: 'Too many fields in the multipart body' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: 'Expected a multipart/form-data body' },
  FST_ERR_BAD_URL: { status: 400, message: 'Malformed URL: invalid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A path parameter is too long' },
};

function sendFrameworkError(code: string | undefined, reply: FastifyReply) {
  const known = code ? FRAMEWORK_ERRORS[code] : undefined;
  if (!known) return undefined;
  const { status, message, field } = known;
  return reply.status(status).send(errorBody([message], field ? [{ field, message }] : undefined));
}

const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

export function errorHandler(error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  reportIgnoredFields(request, reply);
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    error = databaseUnavailable(isDiskFull(error));
  }
  if (error instanceof DomainError) {
    const answer = asAppError(error);
    if (answer.headers) reply.headers(answer.headers);
    return reply.status(answer.statusCode).send(errorBody(answer.messages, answer.details));
  }

  if (error.validation) {
    const text = (error.validation as AjvError[]).some((e) => e.keyword === TEXT_KEYWORD);
    // A path id that cannot exist (not a UUID) is an unknown resource, not a bad request; but text
    // that no value may hold is a bad request wherever it is.
    if (error.validationContext === 'params' && !text) {
      const resource = request.routeOptions.config.resource ?? 'Resource';
      return reply.status(404).send(errorBody([`${resource} not found`]));
    }
    return reply.status(400).send(validationErrorBody(describeValidationErrors(error.validation as AjvError[])));
  }

  if (error.code === FILE_TOO_LARGE) {
    const { message, details } = fileTooLarge(request);
    return reply.status(422).send(errorBody([message], details));
  }
  if (error.code === TOO_MANY_FILES) {
    const { message, details } = tooManyFiles(request);
    return reply.status(400).send(errorBody([message], details));
  }
  const sent = sendFrameworkError(error.code, reply);
  if (sent) return sent;
  if (error instanceof SyntaxError) return reply.status(400).send(errorBody(['Malformed JSON body']));
  // The multipart parser (busboy) reports a body it cannot parse with plain, code-less Errors.
  if (!error.code && MALFORMED_MULTIPART.test(error.message)) {
    return reply.status(400).send(errorBody(['Malformed multipart/form-data body']));
  }

  const statusCode = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (statusCode >= 400 && statusCode < 500) {
    return reply.status(statusCode).send(errorBody([error.message]));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(errorBody(['Internal server error']));
}

/**
 * Every answer's headers: no content sniffing, and not stored by browsers or proxies, since most
 * answers are an account's data and the rest are errors or capability pages. The routes whose
 * answers may be cached (store logos, a label behind its link) set their own Cache-Control.
 */
export const DEFAULT_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Documents the answers the input rules give any route: 400 where it takes input (text no value
 * may hold, a URL that cannot be decoded), 400, 413 and 415 where it reads a body it does not take,
 * and 414 where it has path parameters (over 100 characters);
 * and the 503 of a database that is not answering, on every route that reaches it.
 */
export function documentInputErrors(route: RouteOptions) {
  const schema = route.schema;
  if (!schema?.response || schema.hide) return;
  const response = schema.response as Record<string, unknown>;
  const takesInput = schema.body || schema.querystring || schema.params || schema.headers;
  if (takesInput && !response[400]) Object.assign(response, errorResponses(400));
  // A body sent where none is taken is still read: not JSON (415), malformed (400), too large (413).
  const readsBody = [route.method].flat().some((m) => BODY_METHODS.has(m));
  if (readsBody && !schema.body)
    for (const status of [400, 413, 415] as const)
      if (!response[status]) Object.assign(response, errorResponses(status));
  if (route.url.includes(':') && !response[414]) Object.assign(response, errorResponses(414));
  if (!route.config?.noDatabase && !response[503]) Object.assign(response, errorResponses(503));
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot even decode never reaches hooks or the
 * error handler, so it is answered here, in the same envelope and with the request id.
 */
export function routingErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.headers(DEFAULT_HEADERS);
  reply.header('x-request-id', request.id);
  const sent = sendFrameworkError(error.code, reply);
  if (sent) return sent;
  request.log.error({ err: error }, 'unhandled routing error');
  return reply.status(500).send(errorBody(['Internal server error']));
}
