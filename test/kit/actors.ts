import type { Actor } from '../../src/domain/access/permissions.js';

/** The account's own login acting, as a route hands a service the request's actor (`actorOf`). */
export const asAccount = (accountId: string): Actor => ({ accountId, scopes: null, memberId: null });
