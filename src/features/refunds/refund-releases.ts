import { REFUND_RELEASES, refundReleased } from '../../domain/return-requests/refund-rules.js';
import type { ReturnChangeListener } from '../contracts.js';
import type { RefundsService } from './refunds.service.js';

/**
 * What a refund does when its return moves (docs/returns.md): the tracking intake tells it in the
 * scan's transaction, so a refund falls due with the very scan that met the store's rule.
 */
export const refundReleases =
  (refunds: Pick<RefundsService, 'release'>): ReturnChangeListener =>
  async (tx, accountId, returnId, state, now) => {
    const met = REFUND_RELEASES.filter((release) => refundReleased(release, state));
    await refunds.release(tx, accountId, returnId, met, now);
  };
