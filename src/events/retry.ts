/** No success for this long while failing disables an endpoint… */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** …and so do this many events in a row whose deliveries failed. */
export const DISABLE_AFTER_FAILED_EVENTS = 20;

/**
 * When to try again after `attempts` failed attempts, or null when they are spent. Each delay is
 * spread by ±20 % (`random` in [0, 1)), so endpoints that failed together (an outage at the
 * receiver) are not all retried in the same second.
 */
export function nextAttemptAt(
  attempts: number,
  delaysSeconds: readonly number[],
  now: Date,
  random: number,
): Date | null {
  const delay = delaysSeconds[attempts - 1];
  if (delay === undefined) return null;
  const spread = 0.8 + 0.4 * random;
  return new Date(now.getTime() + Math.round(delay * 1000 * spread));
}

/** Whether an endpoint's failures since its last success should disable it. */
export function shouldDisable(failingSince: Date | null, failedEvents: number, now: Date): boolean {
  if (failedEvents >= DISABLE_AFTER_FAILED_EVENTS) return true;
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
}
