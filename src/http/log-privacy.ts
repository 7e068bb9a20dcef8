import type { FastifyServerOptions } from 'fastify';

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

type LoggerOption = FastifyServerOptions['logger'];

/** The app's logger options, with errors logged through the allowlist above under every key Fastify and we use. */
export function withPrivateErrors(logger: LoggerOption): LoggerOption {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, err: errorForLog, error: errorForLog } };
}
