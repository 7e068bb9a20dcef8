/** PostgreSQL's unique_violation, raised the same way by the pg driver and by PGlite. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: unknown } | null;
  if (e?.code === '23505') return constraint === undefined || e.constraint === constraint;
  // Drizzle wraps driver errors in DrizzleQueryError with the original as `cause`.
  return e?.cause !== undefined && e.cause !== e ? isUniqueViolation(e.cause, constraint) : false;
}
