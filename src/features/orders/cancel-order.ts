import type { Clock } from '../../base/clock.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { UUID } from '../../base/uuid.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { ApplyShipmentEvents } from '../contracts.js';
import * as repo from './orders.repository.js';
import { findBoxes } from './shipment-boxes.js';
import { ORDER_ERRORS } from './orders.errors.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { findBoxAwbs } from '../../shipment-records/box-awbs.js';

export interface CancelOutcome {
  cancelled: boolean;
  message: string;
}

/** What the returns module does for cancel-order (handed in by the composition root). */
export interface ReturnCancellations {
  cancel(actor: Actor, awbs: string[], outer?: Tx): Promise<Map<string, CancelOutcome>>;
  /** The return whose shipment id this is: undefined when there is none; `checkAwb` refuses a pair that does not match. */
  cancelShipment(
    actor: Actor,
    shipmentId: string,
    checkAwb: (awb: string | null) => void,
    outer?: Tx,
  ): Promise<(CancelOutcome & { awb: string | null }) | undefined>;
}

interface Deps {
  db: Db;
  clock: Clock;
  rates: RatesContext;
  couriers: Couriers;
  applyShipmentEvents: ApplyShipmentEvents;
  returns?: ReturnCancellations;
}

/**
 * cancel-order's `{shipment_id, shipment_awb}` form names one shipment by id, which a draft
 * without an AWB also has; the AWB, when sent, must be that shipment's, so a client holding a
 * stale pair learns of it instead of cancelling another parcel than it meant. Clients that hold no
 * AWB for a draft repeat its id there: that names the draft too, but only while it has no AWB.
 */
export function awbPairCheck(shipmentId: string, sent: string | undefined) {
  return (awb: string | null) => {
    if (sent === undefined || sent === awb || (awb === null && sent === shipmentId)) return;
    const actual = awb === null ? 'it has no AWB yet' : `its AWB is ${awb}`;
    const message = `shipment_awb '${sent}' is not the AWB of shipment_id '${shipmentId}' (${actual}): send the pair as booked, or shipment_id alone`;
    throw ORDER_ERRORS.awb_mismatch.error(
      [message],
      [
        { field: 'shipment_awb', message },
        { field: 'shipment_id', message: `shipment_id '${shipmentId}': ${actual}` },
      ],
    );
  };
}

/**
 * A merchant's cancellations: a cancellation is a tracking event like any other, so the status
 * machine decides; if the courier's pickup scan is already recorded (even one that arrives out of
 * order), the cancellation does not apply.
 */
export function createCancellations({ db, clock, rates, couriers, applyShipmentEvents, returns }: Deps) {
  // Each cancellation is written down in its own transaction, naming who asked (issue 51).
  const record = auditRecorder(clock);
  /**
   * Why the parcel is not called off, or null when it is: the courier's refusal, or its queueing of
   * the cancellation while the parcel moves (its tracking cancels the shipment when it confirms).
   * A draft without an AWB has nothing booked to call off.
   */
  async function cancelParcel(
    accountId: string,
    row: { id: string; awb: string | null; carrierId: string | null },
    ex?: Executor,
  ): Promise<string | null> {
    const service = row.awb !== null && row.carrierId ? rates.catalogue.byId.get(row.carrierId) : undefined;
    if (!service) return null;
    // A multi-piece shipment's other boxes first, each its own parcel at the courier, box 1 (the
    // shipment's AWB) last: a refusal leaves the shipment booked under its master AWB, not cancelled
    // with boxes still on their way.
    const boxes = await findBoxes(ex ?? db, accountId, row.id);
    for (const awb of [
      ...boxes
        .slice(1)
        .map((box) => box.awb)
        .reverse(),
      row.awb!,
    ]) {
      const answer = await couriers.cancel(accountId, service, awb, ex);
      if (answer === null) continue;
      const said = 'refused' in answer ? answer.refused : queuedMessage(service.name, answer.queued);
      return awb === row.awb ? said : `Box AWB ${awb}: ${said}`;
    }
    return null;
  }

  async function cancelRow(
    actor: Actor,
    row: { id: string; awb: string | null; status: string; carrierId: string | null },
    now: Date,
    outer?: Tx,
  ): Promise<CancelOutcome> {
    const { accountId } = actor;
    if (row.status !== 'pending') {
      return {
        cancelled: false,
        message:
          row.status === 'cancelled'
            ? 'Shipment is already cancelled'
            : `Shipment is ${row.status} and can no longer be cancelled`,
      };
    }
    const refused = await cancelParcel(accountId, row, outer);
    if (refused) return { cancelled: false, message: refused };
    return inTransaction(db, outer, async (tx): Promise<CancelOutcome> => {
      // A booking that landed since the row was read is called off too, under the row's lock, so
      // that no other lands in between: else the shipment would be cancelled with its parcel booked.
      const current = await repo.findShipmentById(tx, accountId, row.id, true);
      const late = current && current.awb !== row.awb ? await cancelParcel(accountId, current, tx) : null;
      if (late) return { cancelled: false, message: late };
      const { status } = await applyShipmentEvents(tx, accountId, row.id, [merchantCancellation(now)], now);
      if (status !== 'cancelled')
        return { cancelled: false, message: `Shipment is ${status ?? row.status} and can no longer be cancelled` };
      await record(tx, actor, {
        action: 'shipment.cancelled',
        objectType: 'shipment',
        objectId: row.id,
        changes: { awb: current?.awb ?? row.awb },
      });
      return { cancelled: true, message: 'Shipment cancelled' };
    });
  }

  return {
    /** Cancels shipments not yet picked up; answers per AWB, in the order asked. */
    async cancel(actor: Actor, awbs: string[], outer?: Tx) {
      const found = await repo.findShipmentsByAwb(outer ?? db, actor.accountId, [...new Set(awbs)]);
      const now = clock.now();
      const outcome = new Map<string, CancelOutcome>();
      for (const row of found) outcome.set(row.awb!, await cancelRow(actor, row, now, outer));
      // A box's AWB cancels nothing: the courier calls off a multi-piece booking whole, and one
      // who names box 2 may not mean every box. The answer says how to cancel them all.
      for (const [awb, box] of await findBoxAwbs(
        outer ?? db,
        actor.accountId,
        [...new Set(awbs)].filter((awb) => !outcome.has(awb)),
      ))
        outcome.set(awb, {
          cancelled: false,
          message: `AWB ${awb} is box ${box.boxNo} of ${box.boxCount} of shipment ${box.masterAwb}: a multi-piece shipment is cancelled whole, by its master AWB or shipment_id`,
        });
      const unknown = [...new Set(awbs)].filter((awb) => !outcome.has(awb));
      const returned =
        returns && unknown.length > 0 ? await returns.cancel(actor, unknown, outer) : new Map<string, CancelOutcome>();
      for (const [awb, result] of returned) outcome.set(awb, result);
      const answered = new Set<string>();
      return awbs.map((awb) => {
        const result = outcome.get(awb) ?? { cancelled: false, message: 'AWB not found' };
        // An AWB listed twice is cancelled once; the repeat says so.
        if (answered.has(awb) && result.cancelled)
          return { awb, cancelled: false, message: 'Shipment is already cancelled' };
        answered.add(awb);
        return { awb, ...result };
      });
    },

    /**
     * `{shipment_id, shipment_awb}`: one forward shipment (booked, or a draft of forward-order
     * without an AWB) or return, by its shipment id. Unknown and another account's read the same.
     */
    async cancelShipment(actor: Actor, shipmentId: string, shipmentAwb: string | undefined, outer?: Tx) {
      const checkAwb = awbPairCheck(shipmentId, shipmentAwb);
      const row = UUID.test(shipmentId)
        ? await repo.findShipmentById(outer ?? db, actor.accountId, shipmentId)
        : undefined;
      if (row) {
        checkAwb(row.awb);
        return { shipment_id: shipmentId, awb: row.awb, ...(await cancelRow(actor, row, clock.now(), outer)) };
      }
      const returned =
        returns && UUID.test(shipmentId) ? await returns.cancelShipment(actor, shipmentId, checkAwb, outer) : undefined;
      if (returned) return { shipment_id: shipmentId, ...returned };
      return { shipment_id: shipmentId, awb: shipmentAwb ?? null, cancelled: false, message: 'Shipment not found' };
    },
  };
}

/** A cancellation the courier queued: not refused, not done yet; its tracking scan cancels the shipment. */
export const queuedMessage = (courier: string, words: string) =>
  `${courier} has queued the cancellation (${words}): the parcel is moving, and the shipment is cancelled when its tracking confirms it`;

function merchantCancellation(at: Date) {
  return {
    status: 'cancelled',
    subStatus: 'cancelled_by_merchant',
    eventTime: at,
    location: null,
    description: 'Cancelled by the merchant',
    ndrReason: null,
    rtoReason: null,
    eventId: null,
    receivedAt: at,
  };
}
