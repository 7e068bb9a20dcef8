import type { Clock } from '../../base/clock.js';
import type { OutboundRules, Resolver } from '../../base/outbound/outbound-url.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { SecretBox } from '../../base/secret-box.js';
import { createChannelAdapters } from '../../channels/channel-registry.js';
import type { ChannelSettings } from '../../channels/channels.settings.js';
import type { Delivery } from '../../events/delivery.js';
import type { WorkerSettings } from '../../events/workers.settings.js';
import type { Host } from '../../http/host.js';
import type { ChannelWritebackSettings } from './channel-writeback.settings.js';
import { channelWritebackTasks } from './channel-writeback.worker.js';

export interface ChannelWritebackContext {
  clock: Clock;
  delivery: Delivery;
  secretBox: SecretBox;
  settings: {
    channels: ChannelSettings;
    channelWriteback: ChannelWritebackSettings;
    outbound: OutboundSettings;
    workers: WorkerSettings;
  };
  /** How the stores' hosts are resolved: the system's resolver unless a test names its own hosts. */
  lookup?: Resolver;
}

/**
 * The sales channels' write-back (issue 49): the senders (where the delivery runs here) that turn
 * the shipment events of store orders into jobs and tell the stores: fulfilments with the AWB and
 * tracking link, scans, cancellations. No routes: a channel's health is the intake's to show.
 */
export function registerChannelWriteback(
  host: Host,
  { clock, delivery, secretBox, settings, lookup }: ChannelWritebackContext,
) {
  const rules: OutboundRules = { ...settings.outbound, lookup };
  const failed = 'channel write-back task failed';
  delivery.run(
    'channel-writeback',
    () =>
      channelWritebackTasks({
        db: delivery.db,
        clock,
        adapters: createChannelAdapters(settings.channels, rules),
        secretBox,
        retryDelaysSeconds: settings.channelWriteback.retryDelaysSeconds,
        callTimeoutMs: settings.channels.timeoutMs,
        leaseMarginMs: settings.workers.leaseMarginMs,
        onError: (error) => host.log.error({ err: error, task: 'channel write-back sends' }, failed),
      }),
    { batched: true, failed },
  );
}
