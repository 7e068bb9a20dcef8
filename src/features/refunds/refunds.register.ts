import type { Host } from '../../http/host.js';
import { refundReleases } from './refund-releases.js';
import { refundsRoutes } from './refunds.routes.js';
import { createRefundsService, type RefundsContext } from './refunds.service.js';

/** Refunds of approved return requests (docs/returns.md): recorded, released by the return's scans, paid by the merchant. */
export function registerRefunds(host: Host, ctx: RefundsContext) {
  const refunds = createRefundsService(ctx);
  host.routes?.add('account', refundsRoutes(refunds));
  return { open: refunds.open, onReturnChange: refundReleases(refunds) };
}
