import type { Clock } from '../../base/clock.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import type { ApplyReturnEvents, NewReturnEvent } from '../contracts.js';
import * as repo from './returns.repository.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';

// cancel-order on returns: the orders module hands the AWBs and shipment ids that are not its own
// here (the composition root wires it), and answers for each as for a shipment.

type CancelOutcome = { cancelled: boolean; message: string };

interface Deps {
  db: Db;
  clock: Clock;
  /** The tracking intake's: a merchant's cancellation goes through the return's status machine. */
  applyReturnEvents: ApplyReturnEvents;
  /** Calls off a booked return's pickup at its courier. */
  couriers: Pick<Couriers, 'cancel'>;
  rates: { catalogue: CourierCatalogue };
}

export function createReturnCancellation({ db, clock, applyReturnEvents, couriers, rates }: Deps) {
  // Each cancellation is written down in its own transaction, naming who asked (issue 51).
  const record = auditRecorder(clock);
  /**
   * Why the courier has not called the return's pickup off, or null when it has (or none is booked):
   * a pickup left live would send an agent to the buyer's door for a return nobody wants.
   */
  async function cancelPickup(accountId: string, row: { awb: string | null; carrierId: string | null }, outer?: Tx) {
    const service = row.awb !== null && row.carrierId ? rates.catalogue.byId.get(row.carrierId) : undefined;
    if (!service) return null;
    const answer = await couriers.cancel(accountId, service, row.awb!, outer, 'return');
    if (answer === null) return null;
    return 'refused' in answer
      ? answer.refused
      : `${service.name} has queued the pickup's cancellation (${answer.queued}): the return is cancelled when its tracking confirms it`;
  }

  /**
   * A merchant's cancellation is an event through the return machine: a pickup scan already
   * recorded, even one dated before now that arrived late, wins. A booked pickup is called off at
   * the courier first; a courier that refuses (the parcel is picked up) leaves the return as it is.
   */
  async function cancelRow(
    actor: Actor,
    row: { id: string; status: string; awb: string | null; carrierId: string | null },
    now: Date,
    outer?: Tx,
  ): Promise<CancelOutcome> {
    const { accountId } = actor;
    if (!repo.CANCELLABLE.includes(row.status)) {
      return {
        cancelled: false,
        message:
          row.status === repo.CANCELLED
            ? 'Return is already cancelled'
            : `Return is ${row.status} and can no longer be cancelled`,
      };
    }
    const refused = await cancelPickup(accountId, row, outer);
    if (refused) return { cancelled: false, message: refused };
    const { status } = await inTransaction(db, outer, async (tx) => {
      const applied = await applyReturnEvents(tx, accountId, row.id, [merchantReturnCancellation(now)], now);
      if (applied.status === repo.CANCELLED)
        await record(tx, actor, {
          action: 'return.cancelled',
          objectType: 'return',
          objectId: row.id,
          changes: { awb: row.awb },
        });
      return applied;
    });
    return status === repo.CANCELLED
      ? { cancelled: true, message: 'Return cancelled' }
      : { cancelled: false, message: `Return is ${status ?? row.status} and can no longer be cancelled` };
  }

  return {
    /** Cancels the account's returns among `awbs`, answering for those it found (the rest are not returns). */
    async cancel(actor: Actor, awbs: string[], outer?: Tx): Promise<Map<string, CancelOutcome>> {
      const found = await repo.findReturnsByAwb(outer ?? db, actor.accountId, awbs);
      const outcome = new Map<string, CancelOutcome>();
      const now = clock.now();
      for (const row of found) outcome.set(row.awb!, await cancelRow(actor, row, now, outer));
      return outcome;
    },

    /** cancel-order's shipment_id form: the return with this shipment id, booked or not; undefined when none. */
    async cancelShipment(actor: Actor, shipmentId: string, checkAwb: (awb: string | null) => void, outer?: Tx) {
      const row = await repo.findReturnByShipmentId(outer ?? db, actor.accountId, shipmentId);
      if (!row) return undefined;
      checkAwb(row.awb);
      return { awb: row.awb, ...(await cancelRow(actor, row, clock.now(), outer)) };
    },
  };
}

/** A merchant's cancel-order on a booked return, at the server's time, through the same machine. */
export const merchantReturnCancellation = (now: Date): NewReturnEvent => ({
  status: 'return_cancelled',
  subStatus: 'return_cancelled_by_merchant',
  eventTime: now,
  location: null,
  description: 'Cancelled by the merchant',
  qcStatus: null,
  qcReason: null,
  eventId: null,
  receivedAt: now,
});
