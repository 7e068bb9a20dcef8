import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/**
 * What a log line may say about an error. A failed statement carries its bound values three ways
 * (Drizzle's message lists them, PostgreSQL's `detail` quotes the failing row, the driver error
 * keeps `params`), and those values are customers' names, phones, e-mails and addresses. So an
 * error is logged through an allowlist: its type, SQLSTATE, constraint, table and column, the
 * statement's text (parameterised: placeholders, no values), how many values were bound, and the
 * stack frames. Nothing else of the error reaches the log.
 */
const DATABASE_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'dataType', 'schema', 'routine'] as const;
const MAX_MESSAGE = 300;
const MAX_QUERY = 2000;
const MAX_CAUSES = 3;

type LoggedError = { type: string; message: string; stack: string; [field: string]: unknown };

/** PostgreSQL quotes the offending input at the end of some messages (`invalid input syntax for type uuid: "…"`). */
function withoutQuotedValue(message: string): string {
  return message.replace(/: (".*"|'.*')$/s, ': [redacted]');
}

function frames(stack: unknown): string {
  if (typeof stack !== 'string') return '';
  return stack
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .slice(0, 15)
    .join('\n');
}

export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const e = error as Error & Record<string, unknown>;
  // Drizzle's wrapper names itself only by its class; its message is the statement and its values.
  const type = e.name && e.name !== 'Error' ? e.name : (e.constructor?.name ?? 'Error');
  const logged: LoggedError = { type, message: '', stack: '' };
  const sqlState = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  if (sqlState) logged.message = withoutQuotedValue(e.message).slice(0, MAX_MESSAGE);
  else if (typeof e.query === 'string') logged.message = 'Failed query';
  else logged.message = e.message.slice(0, MAX_MESSAGE);
  if (typeof e.query === 'string') {
    logged.query = e.query.slice(0, MAX_QUERY);
    if (Array.isArray(e.params)) logged.paramCount = e.params.length;
  }
  for (const field of DATABASE_FIELDS) {
    if (typeof e[field] === 'string' || typeof e[field] === 'number') logged[field] = e[field];
  }
  if (typeof e.statusCode === 'number') logged.statusCode = e.statusCode;
  logged.stack = frames(e.stack);
  if (e.cause !== undefined && e.cause !== error && depth < MAX_CAUSES) logged.cause = errorForLog(e.cause, depth + 1);
  return logged;
}

/**
 * Query parameters whose values are logged. Any other value is replaced: capabilities travel in
 * query strings (a label link's `signature`, bearer links for 24 hours), and so may whatever a
 * future route or a caller's mistake puts there. Names stay, so a request is still recognisable.
 */
const LOGGED_QUERY = new Set([
  'lang',
  'format',
  'after',
  'before',
  'type',
  'type[]',
  'limit',
  'cursor',
  'expires',
  'v',
]);
export const REDACTED = '[redacted]';
/** The tracking page's path holds its own bearer token: `/t/<token>`, `/t/<token>.json`, `/t/<token>/reattempt`. */
const TRACKING_TOKEN = /^\/t\/[^/?]+?(?=\.json$|\/|$)/;

/** A request URL as a log line may show it: the tracking token and every query value not known to be harmless replaced. */
export function urlForLog(url: string): string {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const loggedPath = path.replace(TRACKING_TOKEN, `/t/${REDACTED}`);
  if (mark === -1) return loggedPath;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A name that does not decode is no known name.
      }
      return equals === -1 || LOGGED_QUERY.has(decoded) ? pair : `${name}=${REDACTED}`;
    })
    .join('&');
  return `${loggedPath}?${query}`;
}

/** What a log line may say about a request, should one be logged whole (Fastify's own `req` serializer shows its URL). */
function requestForLog(request: { method?: string; url?: string; id?: string }) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? urlForLog(request.url) : undefined,
    id: request.id,
  };
}

/** Serializers for any pino logger of ours: errors through the allowlist above, requests without their capabilities. */
export const PRIVATE_SERIALIZERS = { err: errorForLog, error: errorForLog, req: requestForLog };

type LoggerOption = FastifyServerOptions['logger'];

/** The app's logger options, with errors and requests logged through the rules above under every key Fastify and we use. */
export function withPrivateErrors(logger: LoggerOption): LoggerOption {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, ...PRIVATE_SERIALIZERS } };
}

/** A logger outside the app (the worker process) that keeps the same rules. */
export function privateLogger(options: LoggerOptions, stream?: DestinationStream) {
  const withRules = { ...options, serializers: { ...options.serializers, ...PRIVATE_SERIALIZERS } };
  return stream ? pino(withRules, stream) : pino(withRules);
}
