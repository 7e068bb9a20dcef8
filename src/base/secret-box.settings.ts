import { text } from './setting-kinds.js';
import { defineSettings, type SettingsOf } from './settings.js';

export const secretSettings = defineSettings({
  key: text('SECRETS_KEY', {
    doc: "seals the credentials accounts store: couriers' (`PUT /courier-connections/{connector}/credentials`) and buyer-messaging channels' (WhatsApp access token, app secret and verify token, MSG91 auth key), with AES-256-GCM; any text of at least 32 characters (`openssl rand -base64 32`), hashed to the key. The key is never in the database: **back the key (or the key file) up apart from the database**, since a backup holding both opens every credential, and one without the key opens none. Without `SECRETS_KEY` a warning at start-up says where the key is; on PostgreSQL set it, so that every process (`npm run worker`, other machines, a container whose `DATA_DIR` is not a volume) has the same key: a server whose key file is missing while the database holds credentials sealed under another key does not start ([docs/operations.md](docs/operations.md#the-key-that-seals-credentials)). An install that kept the key in the database (before this version) has its credentials re-sealed under this key and that row deleted at start. Changing the key makes stored credentials unreadable: they read as not set until entered again. Never logged",
    shownDefault: '— (the key file `DATA_DIR/secrets.key`, made at first start, mode 0600)',
    range: 'at least 32 characters',
    check: (key) =>
      key.length < 32 ? 'SECRETS_KEY must be at least 32 characters long (e.g. openssl rand -base64 32)' : undefined,
  }),
});

export type SecretSettings = SettingsOf<typeof secretSettings>;
