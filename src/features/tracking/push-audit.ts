import type { Clock } from '../../base/clock.js';
import type { Tx } from '../../base/db/client.js';
import { systemActor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';

/**
 * A courier's push that moved a parcel, written down as the courier's doing (issue 51), in the
 * transaction that applied its scans. Dakiya's own polling and replays are not pushes, and a push
 * that changed nothing (duplicates, scans kept) writes nothing.
 */
export function pushAudit(clock: Clock) {
  const record = auditRecorder(clock);
  return async (
    tx: Tx,
    carrierId: string,
    parcel: { accountId: string; id: string; journey: 'forward' | 'return' },
    awb: string,
    counts: { scans: number; applied: number },
  ) => {
    if (counts.applied === 0) return;
    const forward = parcel.journey === 'forward';
    await record(tx, systemActor(parcel.accountId, `the courier service ${carrierId}, by push`), {
      action: forward ? 'shipment.tracked' : 'return.tracked',
      objectType: forward ? 'shipment' : 'return',
      objectId: parcel.id,
      changes: { awb, ...counts },
    });
  };
}
