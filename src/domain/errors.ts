/**
 * What a rule of the domain reports: the kind of problem, the messages, and the input fields at
 * fault. The domain knows nothing of HTTP; the HTTP kit (http/errors.ts) turns each code into a
 * status in one place.
 */
export interface FieldError {
  field: string;
  message: string;
}

/** The kind of problem, which the HTTP kit turns into a status. */
export type ProblemKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'upstream_failed'
  | 'unavailable';

export class DomainError extends Error {
  /**
   * @param code a stable, machine-readable name of this problem (`store_name_taken`), which clients
   * branch on instead of parsing the message; modules name theirs in their `*.errors.ts`.
   */
  constructor(
    readonly kind: ProblemKind,
    readonly messages: string[],
    readonly details?: FieldError[],
    readonly code?: string,
  ) {
    super(messages.join('; '));
    this.name = 'DomainError';
  }
}

/** Input that breaks a rule, naming the field when one is at fault. */
export const invalid = (message: string, field?: string) =>
  new DomainError('invalid', [message], field ? [{ field, message }] : undefined);

/**
 * Runs independent checks of one request and reports every failure together (one error of the
 * given kind and code), rather than the first: each check is a function that throws a DomainError naming
 * its field.
 */
export function checkAll(kind: ProblemKind = 'invalid', code?: string) {
  const problems: FieldError[] = [];
  return {
    check<T>(work: () => T): T | undefined {
      try {
        return work();
      } catch (error) {
        if (!(error instanceof DomainError) || !error.details) throw error;
        problems.push(...error.details);
        return undefined;
      }
    },
    /** Throws the collected problems, if any. */
    done(): void {
      if (problems.length > 0)
        throw new DomainError(
          kind,
          problems.map((p) => p.message),
          problems,
          code,
        );
    },
  };
}
