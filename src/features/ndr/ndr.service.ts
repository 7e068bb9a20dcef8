import { type Clock, isStorableInstant } from '../../base/clock.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { parseDay, type WorkingCalendar } from '../../domain/calendar.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import type { ApplyShipmentEvents } from '../contracts.js';
import type { EventLog } from '../../events/event-log.js';
import { type Actor, systemActor } from '../../domain/access/permissions.js';
import type { RecordAudit } from '../../tenancy/audit/audit.js';
import * as repo from './ndr.repository.js';
import { addNdrOutcome, findShipmentFacts } from './ndr-rules.repository.js';
import {
  MAX_REATTEMPTS,
  reattemptDays,
  reattemptProblems,
  reattemptsUsedWith,
  rtoProblem,
} from '../../domain/shipment/ndr-rules.js';
import { NDR_ERRORS } from './ndr.errors.js';
import type { ReattemptInput } from './ndr.schemas.js';
import { type CarrierActionRow, acknowledge, findOpenForCarrier } from '../../couriers/instructions.repository.js';
import { toActionView } from '../../domain/shipment/ndr-actions.js';
import { findBoxAwb } from '../../shipment-records/box-awbs.js';

export type NdrService = ReturnType<typeof createNdrService>;

const DEFAULT_LIMIT = 50;
const MERCHANT = 'merchant';
/** Who asked: the merchant through the API, the customer from the tracking page, or one of the account's NDR rules. */
export type Requester = 'merchant' | 'customer' | 'rule';
/** The NDR rule an automatic action comes from: its name is kept in the action's details. */
export interface RuleRef {
  name: string;
  index: number;
}

/** The same answer for an unknown AWB and another account's: nothing about the other account leaks. */
const awbNotFound = (awb: string) => SHIPMENT_ERRORS.awb_not_found.error(`AWB ${awb} not found`, 'awb');

/**
 * The shipment an NDR action names, locked; an AWB of the account's returns is refused as what it
 * is (a reverse pickup has no delivery to reattempt or turn back), anything else as unknown. A
 * multi-piece shipment's box AWB names its shipment: NDR is the consignment's (its attempt count,
 * its one instruction to the courier under the master AWB), whichever box the courier held.
 */
async function lockForwardShipment(tx: Tx, accountId: string, awb: string) {
  let shipment = await repo.lockShipment(tx, accountId, { awb });
  if (!shipment) {
    const box = await findBoxAwb(tx, accountId, awb);
    if (box) shipment = await repo.lockShipment(tx, accountId, { id: box.shipmentId });
  }
  if (shipment?.carrierId) return { ...shipment, carrierId: shipment.carrierId };
  if (await repo.isReturnAwb(tx, accountId, awb))
    throw NDR_ERRORS.ndr_not_for_returns.error(`AWB ${awb} is a return; NDR actions apply to forward shipments`, 'awb');
  throw awbNotFound(awb);
}

const carrierView = (row: CarrierActionRow) => ({ ...toActionView(row), awb: row.awb ?? '' });

/** Checks the schema cannot make; a 400 names the field. */
function inputProblems(input: ReattemptInput) {
  const problems: { field: string; message: string }[] = [];
  if (input.updated_phone_number !== undefined && !canonicalIndianMobile(input.updated_phone_number)) {
    problems.push({
      field: 'updated_phone_number',
      message: 'updated_phone_number must be a 10-digit Indian mobile number',
    });
  }
  if (input.reattempt_date !== undefined) {
    try {
      parseDay(input.reattempt_date);
    } catch {
      problems.push({
        field: 'reattempt_date',
        message: `reattempt_date ${input.reattempt_date} is not a calendar date`,
      });
    }
  }
  return problems;
}

export function createNdrService({
  db,
  clock,
  calendar,
  events,
  applyShipmentEvents,
  record,
}: {
  db: Db;
  clock: Clock;
  calendar: WorkingCalendar;
  events: EventLog;
  /** The audit log: each action is written down with whoever asked, in its own transaction. */
  record: RecordAudit;
  /** The tracking intake's: an RTO instruction goes through the shipment's status machine. */
  applyShipmentEvents: ApplyShipmentEvents;
}) {
  const service = {
    /**
     * Records the instruction for the courier. The status stays ndr_raised: the courier reports the
     * next attempt (out_for_delivery, delivered or another NDR) through its events.
     */
    async reattempt(
      actor: Actor,
      input: ReattemptInput,
      outer?: Tx,
      requestedBy: Requester = MERCHANT,
      rule?: RuleRef,
    ) {
      const problems = inputProblems(input);
      if (problems.length > 0)
        throw new DomainError(
          'invalid',
          problems.map((p) => p.message),
          problems,
        );
      const { accountId } = actor;
      const now = clock.now();
      return inTransaction(db, outer, async (tx) => {
        const shipment = await lockForwardShipment(tx, accountId, input.awb);
        const earlier = await repo.findReattemptAttempts(tx, accountId, shipment.id);
        const facts = {
          status: shipment.status as ShipmentStatus,
          attemptCount: shipment.attemptCount,
          shippingPincode: shipment.shippingPincode,
          earlierReattempts: earlier.reattempts,
          correctedAttempts: earlier.corrections,
          now,
          calendar,
        };
        const problems = reattemptProblems(input, facts);
        if (problems.length > 0)
          throw NDR_ERRORS.ndr_action_not_allowed.error(
            problems.map((p) => p.message),
            problems,
          );
        const phone =
          input.updated_phone_number === undefined ? undefined : canonicalIndianMobile(input.updated_phone_number);
        const action = await repo.insertAction(tx, accountId, {
          shipmentId: shipment.id,
          carrierId: shipment.carrierId,
          action: 'reattempt',
          requestedBy,
          attempt: shipment.attemptCount,
          payload: {
            ...(input.updated_address && { updated_address: input.updated_address }),
            ...(phone && { updated_phone_number: phone }),
            ...(input.comments && { comments: input.comments }),
            ...(input.reattempt_date && { reattempt_date: input.reattempt_date }),
            ...(rule && { rule: rule.name }),
          },
          createdAt: now,
        });
        await addNdrOutcome(tx, accountId, shipment.id, 'reattempt');
        // The new address and phone are the buyer's: the entry says only that they changed.
        await record(tx, actor, {
          action: 'shipment.reattempt_requested',
          objectType: 'shipment',
          objectId: shipment.id,
          changes: {
            awb: input.awb,
            action_id: action.id,
            requested_by: requestedBy,
            reattempt_date: input.reattempt_date ?? null,
            address_updated: input.updated_address !== undefined,
            phone_updated: phone !== undefined,
          },
        });
        await events.shipment(
          tx,
          accountId,
          shipment.id,
          [{ type: 'shipment.reattempt_requested', change: { action: toActionView(action) } }],
          now,
        );
        const used = reattemptsUsedWith(facts);
        return {
          success: true as const,
          message: 'Reattempt requested',
          data: {
            awb: input.awb,
            action_id: action.id,
            reattempts_used: used,
            reattempts_left: MAX_REATTEMPTS - used,
            reattempt_date: input.reattempt_date ?? null,
          },
        };
      });
    },

    /**
     * Records the instruction and moves the shipment to rto_initiated at once, through the status
     * machine (an rto_initiated event, reason merchant_requested), as Shiprocket and Velocity show
     * "RTO initiated" on request. The courier's own rto_initiated scan is then a repeat of the stage.
     */
    async initiateRto(
      actor: Actor,
      awb: string,
      outer?: Tx,
      rule?: RuleRef,
      requestedBy: Requester = rule ? 'rule' : MERCHANT,
    ) {
      const { accountId } = actor;
      const now = clock.now();
      return inTransaction(db, outer, async (tx) => {
        const shipment = await lockForwardShipment(tx, accountId, awb);
        const refused = rtoProblem(shipment.status as ShipmentStatus);
        if (refused) throw NDR_ERRORS.ndr_action_not_allowed.error(refused, 'awb');
        const action = await repo.insertAction(tx, accountId, {
          shipmentId: shipment.id,
          carrierId: shipment.carrierId,
          action: 'rto',
          requestedBy,
          attempt: shipment.attemptCount,
          payload: rule ? { rule: rule.name } : {},
          createdAt: now,
        });
        await addNdrOutcome(tx, accountId, shipment.id, 'rto');
        await record(tx, actor, {
          action: 'shipment.rto_requested',
          objectType: 'shipment',
          objectId: shipment.id,
          changes: { awb, action_id: action.id, requested_by: requestedBy },
        });
        // The merchant acts on the scans it has seen, so the request comes after them in time order,
        // even when a courier's clock ran a few minutes ahead of ours.
        const latest = await repo.latestEventTime(tx, accountId, shipment.id);
        const at = latest && latest >= now ? new Date(latest.getTime() + 1) : now;
        const { status } = await applyShipmentEvents(tx, accountId, shipment.id, [merchantRto(at, now, rule)], now);
        if (status !== 'rto_initiated') {
          // A multi-piece shipment whose failed box is held alone while another is delivered (or out
          // for delivery) cannot go back whole: refused, naming those boxes, and rolled back.
          const staying = (await repo.findBoxStatuses(tx, accountId, shipment.id)).filter(
            (box) => !box.status.startsWith('rto_'),
          );
          if (staying.length > 0)
            throw NDR_ERRORS.ndr_action_not_allowed.error(
              `An RTO returns every box of shipment ${shipment.awb}, and ${staying
                .map((box) => `box ${box.boxNo} (${box.awb}) is ${box.status}`)
                .join(', ')}: ask for a reattempt, or wait for the courier to return the held box`,
              'awb',
            );
          // Stamped after every scan from a status that allows it, the machine must apply it to a
          // shipment in one box; if it did not, that is a bug to roll back, not a refusal to explain.
          throw new Error(`initiate-rto left shipment ${shipment.id} ${status}`);
        }
        return {
          success: true as const,
          message: 'RTO initiated',
          data: { awb, action_id: action.id, status: 'rto_initiated' as const },
        };
      });
    },

    /**
     * The buyer's answer to an NDR message (contracts.ts NdrBuyerAnswer): a reattempt on the next
     * working day, or an RTO, as the customer. A refusal of the NDR path (a limit, a shipment that
     * moved on) is answered, not thrown: the reply came from a phone, not from a caller to tell.
     */
    async buyerAnswer(accountId: string, shipmentId: string, attempt: number, answer: 'reattempt' | 'cancel') {
      try {
        return await db.transaction(async (tx) => {
          const shipment = await findShipmentFacts(tx, accountId, shipmentId);
          if (!shipment?.awb) return { done: false, message: 'no such shipment' };
          if (shipment.status !== 'ndr_raised' || shipment.attemptCount !== attempt) {
            return {
              done: false,
              message: `the shipment moved on (${shipment.status}, attempt ${shipment.attemptCount})`,
            };
          }
          const buyer = systemActor(accountId, 'the buyer, answering the NDR message');
          if (answer === 'cancel')
            return {
              done: true,
              message: (await service.initiateRto(buyer, shipment.awb, tx, undefined, 'customer')).message,
            };
          const [next] = reattemptDays(clock.now(), calendar);
          return {
            done: true,
            message: (await service.reattempt(buyer, { awb: shipment.awb, reattempt_date: next }, tx, 'customer'))
              .message,
          };
        });
      } catch (error) {
        if (error instanceof DomainError) return { done: false, message: error.messages.join('; ') };
        throw error;
      }
    },

    async openForCarrier(carrierId: string, query: { limit?: string; cursor?: string }) {
      const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
      let after: { createdAt: Date; id: string } | undefined;
      if (query.cursor !== undefined) {
        const [ms, id] = query.cursor.split(/\.(.*)/s) as [string, string];
        const createdAt = new Date(Number(ms));
        if (!isStorableInstant(createdAt))
          throw invalid('cursor must be a next_cursor from an earlier answer', 'cursor');
        after = { createdAt, id };
      }
      const rows = await findOpenForCarrier(db, carrierId, limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        data: page.map(carrierView),
        next_cursor: rows.length > limit && last ? `${last.createdAt.getTime()}.${last.id}` : null,
      };
    },

    async acknowledge(carrierId: string, id: string) {
      const row = await acknowledge(db, carrierId, id, clock.now());
      if (!row) throw NDR_ERRORS.ndr_action_not_found.error('Action not found');
      return { data: carrierView(row) };
    },
  };
  return service;
}

function merchantRto(at: Date, now: Date, rule?: RuleRef) {
  return {
    status: 'rto_initiated',
    subStatus: 'rto_initiated',
    eventTime: at,
    location: null,
    description: rule ? `RTO requested by the merchant's NDR rule '${rule.name}'` : 'RTO requested by the merchant',
    ndrReason: null,
    rtoReason: 'merchant_requested',
    eventId: null,
    receivedAt: now,
  };
}
