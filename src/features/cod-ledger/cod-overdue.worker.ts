import type { FastifyBaseLogger } from 'fastify';
import type { CodLedger } from './cod-ledger.service.js';

/** How often each API process looks: dates are whole days, so an hour late is prompt enough. Not a setting: tests call runOnce(). */
export const COD_OVERDUE_CHECK_INTERVAL_MS = 3_600_000;

export interface OverdueCheck {
  /** One check now; answers how many receivables it found overdue for the first time. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Looks for delivered COD cash still unpaid past its expected day, on a timer in every API
 * process. Each receivable is recorded once (a unique key), so processes running it at once, or a
 * check repeated after a crash, find nothing twice; a missed round is caught by the next one.
 */
export function createOverdueCheck(ledger: Pick<CodLedger, 'checkOverdue'>, intervalMs: number, log: FastifyBaseLogger): OverdueCheck {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const round = () => {
    running = ledger.checkOverdue().catch((error: unknown) => log.error({ err: error }, 'COD overdue check failed'));
  };
  return {
    runOnce: () => ledger.checkOverdue(),
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
