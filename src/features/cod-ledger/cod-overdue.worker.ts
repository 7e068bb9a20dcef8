import type { FastifyBaseLogger } from 'fastify';
import { createPeriodicCheck, type PeriodicCheck } from '../../base/periodic-check.js';
import type { CodLedger } from './cod-ledger.service.js';

/** How often each API process looks: dates are whole days, so an hour late is prompt enough. Not a setting: tests call runOnce(). */
export const COD_OVERDUE_CHECK_INTERVAL_MS = 3_600_000;

export type OverdueCheck = PeriodicCheck;

/** Looks for delivered COD cash still unpaid past its expected day; each receivable is recorded once (a unique key). */
export function createOverdueCheck(
  ledger: Pick<CodLedger, 'checkOverdue'>,
  intervalMs: number,
  log: FastifyBaseLogger,
): OverdueCheck {
  return createPeriodicCheck(
    () => ledger.checkOverdue(),
    intervalMs,
    (error) => log.error({ err: error }, 'COD overdue check failed'),
  );
}
