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

declare const declared: unique symbol;
/**
 * A code some module's catalogue declares: only `errorCodes` makes one, so a code thrown is a code
 * listed (docs/errors.md and OpenAPI are built from the catalogues; error-codes.unit.test.ts fails
 * on a catalogue the list lacks).
 */
export type DeclaredCode = string & { readonly [declared]: true };

/** One declared error: its code, the kind of problem (its HTTP status) and what it means. */
export class ErrorCode {
  constructor(
    readonly code: DeclaredCode,
    readonly kind: ProblemKind,
    readonly description: string,
  ) {}

  /** This error, with its messages and the input fields at fault (a field name for one). */
  error(message: string | string[], details?: FieldError[] | string): DomainError {
    const messages = typeof message === 'string' ? [message] : message;
    const fields = typeof details === 'string' ? [{ field: details, message: messages[0] ?? '' }] : details;
    return new DomainError(this.kind, messages, fields, this.code);
  }
}

export type ErrorCatalogue = Readonly<Record<string, ErrorCode>>;

/**
 * A module's errors, declared beside it in its `*.errors.ts`: `{ store_name_taken: ['conflict',
 * 'Another store of the account has this name'] }`. Codes are snake_case and stable: clients branch
 * on them, so one is never renamed or reused for another meaning.
 */
export function errorCodes<const T extends Record<string, readonly [ProblemKind, string]>>(
  entries: T,
): { readonly [K in keyof T]: ErrorCode } {
  return Object.fromEntries(
    Object.entries(entries).map(([code, [kind, description]]) => [
      code,
      new ErrorCode(code as DeclaredCode, kind, description),
    ]),
  ) as { readonly [K in keyof T]: ErrorCode };
}

/** The code of a problem no module names more precisely: one per kind. */
export const GENERIC_ERRORS = errorCodes({
  invalid_request: ['invalid', 'The input breaks a rule; `details` names each field at fault.'],
  unauthorized: ['unauthorized', 'Missing, malformed, unknown, revoked or expired credential.'],
  forbidden: ['forbidden', 'The credential or link does not allow this.'],
  not_found: ['not_found', 'Unknown resource, or one that belongs to another account.'],
  conflict: ['conflict', "Conflicts with the resource's state or with a request in progress."],
  gone: ['gone', 'The resource or link existed and is no longer usable.'],
  too_large: ['too_large', 'The input is larger than the route takes.'],
  unprocessable: ['unprocessable', "Valid input that the account's state or a partner refuses."],
  rate_limited: ['rate_limited', 'Too many requests; `Retry-After` says when to try again.'],
  upstream_failed: ['upstream_failed', 'A partner (courier, provider) could not be reached or answered nonsense.'],
  unavailable: ['unavailable', 'Not ready: a dependency is not answering; `Retry-After` says when to try again.'],
});

const GENERIC_CODE_OF: Record<ProblemKind, ErrorCode> = {
  invalid: GENERIC_ERRORS.invalid_request,
  unauthorized: GENERIC_ERRORS.unauthorized,
  forbidden: GENERIC_ERRORS.forbidden,
  not_found: GENERIC_ERRORS.not_found,
  conflict: GENERIC_ERRORS.conflict,
  gone: GENERIC_ERRORS.gone,
  too_large: GENERIC_ERRORS.too_large,
  unprocessable: GENERIC_ERRORS.unprocessable,
  rate_limited: GENERIC_ERRORS.rate_limited,
  upstream_failed: GENERIC_ERRORS.upstream_failed,
  unavailable: GENERIC_ERRORS.unavailable,
};

export class DomainError extends Error {
  /** A stable, machine-readable name of this problem, which clients branch on instead of the message. */
  readonly code: DeclaredCode;
  /**
   * @param code a code of a module's catalogue (`*.errors.ts`); without one, the kind's generic code.
   * @param retryAfterSeconds when a retry can succeed, for a problem that passes (rate limits, outages).
   */
  constructor(
    readonly kind: ProblemKind,
    readonly messages: string[],
    readonly details?: FieldError[],
    code?: DeclaredCode,
    readonly retryAfterSeconds?: number,
  ) {
    super(messages.join('; '));
    this.name = 'DomainError';
    this.code = code ?? GENERIC_CODE_OF[kind].code;
  }
}

const withField = (message: string, field?: string) => (field ? [{ field, message }] : undefined);

/** Input that breaks a rule, naming the field when one is at fault. */
export const invalid = (message: string, field?: string, code?: ErrorCode) =>
  new DomainError('invalid', [message], withField(message, field), code?.code);
export const notFound = (message: string, code?: ErrorCode) =>
  new DomainError('not_found', [message], undefined, code?.code);
export const conflict = (message: string, code?: ErrorCode) =>
  new DomainError('conflict', [message], undefined, code?.code);
export const unprocessable = (message: string, field?: string, code?: ErrorCode) =>
  new DomainError('unprocessable', [message], withField(message, field), code?.code);
export const forbidden = (message: string, code?: ErrorCode) =>
  new DomainError('forbidden', [message], undefined, code?.code);
export const gone = (message: string, code?: ErrorCode) => new DomainError('gone', [message], undefined, code?.code);
export const unavailable = (message: string, code?: ErrorCode, retryAfterSeconds?: number) =>
  new DomainError('unavailable', [message], undefined, code?.code, retryAfterSeconds);
export const rateLimited = (message: string, retryAfterSeconds: number, code?: ErrorCode) =>
  new DomainError('rate_limited', [message], undefined, code?.code, Math.max(1, retryAfterSeconds));

/**
 * Runs independent checks of one request and reports every failure together (one error of the
 * given kind and code), rather than the first: each check is a function that throws a DomainError naming
 * its field.
 */
export function checkAll(kind: ProblemKind = 'invalid', code?: ErrorCode) {
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
          code?.code,
        );
    },
  };
}
