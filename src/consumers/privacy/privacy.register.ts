import path from 'node:path';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { DatabaseSettings } from '../../base/db/database.settings.js';
import type { Host } from '../../http/host.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { accountDeletionAdminRoutes, accountDeletionRoutes } from './account-deletion.routes.js';
import { type AccountDeletion, createAccountDeletion } from './account-deletion.service.js';
import { accountExportRoutes } from './account-export.routes.js';
import { type AccountExports, createAccountExports } from './account-export.service.js';
import { anonymisationAdminRoutes, privacySettingsRoutes } from './anonymisation.routes.js';
import { compactionAdminRoutes } from './compaction.routes.js';
import { type Anonymisation, createAnonymisation } from './anonymisation.service.js';
import { createErasure } from './erasure.service.js';
import { erasureAdminRoutes, erasureRoutes } from './privacy.routes.js';
import type { PrivacySettings } from './privacy.settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Anonymises finished shipments' buyers once due; tests run it by hand. */
    anonymisation: Anonymisation;
    /** Deletes accounts whose deletion fell due; tests run it by hand. */
    accountDeletion: AccountDeletion;
    /** Writes the accounts' exports asked for, and deletes expired ones; tests run it by hand. */
    accountExports: AccountExports;
  }
}

/**
 * Buyers' personal data and accounts' end (docs/data-lifecycle.md): a buyer erased on their
 * request, by the account or the operator, and anonymised by a background job once their shipments
 * have been finished a while; an account deleted whole after its owner asked and a grace period,
 * and exported whole, as an archive written in the background to DATA_DIR/exports.
 */
export function registerPrivacy(
  host: Host,
  { db, clock, settings }: { db: Db; clock: Clock; settings: { privacy: PrivacySettings; database: DatabaseSettings } },
) {
  const recordAudit = auditRecorder(clock);
  const anonymisation = createAnonymisation({
    db,
    clock,
    settings: settings.privacy,
    recordAudit,
    onError: (error) => host.log.error({ err: error }, 'anonymisation failed'),
  });
  const accountExports = createAccountExports({
    db,
    clock,
    dir: path.join(settings.database.dataDir, 'exports'),
    keepHours: settings.privacy.accountExportKeepHours,
    recordAudit,
    onError: (error) => host.log.error({ err: error }, 'account export failed'),
  });
  const erasure = createErasure({ db, clock, recordAudit, removeArchives: accountExports.removeArchives });
  const accountDeletion = createAccountDeletion({
    db,
    clock,
    settings: settings.privacy,
    recordAudit,
    onError: (error) => host.log.error({ err: error }, 'account deletion failed'),
    removeFiles: accountExports.removeFilesOf,
  });
  host.expose('anonymisation', anonymisation);
  host.expose('accountDeletion', accountDeletion);
  host.expose('accountExports', accountExports);
  host.runPeriodically(anonymisation.worker);
  host.runPeriodically(accountDeletion.worker);
  host.runPeriodically(accountExports.worker);
  host.runPeriodically(accountExports.expiry);
  host.routes?.add('account', erasureRoutes(erasure));
  host.routes?.add('account', privacySettingsRoutes(anonymisation));
  host.routes?.add('admin', erasureAdminRoutes(erasure));
  host.routes?.add('admin', anonymisationAdminRoutes(anonymisation));
  host.routes?.add('admin', compactionAdminRoutes(db));
  host.routes?.add('account', accountDeletionRoutes(accountDeletion));
  host.routes?.add('admin', accountDeletionAdminRoutes(accountDeletion));
  host.routes?.add('account', accountExportRoutes(accountExports));
}
