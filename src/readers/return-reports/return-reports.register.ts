import type { Host } from '../../http/host.js';
import { returnReportsRoutes } from './return-reports.routes.js';
import { createReturnReportsService } from './return-reports.service.js';

/** Return rates and refunds outstanding (docs/returns.md). */
export function registerReturnReports(host: Host, ctx: Parameters<typeof createReturnReportsService>[0]) {
  host.routes?.add('account', returnReportsRoutes(createReturnReportsService(ctx)));
}
