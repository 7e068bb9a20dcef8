import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { createWorker, type Worker } from '../../events/worker.js';
import type { RecordAudit } from '../../tenancy/audit/audit.js';
import type { PrivacySettings } from './privacy.settings.js';

/** What the module's background jobs are built with. */
export interface PrivacyJobDeps {
  db: Db;
  clock: Clock;
  settings: PrivacySettings;
  recordAudit: RecordAudit;
  onError: (error: unknown) => void;
}

/** How a background run goes: with pauses between its batches, stopped by the process's end. */
export interface RunOptions {
  pauseMs?: number;
  signal?: AbortSignal;
}

/** Anonymisation and deletion fall due days after the fact: an hourly look is prompt enough. */
export const PRIVACY_JOB_INTERVAL_MS = 60 * 60_000;

/** A job run every PRIVACY_JOB_INTERVAL_MS by the process that runs the timers, with pauses of `pauseMs`. */
export function hourlyJob(
  name: string,
  run: (options: RunOptions) => Promise<unknown>,
  pauseMs: number,
  onError: (error: unknown) => void,
): Worker {
  return createWorker(
    [
      {
        name,
        run: async (signal) => {
          await run({ pauseMs, signal });
          return false;
        },
      },
    ],
    { pollIntervalMs: PRIVACY_JOB_INTERVAL_MS, onError: (_task, error) => onError(error) },
  );
}
