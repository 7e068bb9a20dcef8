import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { anonymisationAdminRoutes, privacySettingsRoutes } from './anonymisation.routes.js';
import { type Anonymisation, createAnonymisation } from './anonymisation.service.js';
import { createErasure } from './erasure.service.js';
import { erasureAdminRoutes, erasureRoutes } from './privacy.routes.js';
import type { PrivacySettings } from './privacy.settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Anonymises finished shipments' buyers once due; tests run it by hand. */
    anonymisation: Anonymisation;
  }
}

/**
 * Buyers' personal data (docs/data-lifecycle.md): erased on their request, by the account or the
 * operator, and anonymised by a background job once their shipments have been finished a while.
 */
export function registerPrivacy(
  host: Host,
  { db, clock, settings }: { db: Db; clock: Clock; settings: { privacy: PrivacySettings } },
) {
  const recordAudit = auditRecorder(clock);
  const erasure = createErasure({ db, clock, recordAudit });
  const anonymisation = createAnonymisation({
    db,
    clock,
    settings: settings.privacy,
    recordAudit,
    onError: (error) => host.log.error({ err: error }, 'anonymisation failed'),
  });
  host.expose('anonymisation', anonymisation);
  host.runPeriodically(anonymisation.worker);
  host.routes?.add('account', erasureRoutes(erasure));
  host.routes?.add('account', privacySettingsRoutes(anonymisation));
  host.routes?.add('admin', erasureAdminRoutes(erasure));
  host.routes?.add('admin', anonymisationAdminRoutes(anonymisation));
}
