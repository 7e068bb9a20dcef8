import type { Clock } from '../base/clock.js';
import type { HealthReport } from './connector-health.js';

export type FailureKind = 'timeout' | 'network' | 'server' | 'malformed' | 'rate_limited' | 'refused' | 'circuit_open';

/** A call that did not give a usable answer, and why; never carries the request's credentials. */
export class CourierCallError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'CourierCallError';
  }
}

export interface CourierRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Headers of this call only (a bearer token that changes); never logged or echoed. */
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /**
   * An answer below 400 that is not JSON is handed back as its text instead of failing as
   * malformed: a courier that answers some calls in another format (Delhivery's edit call, XML).
   */
  textAllowed?: boolean;
}

export interface CourierHttpOptions {
  baseUrl: string;
  /** Headers on every call (the credential); never logged or echoed. */
  headers: Record<string, string>;
  timeoutMs: number;
  clock: Clock;
  /** Failures in a row that open the circuit, and how long it stays open. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  /** Told of every call that went out: answered, or failed and why (not of calls the open circuit held back). */
  health?: HealthReport;
  /**
   * Reads an answer other than a 429 as the courier limiting us, with the milliseconds to wait
   * (Delhivery's AWS WAF answers 403 past its rate); undefined for any other answer. Without it,
   * only a 429 is.
   */
  throttledBy?: (request: CourierRequest, status: number, body: string) => number | undefined;
}

/**
 * JSON over HTTP to one courier, with a time-out on every call and a circuit breaker: after
 * `breakerThreshold` failures in a row (time-outs, 5xx, nonsense) calls fail at once for
 * `breakerCooldownMs`, then one call is let through to see whether the courier is back. A 429 opens
 * the circuit for the courier's Retry-After, so every caller in this process waits it out.
 */
export function createCourierHttp(options: CourierHttpOptions) {
  const threshold = options.breakerThreshold ?? 5;
  const cooldownMs = options.breakerCooldownMs ?? 30_000;
  let failures = 0;
  let openUntil = 0;

  const failed = (error: CourierCallError) => {
    options.health?.failure(error.message);
    if (error.kind === 'rate_limited') {
      openUntil = options.clock.now().getTime() + (error.retryAfterMs ?? 1000);
      return error;
    }
    if (error.kind === 'refused') return error;
    failures += 1;
    if (failures >= threshold) openUntil = options.clock.now().getTime() + cooldownMs;
    return error;
  };

  async function call(request: CourierRequest): Promise<unknown> {
    const now = options.clock.now().getTime();
    if (now < openUntil) {
      throw new CourierCallError(
        'circuit_open',
        'too many failures in a row; calls are paused',
        undefined,
        openUntil - now,
      );
    }
    const url = new URL(request.path, `${options.baseUrl}/`);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...request.headers };
    let body: string | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      throw failed(
        name === 'TimeoutError' || name === 'AbortError'
          ? new CourierCallError('timeout', `no answer within ${options.timeoutMs} ms`)
          : new CourierCallError('network', 'the connection failed'),
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw failed(new CourierCallError('timeout', `the answer did not finish within ${options.timeoutMs} ms`));
    }
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      throw failed(
        new CourierCallError(
          'rate_limited',
          'rate limited (429)',
          429,
          Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
        ),
      );
    }
    const throttledMs = options.throttledBy?.(request, response.status, text);
    if (throttledMs !== undefined) {
      throw failed(
        new CourierCallError('rate_limited', `rate limited (HTTP ${response.status})`, response.status, throttledMs),
      );
    }
    if (response.status >= 500)
      throw failed(new CourierCallError('server', `HTTP ${response.status}`, response.status));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (request.textAllowed && response.status < 400) {
        failures = 0;
        options.health?.success();
        return text;
      }
      throw failed(
        new CourierCallError('malformed', `HTTP ${response.status} with an answer that is not JSON`, response.status),
      );
    }
    if (response.status >= 400)
      throw failed(new CourierCallError('refused', `HTTP ${response.status}`, response.status, undefined, parsed));
    failures = 0;
    options.health?.success();
    return parsed;
  }

  return { call };
}

export type CourierHttp = ReturnType<typeof createCourierHttp>;

/** Failures worth another try: the courier may answer next time (a refusal will not change). */
export const isTransient = (error: unknown): error is CourierCallError =>
  error instanceof CourierCallError && ['timeout', 'network', 'server', 'malformed'].includes(error.kind);
