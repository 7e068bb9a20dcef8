/**
 * A courier's request limit as the simulators apply it: `requests` calls per credential in a
 * window of `windowMs` that starts with the credential's first call, the calls past it answered 429
 * until the window ends (the seconds left are the answer's Retry-After). The default is far above
 * what the tests and `npm run demo` send; a test lowers it, and moves `now` with its own clock so
 * the window passes without waiting.
 */
export interface SimRateLimit {
  requests: number;
  windowMs: number;
  /** Milliseconds since the epoch; Date.now unless a test's clock is given. */
  now: () => number;
}

export const DEFAULT_SIM_RATE_LIMIT: Readonly<Pick<SimRateLimit, 'requests' | 'windowMs'>> = {
  requests: 1000,
  windowMs: 60_000,
};

export function createSimRateLimiter(initial: Partial<SimRateLimit> = {}) {
  const clock = initial.now ?? Date.now;
  let limit: SimRateLimit = { ...DEFAULT_SIM_RATE_LIMIT, now: clock, ...initial };
  let windows = new Map<string, { endsAt: number; calls: number }>();

  return {
    /**
     * Counts a call of this credential: undefined while it is within the limit, else the whole
     * seconds until its window ends (at least 1).
     */
    take(credential: string): number | undefined {
      const now = limit.now();
      let window = windows.get(credential);
      if (!window || now >= window.endsAt) {
        window = { endsAt: now + limit.windowMs, calls: 0 };
        windows.set(credential, window);
      }
      window.calls += 1;
      return window.calls > limit.requests ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : undefined;
    },
    /** Replaces the limit (the default for what is not given, the first clock) and forgets the calls counted so far. */
    set(next: Partial<SimRateLimit> = {}) {
      limit = { ...DEFAULT_SIM_RATE_LIMIT, now: clock, ...next };
      windows = new Map();
    },
    get limit(): Readonly<SimRateLimit> {
      return limit;
    },
  };
}
