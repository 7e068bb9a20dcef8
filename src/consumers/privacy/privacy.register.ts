import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { createErasure } from './erasure.service.js';
import { erasureAdminRoutes, erasureRoutes } from './privacy.routes.js';

/** Buyers' personal data: erased on their request, by the account or the operator (docs/data-lifecycle.md). */
export function registerPrivacy(host: Host, { db, clock }: { db: Db; clock: Clock }) {
  const erasure = createErasure({ db, recordAudit: auditRecorder(clock) });
  host.routes?.add('account', erasureRoutes(erasure));
  host.routes?.add('admin', erasureAdminRoutes(erasure));
}
