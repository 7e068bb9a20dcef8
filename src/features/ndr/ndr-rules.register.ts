import type { FastifyInstance } from 'fastify';
import { DEFAULT_WORKER_POLL_INTERVAL_MS, EVENT_BATCH_WINDOW_MS } from '../../base/config.js';
import { createWorker } from '../../events/worker.js';
import { createNdrRules } from './ndr-rules.worker.js';

/**
 * The NDR rules (ndr-rules.worker.ts): their consumer's cursor starts when the app is ready, and
 * unless `run` is false (tests call runOnce) an in-process worker plans and carries them out,
 * woken by each event recorded here; it stops on app.close().
 */
export function installNdrRules(app: FastifyInstance, deps: Parameters<typeof createNdrRules>[0], run: boolean) {
  const ndrRules = createNdrRules(deps);
  app.addHook('onReady', ndrRules.register);
  if (run) {
    const worker = createWorker(ndrRules.tasks, {
      pollIntervalMs: DEFAULT_WORKER_POLL_INTERVAL_MS,
      batchWindowMs: EVENT_BATCH_WINDOW_MS,
      onError: (task, error) => app.log.error({ err: error, task }, 'NDR rules task failed'),
    });
    deps.events.onRecorded(() => worker.wake());
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', () => worker.stop());
  }
  return ndrRules;
}
