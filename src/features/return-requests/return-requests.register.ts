import type { Host } from '../../http/host.js';
import { returnRequestsRoutes } from './return-requests.routes.js';
import { createReturnPolicyService } from './return-policy.service.js';

export type ReturnRequestsContext = Parameters<typeof createReturnPolicyService>[0];

/** Returns the buyer asks for: each store's policy so far (docs/returns.md). */
export function registerReturnRequests(host: Host, ctx: ReturnRequestsContext) {
  const policies = createReturnPolicyService(ctx);
  host.routes?.add('account', returnRequestsRoutes(policies));
  return policies;
}
