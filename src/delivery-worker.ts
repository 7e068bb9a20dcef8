import type { Logger } from 'pino';
import { eventLogOf, openSealing } from './app-context.js';
import { systemClock } from './base/clock.js';
import type { Db } from './base/db/client.js';
import { postgresSignal } from './base/db/signal.js';
import { registerChannelWriteback } from './consumers/channel-writeback/channel-writeback.register.js';
import { registerMessaging } from './consumers/messaging/messaging.register.js';
import { registerNotifications } from './consumers/notifications/notifications.register.js';
import { registerWebhooks } from './consumers/webhooks/webhooks.register.js';
import { loadRatesContext } from './data-files.js';
import { separateDelivery } from './events/delivery.js';
import { backgroundHost } from './http/host.js';
import type { Settings } from './settings.js';

export interface DeliveryWorker {
  /** Aborts the sends in flight (their leases run out and they are sent again) and ends the round. */
  stop(): Promise<void>;
}

/**
 * The senders of the event log's outside effects, webhooks, customer e-mails, buyer messages and
 * the sales channels' write-back, on a database of their own: `npm run worker` runs them in a
 * process, and on PostgreSQL each API process runs them in a thread of its own (delivery-thread.ts,
 * decision 105). The same registrars as the API's, on a host with no routes: only their senders
 * run. Woken by the API processes' NOTIFY; keepAlive when they are all the process does.
 */
export async function startDeliveryWorker({
  settings,
  db,
  log,
  keepAlive,
  checkEndpoints,
}: {
  settings: Settings;
  db: Db;
  log: Logger;
  keepAlive: boolean;
  /** Warn of endpoints the settings now refuse: npm run worker does; an API process's thread leaves it to the API, which does it already. */
  checkEndpoints: boolean;
}): Promise<DeliveryWorker> {
  // Buyer messaging records events (confirmation sent, no response): with the snapshots the API's log takes.
  const rates = loadRatesContext({ couriersFile: settings.couriers.catalogueFile });
  const signal = settings.database.databaseUrl
    ? postgresSignal(settings.database.databaseUrl, (error) => log.warn({ err: error }, 'event signal connection lost'))
    : undefined;
  const host = backgroundHost(log);
  // Webhooks run in rounds of their own, beside the e-mails' and messages': theirs is the latency
  // merchants wait on (issue 27), and in one worker a fan-out waited for the round's customer e-mails
  // to be composed and kept before it could run again. The e-mails and messages take the events of
  // the batch window together, as they do in process: apart from the webhooks, nothing made them
  // run a round for every few bookings, and those rounds cost more than the split saved.
  const delivery = separateDelivery(host, { db, keepAlive, pace: settings.workers });
  // The key the API processes seal with; npm run worker says what the operator should know of it.
  // Its first statement is the worker's first: a database that refuses it leaves nothing open.
  const secretBox = await openSealing(host, db, settings, {
    keyDir: settings.database.dataDir,
    speak: checkEndpoints,
  }).catch(async (error: unknown) => {
    await signal?.close();
    throw error;
  });
  const ctx = {
    db,
    clock: systemClock,
    settings,
    events: eventLogOf(rates, settings, signal),
    delivery,
    secretBox,
    checkEndpoints,
  };
  registerWebhooks(host, ctx);
  registerMessaging(host, ctx);
  registerNotifications(host, ctx);
  registerChannelWriteback(host, ctx);
  // Woken when an API process records events, rather than at the next poll.
  signal?.onSignal(() => delivery.wakeAll());
  await host.start();
  return {
    async stop() {
      await host.close();
      await signal?.close();
    },
  };
}
