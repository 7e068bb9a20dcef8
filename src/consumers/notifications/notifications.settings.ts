import { delays, fixed } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const notificationSettings = defineSettings({
  retryDelaysSeconds: delays('MAIL_RETRY_DELAYS', {
    doc: 'seconds between attempts at an e-mail the SMTP server refused or could not take; one attempt more than there are delays, then it is `failed`',
    // About 1 min, 5 min, 30 min, 2 h, 6 h.
    default: [60, 300, 1800, 7200, 21600],
  }),
  timeoutMs: fixed(30_000, 'One SMTP exchange (connect, greet, authenticate, send) must end within this.'),
});

export type NotificationSettings = SettingsOf<typeof notificationSettings>;
