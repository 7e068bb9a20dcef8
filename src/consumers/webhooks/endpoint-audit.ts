import type { Db } from '../../base/db/client.js';
import { urlForLog } from '../../http/log-privacy.js';
import { type OutboundRules, refusalOf } from '../../base/outbound/outbound-url.js';
import * as repo from './webhooks.repository.js';

/** Lookups at once: a server with many endpoints should not flood its resolver at start-up. */
const AT_ONCE = 8;

export type AuditWarn = (
  fields: { webhook_endpoint: string; account: string; url: string; reason: string },
  message: string,
) => void;

/**
 * Reads the enabled endpoints and returns the check of their URLs against the server's settings,
 * which warns once per endpoint the settings refuse (one registered while WEBHOOK_ALLOW_HTTP or
 * WEBHOOK_ALLOW_PRIVATE was on, say), since every delivery to it will fail. The read is awaited by
 * the caller; the check resolves host names, so it may run on in the background.
 */
export async function auditEndpoints(db: Db, rules: OutboundRules, warn: AuditWarn): Promise<() => Promise<void>> {
  const endpoints = await repo.enabledEndpointsOfAllAccounts(db);
  return async () => {
    for (let i = 0; i < endpoints.length; i += AT_ONCE) {
      await Promise.all(
        endpoints.slice(i, i + AT_ONCE).map(async ({ id, accountId, url }) => {
          const reason = await refusalOf(url, rules);
          if (reason === null) return;
          const shown = urlForLog(url);
          warn(
            { webhook_endpoint: id, account: accountId, url: shown, reason },
            `webhook endpoint ${id} (${shown}) is refused by this server's settings and every delivery to it fails: ${reason}`,
          );
        }),
      );
    }
  };
}
