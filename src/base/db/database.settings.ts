import path from 'node:path';
import { text, url } from '../setting-kinds.js';
import { defineSettings, type SettingsOf } from '../settings.js';

/** Which database: a PostgreSQL server, or the embedded one in a directory of this machine. */
export const databaseSettings = defineSettings(
  {
    dataDir: text('DATA_DIR', {
      doc: 'where the embedded database (`DATA_DIR/pglite`) and its lock file live, and the key file that seals credentials when SECRETS_KEY is not set (`DATA_DIR/secrets.key`)',
      default: './data',
    }),
    databaseUrl: url('DATABASE_URL', {
      doc: 'a PostgreSQL server (`postgres://…`); when set, the embedded database is not used',
      protocols: ['postgres:', 'postgresql:'],
    }),
  },
  // Relative to the directory the process starts in, once: the process never changes directory.
  (values) => ({ ...values, dataDir: path.resolve(values.dataDir) }),
);

export type DatabaseSettings = SettingsOf<typeof databaseSettings>;
