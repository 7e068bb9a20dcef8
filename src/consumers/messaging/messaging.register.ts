import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../base/clock.js';
import { DEFAULT_LEASE_MARGIN_MS, DEFAULT_MESSAGE_RETRY_DELAYS, DEFAULT_SMS_BASE_URL, DEFAULT_WHATSAPP_BASE_URL, DEFAULT_WORKER_POLL_INTERVAL_MS, EVENT_BATCH_WINDOW_MS, MESSAGE_TIMEOUT_MS } from '../../base/config.js';
import type { Db } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { EventLog } from '../../events/event-log.js';
import { createWorker } from '../../events/worker.js';
import type { CancelShipment, ConvertToPrepaid, NdrBuyerAnswer } from '../../features/contracts.js';
import type { SendSettings } from './channel-config.js';
import { createMessagingService } from './messaging.service.js';
import { messagingTasks } from './messaging.worker.js';

export interface MessagingSettings extends SendSettings {
  /** Run from this process (WEBHOOK_WORKER, as webhooks and e-mails). */
  worker: boolean;
  pollIntervalMs: number;
  retryDelaysSeconds: readonly number[];
  leaseMarginMs: number;
}

export const DEFAULT_MESSAGING: MessagingSettings = {
  worker: true,
  pollIntervalMs: DEFAULT_WORKER_POLL_INTERVAL_MS,
  whatsappBaseUrl: DEFAULT_WHATSAPP_BASE_URL,
  smsBaseUrl: DEFAULT_SMS_BASE_URL,
  smtpUrl: undefined,
  mailFrom: undefined,
  timeoutMs: MESSAGE_TIMEOUT_MS,
  retryDelaysSeconds: DEFAULT_MESSAGE_RETRY_DELAYS,
  leaseMarginMs: DEFAULT_LEASE_MARGIN_MS,
};

/**
 * Buyer messaging's service and (unless settings.worker is false) its in-process worker: it plans
 * confirmations from the event log, sends buyer messages with retries and closes windows that ran
 * out. Started when the app is ready, stopped (waiting for its round) on close.
 */
export function installMessaging(
  app: FastifyInstance,
  deps: { db: Db; workerDb?: Db; clock: Clock; events: EventLog; box: SecretBox; publicBaseUrl: string; cancelShipment: CancelShipment; convertToPrepaid: ConvertToPrepaid; ndrBuyerAnswer: NdrBuyerAnswer },
  settings: MessagingSettings,
) {
  const { db, workerDb = db, clock, events, box, publicBaseUrl } = deps;
  if (settings.worker) {
    const { tasks } = messagingTasks({ db: workerDb, clock, events, box, send: settings, publicBaseUrl, retryDelaysSeconds: settings.retryDelaysSeconds, leaseMarginMs: settings.leaseMarginMs });
    const worker = createWorker(tasks, {
      pollIntervalMs: settings.pollIntervalMs,
      batchWindowMs: EVENT_BATCH_WINDOW_MS,
      onError: (task, error) => app.log.error({ err: error, task }, 'buyer messaging worker task failed'),
    });
    events.onRecorded(() => worker.wake());
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }
  return createMessagingService({ db, clock, box, events, send: settings, publicBaseUrl, cancelShipment: deps.cancelShipment, convertToPrepaid: deps.convertToPrepaid, ndrBuyerAnswer: deps.ndrBuyerAnswer });
}
