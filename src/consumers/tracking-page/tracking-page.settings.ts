import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const trackingPageSettings = defineSettings({
  // Far above a customer's reloads, even many behind one carrier NAT, far below a scraper walking tokens.
  ratePerMinute: count('TRACKING_PAGE_RATE_PER_MINUTE', {
    doc: "requests per minute per client address on the customers' tracking page (`/t/…`) and the stores' pages (`/track/…`); `0` turns the limit off",
    default: 300,
    min: 0,
    max: 100_000_000,
  }),
});

export type TrackingPageSettings = SettingsOf<typeof trackingPageSettings>;
