import type { FastifyError, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { isDatabaseUnavailable, isDiskFull } from '../base/db/errors.js';
import { reportIgnoredFields } from './lenient-input.js';
import { TEXT_KEYWORD } from './text-input.js';
import { type AjvError, describeValidationErrors } from './validation-errors.js';
import { FILE_TOO_LARGE, fileTooLarge, TOO_MANY_FILES, tooManyFiles } from './uploads.js';
import {
  type DeclaredCode,
  DomainError,
  type ErrorCode,
  GENERIC_ERRORS,
  type FieldError,
  type ProblemKind,
} from '../domain/errors.js';
import { HTTP_ERRORS, type HttpErrorCode } from './http.errors.js';

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
    code?: DeclaredCode,
  ) {
    super(KIND_OF.get(statusCode) ?? 'invalid', messages, details, code);
    this.name = 'AppError';
  }
}

/** The realm of account credentials, which a 401 names unless it says otherwise (http/auth.ts: ACCOUNT_SCOPE). */
export const ACCOUNT_REALM = 'dakiya';

/** The one place a domain error becomes an HTTP answer. */
export function asAppError(error: DomainError): AppError {
  if (error instanceof AppError) return error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds) headers['retry-after'] = String(error.retryAfterSeconds);
  // Every 401 carries a challenge (RFC 9110 11.6.1): a module's (a login refused) names the account realm.
  if (error.kind === 'unauthorized') headers['www-authenticate'] = `Bearer realm="${ACCOUNT_REALM}"`;
  return new AppError(
    STATUS_OF[error.kind],
    error.messages,
    error.details,
    Object.keys(headers).length > 0 ? headers : undefined,
    error.code,
  );
}

/** The status a kind of problem answers with, for the list of codes (docs/errors.md, OpenAPI). */
export const statusOfKind = (kind: ProblemKind) => STATUS_OF[kind];

/** A 401 with its challenge (`WWW-Authenticate`), which RFC 9110 requires of every 401: see http/auth.ts. */
export const unauthorized = (message: string, challenge: string, code?: ErrorCode) =>
  new AppError(401, [message], undefined, { 'www-authenticate': challenge }, code?.code);

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
    ? new AppError(
        503,
        ["The database's disk is full: nothing was written; retry later"],
        undefined,
        { 'retry-after': String(DISK_FULL_RETRY_AFTER_SECONDS) },
        HTTP_ERRORS.disk_full.code,
      )
    : new AppError(
        503,
        ['The database is not answering; retry shortly'],
        undefined,
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
        HTTP_ERRORS.database_unavailable.code,
      );
/** A full disk waits for its operator: asked again much sooner, it would only be refused again. */
const DISK_FULL_RETRY_AFTER_SECONDS = 30;

export const ErrorBody = Type.Object(
  {
    code: Type.String({
      description:
        'What went wrong, as a stable machine-readable name (`store_name_taken`): branch on this rather than on the words. Every code is listed in docs/errors.md.',
    }),
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
        code: 'invalid_request',
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

/**
 * The error envelope: its `code`, `message` (what Velocity clients read), `errors`, and `details`
 * where fields are at fault.
 */
export function errorBody(code: string, messages: string[], details?: FieldError[]) {
  return details
    ? { code, message: messages[0] ?? '', errors: messages, details }
    : { code, message: messages[0] ?? '', errors: messages };
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
    /** The code of that 404: the code the route gives an unknown id (`store_not_found`), else `not_found`. */
    notFound?: ErrorCode;
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
  return errorBody(GENERIC_INVALID, messages, listed);
}
const GENERIC_INVALID = GENERIC_ERRORS.invalid_request.code;
const GENERIC_NOT_FOUND = GENERIC_ERRORS.not_found.code;

/** Fastify's and its plugins' own errors, in our words; `field` where one input field is at fault. */
const FRAMEWORK_ERRORS: Record<string, { code: HttpErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: HTTP_ERRORS.unsupported_media_type,
    message: 'Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: HTTP_ERRORS.content_length_mismatch,
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: HTTP_ERRORS.body_too_large, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: HTTP_ERRORS.malformed_json, message: 'Malformed JSON body' },
  FST_PARTS_LIMIT: { code: HTTP_ERRORS.body_too_large, message: 'Too many parts in the multipart body' },
  FST_FIELDS_LIMIT: { code: HTTP_ERRORS.body_too_large, message: 'Too many fields in the multipart body' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    code: HTTP_ERRORS.unsupported_media_type,
    message: 'Expected a multipart/form-data body',
  },
  FST_ERR_BAD_URL: { code: HTTP_ERRORS.malformed_url, message: 'Malformed URL: invalid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { code: HTTP_ERRORS.uri_too_long, message: 'A path parameter is too long' },
};

/** An answer of the HTTP kit's own, in the envelope every answer uses. */
export function sendHttpError(reply: FastifyReply, code: HttpErrorCode, message: string, details?: FieldError[]) {
  return reply.status(code.status).send(errorBody(code.code, [message], details));
}

function sendFrameworkError(code: string | undefined, reply: FastifyReply) {
  const known = code ? FRAMEWORK_ERRORS[code] : undefined;
  return known ? sendHttpError(reply, known.code, known.message) : undefined;
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
    return reply.status(answer.statusCode).send(errorBody(answer.code, answer.messages, answer.details));
  }

  if (error.validation) {
    const text = (error.validation as AjvError[]).some((e) => e.keyword === TEXT_KEYWORD);
    // A path id that cannot exist (not a UUID) is an unknown resource, not a bad request; but text
    // that no value may hold is a bad request wherever it is.
    if (error.validationContext === 'params' && !text) {
      const resource = request.routeOptions.config.resource ?? 'Resource';
      const code = request.routeOptions.config.notFound?.code ?? GENERIC_NOT_FOUND;
      return reply.status(404).send(errorBody(code, [`${resource} not found`]));
    }
    return reply.status(400).send(validationErrorBody(describeValidationErrors(error.validation as AjvError[])));
  }

  if (error.code === FILE_TOO_LARGE) {
    const { message, details } = fileTooLarge(request);
    return sendHttpError(reply, HTTP_ERRORS.file_too_large, message, details);
  }
  if (error.code === TOO_MANY_FILES) {
    const { message, details } = tooManyFiles(request);
    return sendHttpError(reply, HTTP_ERRORS.too_many_files, message, details);
  }
  const sent = sendFrameworkError(error.code, reply);
  if (sent) return sent;
  if (error instanceof SyntaxError) return sendHttpError(reply, HTTP_ERRORS.malformed_json, 'Malformed JSON body');
  // The multipart parser (busboy) reports a body it cannot parse with plain, code-less Errors.
  if (!error.code && MALFORMED_MULTIPART.test(error.message)) {
    return sendHttpError(reply, HTTP_ERRORS.malformed_multipart, 'Malformed multipart/form-data body');
  }

  const statusCode = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (statusCode >= 400 && statusCode < 500) {
    const kind = KIND_OF.get(statusCode) ?? 'invalid';
    return reply.status(statusCode).send(errorBody(new DomainError(kind, [error.message]).code, [error.message]));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendHttpError(reply, HTTP_ERRORS.internal_error, 'Internal server error');
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
  return sendHttpError(reply, HTTP_ERRORS.internal_error, 'Internal server error');
}
