/** Whether the error (or the driver's error Drizzle wraps as its `cause`) has the SQLSTATE, and the constraint if one is named. */
function hasState(error: unknown, state: string, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: unknown } | null;
  if (e?.code === state) return constraint === undefined || e.constraint === constraint;
  return e?.cause !== undefined && e.cause !== e ? hasState(e.cause, state, constraint) : false;
}

/** PostgreSQL's unique_violation, raised the same way by the pg driver and by PGlite. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => hasState(error, '23505', constraint);

/** PostgreSQL's foreign_key_violation: a row references one that is not there, or is still referenced. */
export const isForeignKeyViolation = (error: unknown): boolean => hasState(error, '23503');

/** PostgreSQL's disk_full, which the embedded database reports too when its files' disk is full (ENOSPC). */
export const DISK_FULL = '53100';

/**
 * SQLSTATEs that say the session is gone or cannot be had: admin_shutdown, crash_shutdown,
 * cannot_connect_now (57P01-3), too_many_connections (53300); the whole of class 08 is
 * connection_exception. And disk_full (53100): the statement is refused for want of room, not for
 * what it asks, and succeeds once room is made.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', DISK_FULL]);
/** The socket's own failures, as Node reports them. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * What node-postgres says, with no code, when the socket closes under a client ("Connection
 * terminated unexpectedly"), a query goes to a client that has lost it, or the pool cannot connect
 * in time.
 */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

interface DriverError {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Whether an error means the database could not be reached or dropped the connection, rather than
 * refusing the statement: a request that meets it is answered 503 (retry later), a worker round
 * is run again later. A FATAL error ends its session whatever its code (a database that does not
 * accept connections, a failed login), so it counts too. PGlite, in process, never raises these.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 5) return false;
  const e = error as DriverError;
  if (typeof e.code === 'string') {
    if (UNAVAILABLE_STATES.has(e.code) || e.code.startsWith('08') || NETWORK_CODES.has(e.code)) return true;
  }
  if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message)) return true;
  // Node reports a refused connection to a host with several addresses as an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  // Drizzle wraps driver errors in DrizzleQueryError with the original as `cause`.
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause, depth + 1);
}

/** The driver's error carrying SQLSTATE `code`, anywhere in the error's causes. */
function withCode(error: unknown, code: string, depth = 0): DriverError | undefined {
  if (error === null || typeof error !== 'object' || depth > 5) return undefined;
  const e = error as DriverError;
  if (e.code === code) return e;
  return e.cause !== undefined && e.cause !== error ? withCode(e.cause, code, depth + 1) : undefined;
}

/** Whether the database refused a statement for want of room on its disk (disk_full), anywhere in the error's causes. */
export const isDiskFull = (error: unknown): boolean => withCode(error, DISK_FULL) !== undefined;

/** The database's own words when it refused a statement to this role (insufficient_privilege), else undefined. */
export const permissionDenied = (error: unknown): string | undefined => {
  const refusal = withCode(error, '42501');
  return refusal === undefined ? undefined : String(refusal.message);
};
