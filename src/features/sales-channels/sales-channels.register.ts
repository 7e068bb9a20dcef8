import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { Resolver } from '../../base/outbound/outbound-url.js';
import { createChannelAdapters } from '../../channels/channel-registry.js';
import type { ChannelSettings } from '../../channels/channels.settings.js';
import { createWorker } from '../../events/worker.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import type { StoresService } from '../../tenancy/stores/stores.service.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { CancelShipment, ImportChannelOrder } from '../contracts.js';
import { type ChannelIntake, createChannelIntake } from './channel-intake.js';
import { channelWebhookRoutes, salesChannelsRoutes } from './sales-channels.routes.js';
import { createSalesChannelsService } from './sales-channels.service.js';
import type { SalesChannelSettings } from './sales-channels.settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sales channels' intake; tests run its rounds with app.channelIntake.round(). */
    channelIntake: ChannelIntake;
  }
}

export interface SalesChannelsContext {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  lookup?: Resolver;
  settings: {
    server: ServerSettings;
    outbound: OutboundSettings;
    channels: ChannelSettings;
    salesChannels: SalesChannelSettings;
  };
  stores: Pick<StoresService, 'find' | 'setChannel'>;
  warehouses: Pick<WarehousesService, 'list' | 'requireForOrder'>;
  /** Orders': a store's order made a forward order (and booked, when the channel says so). */
  importChannelOrder: ImportChannelOrder;
  /** Orders': a store's cancellation cancels the Dakiya shipment while it can be. */
  cancelShipment: CancelShipment;
}

/**
 * Sales channels: connecting stores (routes), the webhooks they post (public), and the intake that
 * pulls and imports their orders, on a worker where timers run (one process of a cluster); a
 * webhook or a connection anywhere else waits for its next poll.
 */
export function registerSalesChannels(host: Host, ctx: SalesChannelsContext) {
  const { db, clock, settings } = ctx;
  const adapters = createChannelAdapters(settings.channels, { ...settings.outbound, lookup: ctx.lookup });
  const intake = createChannelIntake({
    db,
    clock,
    box: ctx.secretBox,
    adapters,
    importOrder: ctx.importChannelOrder,
    cancelShipment: ctx.cancelShipment,
    pullEveryMs: settings.salesChannels.pullSeconds * 1000,
    warn: (message, error) => host.log.warn({ err: error }, message),
  });
  // One round takes whatever is due; the worker comes back at its poll or when woken.
  const intakeRound = async () => {
    await intake.round();
    return false;
  };
  const worker = host.timers
    ? createWorker([{ name: 'sales channel intake', run: intakeRound }], {
        pollIntervalMs: settings.salesChannels.pollMs,
        onError: (task, error) => host.log.error({ err: error, task }, 'sales channel intake failed'),
      })
    : undefined;
  if (worker) {
    host.onReady(() => worker.start());
    host.onClose(() => worker.stop());
  }
  const wake = () => worker?.wake();
  const service = createSalesChannelsService({
    db,
    clock,
    box: ctx.secretBox,
    adapters,
    stores: ctx.stores,
    warehouses: ctx.warehouses,
    publicBaseUrl: settings.server.publicBaseUrl,
    wake,
    warn: (message, error) => host.log.warn({ err: error }, message),
  });
  host.expose('channelIntake', intake);
  host.routes?.add('account', salesChannelsRoutes(service));
  host.routes?.add('public', channelWebhookRoutes(intake, wake));
}
