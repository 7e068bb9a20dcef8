import type { Clock } from '../../base/clock.js';
import type { Tx } from '../../base/db/client.js';
import { systemActor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';

/**
 * Courier scans that moved a parcel, pushed by the courier or pulled by Dakiya's poller, written
 * down as the courier's doing (issue 51) in the transaction that applied them. Scans that changed
 * nothing (duplicates, scans kept) write nothing, so a poll that finds no news costs no entry.
 */
export function scanAudit(clock: Clock) {
  const record = auditRecorder(clock);
  return async (
    tx: Tx,
    carrierId: string,
    by: 'push' | 'poll',
    parcel: { accountId: string; id: string; journey: 'forward' | 'return' },
    awb: string,
    counts: { scans: number; applied: number },
  ) => {
    if (counts.applied === 0) return;
    const forward = parcel.journey === 'forward';
    await record(tx, systemActor(parcel.accountId, `the courier service ${carrierId}, by ${by}`), {
      action: forward ? 'shipment.tracked' : 'return.tracked',
      objectType: forward ? 'shipment' : 'return',
      objectId: parcel.id,
      changes: { awb, ...counts },
    });
  };
}
