import { REFUND_RELEASES, refundCancelled, refundReleased } from '../../domain/return-requests/refund-rules.js';
import type { ReturnChangeListener } from '../contracts.js';
import type { RefundsService } from './refunds.service.js';

/**
 * What a refund does when its return moves (docs/returns.md): the tracking intake tells it in the
 * scan's transaction, so a refund falls due with the very scan that met the store's rule, and is
 * cancelled with the pickup's cancellation (the merchant's goes through the intake too).
 */
export const refundReleases =
  (refunds: Pick<RefundsService, 'release' | 'cancelWithReturn'>): ReturnChangeListener =>
  async (tx, accountId, returnId, state, now) => {
    if (refundCancelled(state)) return refunds.cancelWithReturn(tx, accountId, returnId, now);
    const met = REFUND_RELEASES.filter((release) => refundReleased(release, state));
    await refunds.release(tx, accountId, returnId, met, now);
  };
