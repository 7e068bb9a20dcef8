import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { healthRoutes } from './health.routes.js';

/** /healthz and /readyz. */
export function registerHealth(host: Host, { db }: { db: Db }) {
  host.routes?.add('site', healthRoutes(db));
}
