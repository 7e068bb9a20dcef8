import { custom } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';
import { ConfigError } from '../../base/config-error.js';

export const labelSettings = defineSettings({
  urlTtlSeconds: custom('LABEL_URL_TTL_SECONDS', {
    doc: 'how long a label link stays valid',
    type: 'seconds',
    range: '60 to 2592000',
    default: 24 * 60 * 60,
    parse(raw) {
      const ttl = Number(raw);
      if (!/^\d+$/.test(raw) || ttl < 60 || ttl > 30 * 86400) {
        throw new ConfigError(
          `LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "${raw}"`,
        );
      }
      return ttl;
    },
  }),
});

export type LabelSettings = SettingsOf<typeof labelSettings>;
