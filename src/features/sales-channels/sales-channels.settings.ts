import { fixed, seconds } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

export const salesChannelSettings = defineSettings({
  pullSeconds: seconds('CHANNEL_PULL_SECONDS', {
    doc: "how often each connected sales channel's orders waiting to ship are pulled, to catch what its webhooks missed (a store offline, a webhook the platform paused); connecting, and `POST /channels/{id}/sync`, pull at once",
    default: 900,
    min: 1,
    max: 86_400,
  }),
  pollMs: fixed(5_000, 'How often the intake looks for store orders to import when nothing wakes it.'),
});

export type SalesChannelSettings = SettingsOf<typeof salesChannelSettings>;
