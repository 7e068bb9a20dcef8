import type { OutboundRules } from '../base/outbound/outbound-url.js';
import type { ChannelAdapter, ChannelName } from './channel-adapter.js';
import { createChannelHttp } from './channel-http.js';
import type { ChannelSettings } from './channels.settings.js';
import { createShopifyAdapter } from './shopify.adapter.js';
import { createWooCommerceAdapter } from './woocommerce.adapter.js';

export type ChannelAdapters = Readonly<Record<ChannelName, ChannelAdapter>>;

export const CHANNEL_NAMES: readonly ChannelName[] = ['shopify', 'woocommerce'];

/** One adapter per platform, every call through the outbound guard with the operator's rules. */
export function createChannelAdapters(settings: ChannelSettings, rules: OutboundRules): ChannelAdapters {
  const http = createChannelHttp({ rules, timeoutMs: settings.timeoutMs });
  return {
    shopify: createShopifyAdapter({ http, apiVersion: settings.shopifyApiVersion, baseUrl: settings.shopifyBaseUrl }),
    woocommerce: createWooCommerceAdapter({ http }),
  };
}
