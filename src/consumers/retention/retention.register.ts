import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { IDEMPOTENCY_KEY_KEEP_MS } from '../../http/idempotency.js';
import { retentionAdminRoutes } from './retention.routes.js';
import { createRetention, type Retention } from './retention.service.js';
import type { RetentionSettings } from './retention.settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Prunes the tables that grow with traffic to their periods; tests run it by hand. */
    retention: Retention;
  }
}

/** Retention: the tables that grow with traffic, kept to their periods by a background job and on demand. */
export function registerRetention(
  host: Host,
  { db, clock, settings }: { db: Db; clock: Clock; settings: { retention: RetentionSettings } },
) {
  const retention = createRetention({
    db,
    clock,
    settings: settings.retention,
    idempotencyKeyKeepMs: IDEMPOTENCY_KEY_KEEP_MS,
    onError: (error) => host.log.error({ err: error }, 'pruning failed'),
    onJobPruned: (run) => host.log.info(run, 'pruning job: rows past their periods removed'),
  });
  host.expose('retention', retention);
  host.runPeriodically(retention.worker);
  host.routes?.add('admin', retentionAdminRoutes(retention));
}
