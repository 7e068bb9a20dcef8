import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
import { REFUND_MOVES, type RefundRelease, refundAmount } from '../../domain/return-requests/refund-rules.js';
import type { EventType } from '../../domain/shipment/event-types.js';
import type { EventLog } from '../../events/event-log.js';
import type { NewRefund } from '../contracts.js';
import { type SecretBox, SecretBoxError } from '../../base/secret-box.js';
import type { RefundPayee } from '../../domain/return-requests/refund-payee.js';
import { type RefundView, refundView } from './refund-view.js';
import { REFUND_ERRORS } from './refunds.errors.js';
import * as repo from './refunds.repository.js';

// Refunds of approved return requests (docs/returns.md): recorded, not paid. Dakiya is not a payment
// gateway: the merchant's payment system pays a refund once it falls due and reports each step.

export interface RefundsContext {
  db: Db;
  clock: Clock;
  events: Pick<EventLog, 'record'>;
  /** Opens a payee's sealed details for the merchant's payment system. */
  secretBox: Pick<SecretBox, 'open'>;
}

export type RefundsService = ReturnType<typeof createRefundsService>;

const STEP_EVENTS = {
  initiate: 'refund.initiated',
  complete: 'refund.completed',
  fail: 'refund.failed',
} as const satisfies Record<keyof typeof REFUND_MOVES, EventType>;

export function createRefundsService({ db, clock, events, secretBox }: RefundsContext) {
  // Each step is written down in its own transaction, naming who moved the money (issue 51).
  const record = auditRecorder(clock);
  const told = (tx: Executor, accountId: string, type: EventType, row: repo.RefundRow) =>
    events.record(
      tx,
      accountId,
      { type, subjectType: 'refund', subjectId: row.id, data: { refund: refundView(row) } },
      row.updatedAt,
    );

  /** A step the payment system reports, from the states that take it. */
  async function move(
    actor: Actor,
    refundId: string,
    step: keyof typeof REFUND_MOVES,
    values: Partial<repo.RefundRow>,
    outer: Tx | undefined,
  ): Promise<RefundView> {
    const { accountId } = actor;
    return inTransaction(db, outer, async (tx) => {
      const refund = await repo.lockRefund(tx, accountId, refundId);
      if (!refund) throw REFUND_ERRORS.refund_not_found.error('Refund not found');
      if (!REFUND_MOVES[step].includes(refund.status as never))
        throw REFUND_ERRORS.refund_state.error(`A ${refund.status} refund cannot be ${step}d`, 'status');
      if (refund.releasedAt === null)
        throw REFUND_ERRORS.refund_not_due.error(
          `The refund falls due on ${refund.releaseOn === 'qc_pass' ? 'the QC pass' : `the return's ${refund.releaseOn === 'pickup' ? 'pickup' : 'delivery to the warehouse'}`}; it has not yet`,
          'released_at',
        );
      const now = clock.now();
      const updated = await repo.updateRefund(tx, accountId, refundId, { ...values, updatedAt: now });
      await told(tx, accountId, STEP_EVENTS[step], updated);
      await record(tx, actor, {
        action: STEP_EVENTS[step],
        objectType: 'refund',
        objectId: refundId,
        changes: {
          status: { before: refund.status, after: updated.status },
          ...(values.utr !== undefined && { utr: values.utr }),
          ...(values.failureReason && { reason: values.failureReason }),
        },
      });
      return refundView(updated);
    });
  }

  return {
    /** Records the refund of an approved request, in the approval's transaction: pending until it falls due. */
    async open(tx: Tx, accountId: string, refund: NewRefund): Promise<RefundView> {
      const amount = refundAmount(refund.items, refund.terms);
      const now = clock.now();
      const row: repo.RefundRow = {
        id: crypto.randomUUID(),
        accountId,
        requestId: refund.requestId,
        returnId: refund.returnId,
        storeId: refund.storeId,
        status: 'pending',
        itemsPaise: amount.itemsPaise,
        deductionPaise: amount.deductionPaise,
        returnShippingFeePaise: amount.returnShippingFeePaise,
        amountPaise: amount.amountPaise,
        method: refund.method,
        payee: refund.payee?.masked ?? null,
        payeeSealed: refund.payee?.sealed ?? null,
        releaseOn: refund.release,
        releasedAt: null,
        utr: null,
        failureReason: null,
        initiatedAt: null,
        completedAt: null,
        failedAt: null,
        cancelledAt: null,
        createdAt: now,
        updatedAt: now,
      };
      await repo.insertRefund(tx, row);
      await told(tx, accountId, 'refund.created', row);
      return refundView(row);
    },

    /** The return's refunds that this state makes due (refund-releases.ts decides which rules it meets). */
    async release(tx: Executor, accountId: string, returnId: string, rules: RefundRelease[], now: Date) {
      if (rules.length === 0) return;
      for (const row of await repo.releaseForReturn(tx, accountId, returnId, rules, now))
        await told(tx, accountId, 'refund.released', row);
    },

    /** The return's refund, not yet due, cancelled with its return: nothing is owed. */
    async cancelWithReturn(tx: Executor, accountId: string, returnId: string, now: Date) {
      for (const row of await repo.cancelForReturn(tx, accountId, returnId, now))
        await told(tx, accountId, 'refund.cancelled', row);
    },

    async get(accountId: string, refundId: string): Promise<RefundView> {
      const row = await repo.findRefund(db, accountId, refundId);
      if (!row) throw REFUND_ERRORS.refund_not_found.error('Refund not found');
      return refundView(row);
    },

    /**
     * Whom to pay, in full: the UPI id or bank account the buyer gave (opened from its seal), for the
     * merchant's payment system; the method alone when it has no details (original, store credit).
     */
    async payee(
      accountId: string,
      refundId: string,
    ): Promise<{ refund_id: string } & (RefundPayee | { method: string })> {
      const row = await repo.findRefund(db, accountId, refundId);
      if (!row) throw REFUND_ERRORS.refund_not_found.error('Refund not found');
      if (!row.payeeSealed) return { refund_id: row.id, method: row.method };
      let payee: RefundPayee;
      try {
        payee = JSON.parse(secretBox.open(row.payeeSealed));
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        throw REFUND_ERRORS.refund_payee_unreadable.error(
          `The payee (${row.method}) cannot be opened: ${error.message}`,
          'payee',
        );
      }
      return { refund_id: row.id, ...payee };
    },

    /** `GET /refunds`: oldest first, after a cursor; `due=true&status=pending` is what to pay now. */
    /** Of every store, or of the stores `reach` names (a store-limited credential's). */
    async list(
      accountId: string,
      query: { status?: string; store_id?: string; due?: string; after?: string; limit?: string },
      reach: readonly string[] | null = null,
    ) {
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      const after = query.after === undefined ? undefined : await repo.findRefund(db, accountId, query.after);
      if (query.after !== undefined && !after)
        throw cursorUnknown('after must be the id of one of your refunds', 'after');
      const rows = await repo.listRefunds(db, accountId, {
        status: query.status,
        storeId: query.store_id,
        ...(reach !== null && { storeIds: reach }),
        due: query.due === undefined ? undefined : query.due === 'true',
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        data: page.map(refundView),
        meta: { next_after: page.at(-1)?.id ?? query.after ?? null, has_more: rows.length > limit },
      };
    },

    /** The payment system took it (again, after a failure). */
    initiate: (actor: Actor, refundId: string, outer?: Tx) =>
      move(actor, refundId, 'initiate', { status: 'initiated', initiatedAt: clock.now(), failureReason: null }, outer),

    /** Paid, with the payment's reference (a UTR for a bank transfer or UPI). */
    complete: (actor: Actor, refundId: string, utr: string, outer?: Tx) =>
      move(actor, refundId, 'complete', { status: 'completed', completedAt: clock.now(), utr }, outer),

    /** The payment failed: the reason is kept until it is initiated again. */
    fail: (actor: Actor, refundId: string, reason: string, outer?: Tx) =>
      move(actor, refundId, 'fail', { status: 'failed', failedAt: clock.now(), failureReason: reason }, outer),
  };
}
