import { count, fixed } from '../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../base/settings.js';

/** How the event log's workers lease their jobs and how often they look for work. */
export const workerSettings = defineSettings({
  // Room to record the outcome, so a live worker never loses its job to another; also how long past
  // that a job a dead process held waits before another process sends it.
  leaseMarginMs: count('WORKER_LEASE_MARGIN_MS', {
    doc: 'how much longer than a send can take (10 s for a webhook, 3 × 30 s for an e-mail) a worker holds a delivery or an e-mail, in milliseconds; a job held by a process that died is sent again by another once this has passed too. Tests set it short',
    default: 30_000,
    min: 100,
    max: 3_600_000,
  }),
  pollIntervalMs: fixed(
    1000,
    'How often an idle worker looks for new events and due jobs (a local change wakes it sooner).',
  ),
  /**
   * The customer e-mail, buyer messaging and NDR-rule workers take the events of this long together
   * rather than running a round per booking (events/worker.ts): nobody waits on them within a
   * second, and under a sale their rounds cost the API process more CPU than the bookings that woke them.
   */
  batchWindowMs: fixed(250, 'How long a batching worker gathers events before its round.'),
});

export type WorkerSettings = SettingsOf<typeof workerSettings>;
