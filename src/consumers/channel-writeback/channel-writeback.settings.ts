import { delays } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** About 10 s, 1 min, 5 min, 30 min, 2 h, 6 h: a store down for an afternoon still hears of its parcels. */
export const DEFAULT_CHANNEL_RETRY_DELAYS: readonly number[] = [10, 60, 300, 1800, 7200, 21600];

/** How the write-back to sales channels (fulfilments, scans, cancellations) is retried. */
export const channelWritebackSettings = defineSettings({
  retryDelaysSeconds: delays('CHANNEL_RETRY_DELAYS', {
    doc: "seconds between attempts to tell a sales channel (Shopify, WooCommerce) of a shipment's fulfilment, scans or cancellation; one attempt more than there are delays. A call the store rejected (an order it does not have) is not made again; one whose credentials it refused waits the longest delay each time, for the merchant to reconnect",
    default: DEFAULT_CHANNEL_RETRY_DELAYS,
  }),
});

export type ChannelWritebackSettings = SettingsOf<typeof channelWritebackSettings>;
