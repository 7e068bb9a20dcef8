/** A check an API process makes on a timer (overdue COD cash, missed pickups); tests call runOnce(). */
export interface PeriodicCheck {
  /** One check now; answers how many things it found for the first time. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Runs `check` every `intervalMs` in every API process, and once at start. The checks record what
 * they find once (a unique key or a guarded update), so processes running one at once, or a round
 * repeated after a crash, find nothing twice; a missed round is caught by the next one.
 */
export function createPeriodicCheck(
  check: () => Promise<number>,
  intervalMs: number,
  onError: (error: unknown) => void,
): PeriodicCheck {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const round = () => {
    running = check().catch(onError);
  };
  return {
    runOnce: check,
    start() {
      if (timer) return;
      timer = setInterval(round, intervalMs);
      timer.unref();
      round();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
