import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { auditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';

/** The audit log's reading route; its writing is each module's, through the recorder it is handed. */
export function registerAudit(host: Host, { db }: { db: Db }) {
  host.routes?.add('account', auditRoutes(createAuditService({ db })));
}
