import type { Host } from '../../http/host.js';
import { createAutoDecide } from './auto-decide.js';
import { createReturnRequestDecisions, type ReturnRequestDecisionsContext } from './return-request-decisions.js';
import { returnRequestsRoutes } from './return-requests.routes.js';
import { createReturnPolicyService } from './return-policy.service.js';
import {
  createReturnRequestsService,
  type ReturnRequestsContext as RequestsContext,
} from './return-requests.service.js';

export type ReturnRequestsContext = ReturnRequestDecisionsContext & RequestsContext;

/** Returns the buyer asks for: each store's policy, and the requests (docs/returns.md). */
export function registerReturnRequests(host: Host, ctx: ReturnRequestsContext) {
  const policies = createReturnPolicyService(ctx);
  const decisions = createReturnRequestDecisions(ctx);
  const requests = createReturnRequestsService(ctx, createAutoDecide(decisions));
  host.routes?.add('account', returnRequestsRoutes(policies, requests, decisions));
  return requests;
}
