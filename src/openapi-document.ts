import { buildApp } from './app.js';
import { openPglite } from './base/db/client.js';
import { migrate } from './base/db/migrate.js';
import { defaultSettings } from './settings.js';

/**
 * The OpenAPI document exactly as a running server answers it at /openapi.json, made from an app
 * on a throwaway in-memory database: the panel's API client is generated from it at build time.
 */
export async function openApiDocument(): Promise<string> {
  const database = await openPglite();
  try {
    await migrate(database.db);
    const app = await buildApp({ db: database.db, settings: defaultSettings(), timers: false, delivery: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/openapi.json' });
      return `${JSON.stringify(JSON.parse(response.body), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
