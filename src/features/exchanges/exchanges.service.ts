import { randomInt } from 'node:crypto';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import { rupeesToPaise } from '../../domain/money.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { ExchangeLegBooking, ExchangeLegView, ForwardLeg, ReturnLeg } from '../contracts.js';
import {
  channelOf,
  DEFAULT_RETURN_REASON,
  forwardBody,
  forwardFieldNames,
  inExchangeTerms,
  returnBody,
  returnFieldNames,
} from './exchange-bodies.js';
import { exchangePayload } from './exchange-payload.js';
import * as repo from './exchanges.repository.js';
import type { CreateExchangeInput, ExchangePayloadView, ExchangeTermsInput, ReleaseTerm } from './exchanges.schemas.js';

// exchange-order-orchestration: the replacement and the old item's pickup booked together, or
// neither; and each account's exchange terms.

export type ExchangesService = ReturnType<typeof createExchangesService>;

interface Deps {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  /** Records exchange.created in the booking's transaction. */
  events: Pick<EventLog, 'record'>;
  /** Calls off a leg's parcel when the other leg, or the exchange itself, fails. */
  couriers: Pick<Couriers, 'callOff'>;
  /** Orders': the replacement, booked by forward-order-orchestration. */
  forwardLeg: ExchangeLegBooking<ForwardLeg>;
  /** Returns': the old item's pickup, booked by reverse-order-orchestration. */
  returnLeg: ExchangeLegBooking<ReturnLeg>;
}

const UNIQUE_ID_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const uniqueId = () =>
  `EX${Array.from({ length: 10 }, () => UNIQUE_ID_LETTERS[randomInt(UNIQUE_ID_LETTERS.length)]).join('')}`;

const DEFAULT_TERMS = { releaseOn: 'at_once' as ReleaseTerm, qcChargePaise: null, exchangeChargePaise: 0 };

export function createExchangesService({ db, clock, rates, events, couriers, forwardLeg, returnLeg }: Deps) {
  const record = auditRecorder(clock);
  async function callOff(accountId: string, leg: ExchangeLegView, journey: 'forward' | 'return') {
    const service = leg.carrierId ? rates.catalogue.byId.get(leg.carrierId) : undefined;
    if (service && leg.awb) await couriers.callOff(accountId, { service, awb: leg.awb, journey }, true);
  }

  /** An exchange already made, as it is now. */
  async function answer(ex: Executor, accountId: string, exchange: repo.ExchangeRow, warnings: FieldError[] = []) {
    // One after another: `ex` may be the Idempotency-Key's transaction, one query at a time.
    const forward = await forwardLeg.read(ex, accountId, exchange.forwardShipmentId);
    const pickup = await returnLeg.read(ex, accountId, exchange.returnId);
    const legs = await repo.legStatuses(ex, accountId, exchange);
    return exchangePayload(exchange, forward, { ...pickup, qcStatus: legs.qcStatus }, warnings);
  }

  async function book(tx: Tx, actor: Actor, input: CreateExchangeInput): Promise<ExchangePayloadView> {
    const { accountId } = actor;
    const terms = (await repo.findTerms(tx, accountId)) ?? DEFAULT_TERMS;
    const forward = await forwardLeg.book(actor, forwardBody(input), tx).catch((error: unknown) => {
      throw forwardRefusal(error, input);
    });
    let pickup: ReturnLeg | undefined;
    try {
      pickup = await returnLeg.book(actor, returnBody(input), tx).catch((error: unknown) => {
        throw inExchangeTerms(error, returnFieldNames(input), 'pickup');
      });
      const now = clock.now();
      const releaseOn = terms.releaseOn as ReleaseTerm;
      const exchange = await repo.insertExchange(tx, {
        id: crypto.randomUUID(),
        accountId,
        displayId: input.order_id,
        uniqueId: uniqueId(),
        channel: channelOf(input),
        returnReason: input.return_reason?.trim() || DEFAULT_RETURN_REASON,
        forwardOrderId: forward.orderId,
        forwardShipmentId: forward.shipmentId,
        returnId: pickup.returnId,
        releaseOn,
        replacementHeld: releaseOn !== 'at_once',
        qcChargePaise: terms.qcChargePaise,
        exchangeChargePaise: terms.exchangeChargePaise,
        createdAt: now,
        updatedAt: now,
      });
      await events.record(
        tx,
        accountId,
        {
          type: 'exchange.created',
          subjectType: 'exchange',
          subjectId: exchange.id,
          data: { exchange: await repo.eventData(tx, accountId, exchange.id) },
        },
        now,
      );
      await record(tx, actor, {
        action: 'exchange.created',
        objectType: 'exchange',
        objectId: exchange.id,
        changes: {
          order_id: input.order_id,
          forward_shipment_id: forward.shipmentId,
          return_id: pickup.returnId,
          forward_awb: forward.awb,
          reverse_awb: pickup.awb,
        },
      });
      return exchangePayload(exchange, forward, { ...pickup, qcStatus: null }, [
        ...forward.warnings,
        ...qcQuestionWarnings(input),
      ]);
    } catch (error) {
      // The transaction rolls back: neither leg's record stays, so neither parcel may stay booked.
      await callOff(accountId, forward, 'forward');
      if (pickup) await callOff(accountId, pickup, 'return');
      throw error;
    }
  }

  return {
    /** Both legs booked, or neither; a repeated order_id answers the exchange already made. */
    async orchestrate(actor: Actor, input: CreateExchangeInput, outer?: Tx): Promise<ExchangePayloadView> {
      const { accountId } = actor;
      const made = await repo.findByDisplayId(outer ?? db, accountId, input.order_id);
      if (made) return answer(outer ?? db, accountId, made);
      try {
        return await inTransaction(db, outer, (tx) => book(tx, actor, input));
      } catch (error) {
        // Another request made this exchange meanwhile: its answer is this one's.
        if (!outer && (isUniqueViolation(error) || error instanceof DomainError)) {
          const raced = await repo.findByDisplayId(db, accountId, input.order_id);
          if (raced) return answer(db, accountId, raced);
        }
        throw error;
      }
    },

    async terms(accountId: string) {
      return termsView((await repo.findTerms(db, accountId)) ?? DEFAULT_TERMS);
    },

    async saveTerms(actor: Actor, input: ExchangeTermsInput) {
      const saved = await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'exchange_settings.set',
          objectType: 'exchange_settings',
          objectId: null,
          changes: { ...input },
        });
        return repo.saveTerms(tx, {
          accountId: actor.accountId,
          releaseOn: input.release_on,
          qcChargePaise: input.qc_charge === null ? null : rupeesToPaise(input.qc_charge),
          exchangeChargePaise: rupeesToPaise(input.exchange_charge),
          updatedAt: clock.now(),
        });
      });
      return termsView(saved);
    },
  };
}

function termsView(terms: Pick<repo.TermsRow, 'releaseOn' | 'qcChargePaise' | 'exchangeChargePaise'>) {
  return {
    release_on: terms.releaseOn as ReleaseTerm,
    qc_charge: terms.qcChargePaise === null ? null : terms.qcChargePaise / 100,
    exchange_charge: terms.exchangeChargePaise / 100,
  };
}

/** The replacement's refusal in the exchange's terms; an order_id already used for an order is told what to send instead. */
function forwardRefusal(error: unknown, input: CreateExchangeInput): unknown {
  const told = inExchangeTerms(error, forwardFieldNames(input), 'replacement');
  if (!(told instanceof DomainError) || told.code !== 'order_id_taken' || input.forward_order_id !== undefined)
    return told;
  const hint = `order_id '${input.order_id}' is already an order of this account: to exchange an item of that order, send the replacement's own id as forward_order_id`;
  return new DomainError(told.kind, [hint], [{ field: 'order_id', message: hint }], told.code);
}

function qcQuestionWarnings(input: CreateExchangeInput): FieldError[] {
  return input.return_items.flatMap((item, index) =>
    item.qc_questions && item.qc_questions.length > 0
      ? [
          {
            field: `return_items.${index}.qc_questions`,
            message: `return_items.${index}.qc_questions were accepted but not sent: the couriers Dakiya books check the product name, image, brand, size and colour`,
          },
        ]
      : [],
  );
}
