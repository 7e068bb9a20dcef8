import { baseUrl, fixed } from '../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../base/settings.js';

/** How Dakiya reaches the stores' platforms. */
export const channelSettings = defineSettings({
  shopifyBaseUrl: baseUrl('SHOPIFY_BASE_URL', {
    doc: "replaces `https://{shop_domain}` in every call to Shopify's Admin API, for tests and simulators (`npm run demo` points it at its own); unset, each shop is asked at its own domain",
    default: undefined,
  }),
  shopifyApiVersion: fixed(
    '2025-01',
    'The Admin API version Dakiya speaks: pinned, since Shopify keeps each one a year and changes fields between them.',
  ),
  timeoutMs: fixed(15_000, 'One call to a store must end within this.'),
});

export type ChannelSettings = SettingsOf<typeof channelSettings>;
