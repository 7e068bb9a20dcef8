import { seconds } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** The tracking intake's settings. */
export const trackingSettings = defineSettings({
  earlyScanSeconds: seconds('SCAN_EARLY_TOLERANCE_SECONDS', {
    doc:
      "how long before its booking a courier's scan may be stamped and still be applied: couriers cut times to the second, " +
      'often send them without a zone, and their clocks drift. Such a scan is placed just after the booking in the history, ' +
      'its own time kept (`stated_time`); an earlier one is kept unapplied for the operator (docs/couriers.md)',
    default: 900,
    min: 0,
    max: 86400,
  }),
});

export type TrackingSettings = SettingsOf<typeof trackingSettings>;
