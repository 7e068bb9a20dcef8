import { systemActor } from '../../domain/access/permissions.js';
import type { Tx } from '../../base/db/client.js';
import { DomainError, type FieldError, type ProblemKind } from '../../domain/errors.js';
import type { CancelShipment, ChannelOrigin, ImportChannelOrder } from '../contracts.js';
import { channelOrderProblems, forwardOrderBody, orderOfPayload } from './channel-order-body.js';
import * as repo from './sales-channels.repository.js';

// What becomes of one pending ledger row, in its own transaction: imported, refused with the
// fields to fix, skipped, cancelled or flagged; or, when what failed passes (a courier away, the
// database busy), left pending until a later attempt, so that one row never holds up the queue.

/** Failures that pass: the same row is tried again later rather than refused. */
const PASSING: ReadonlySet<ProblemKind> = new Set(['upstream_failed', 'unavailable', 'rate_limited']);
/** Attempts at a row whose failures pass, before it is refused with the last one (about 4 hours). */
export const MAX_IMPORT_ATTEMPTS = 8;
/** 30 s, 1 min, 2 min, … at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** (attempts - 1));

export interface RowContext {
  channel: repo.SalesChannelRow;
  storeName: string;
}

interface Deps {
  importOrder: ImportChannelOrder;
  cancelShipment: CancelShipment;
  warn: (message: string, error: unknown) => void;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; problems: FieldError[]; passing: boolean };

const problemsOf = (error: DomainError): FieldError[] =>
  error.details?.length ? error.details : error.messages.map((message) => ({ field: 'order', message }));

export function createChannelOrderImport({ importOrder, cancelShipment, warn }: Deps) {
  /**
   * Runs `work` in a savepoint, so that whatever it fails with leaves the row's transaction usable
   * to record it. A refusal of ours is final; a failure that passes, or one we did not foresee
   * (logged), is tried again.
   */
  async function attempt<T>(
    tx: Tx,
    row: repo.ChannelOrderRow,
    work: (savepoint: Tx) => Promise<T>,
  ): Promise<Outcome<T>> {
    try {
      return { ok: true, value: await tx.transaction(work) };
    } catch (error) {
      if (error instanceof DomainError)
        return { ok: false, problems: problemsOf(error), passing: PASSING.has(error.kind) };
      warn(`sales channel order ${row.id}: import failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, problems: [{ field: 'order', message: `Could not be imported: ${message}` }], passing: true };
    }
  }

  return async function settle(tx: Tx, row: repo.ChannelOrderRow, { channel, storeName }: RowContext, now: Date) {
    const finish = (change: Omit<Parameters<typeof repo.finishRow>[3], 'updatedAt' | 'nextAttemptAt'>) =>
      repo.finishRow(tx, row.accountId, row.id, { ...change, nextAttemptAt: null, updatedAt: now });
    const refused = (problems: FieldError[]) =>
      finish({
        state: 'refused',
        reason: problems.map((p) => p.message).join('; '),
        fields: [...new Set(problems.map((p) => p.field))],
        attempts: row.attempts + 1,
      });
    /** A failure: final, or tried again after a wait until the attempts run out. */
    const failed = ({ problems, passing }: { problems: FieldError[]; passing: boolean }) => {
      const attempts = row.attempts + 1;
      if (!passing || attempts >= MAX_IMPORT_ATTEMPTS) return refused(problems);
      return repo.finishRow(tx, row.accountId, row.id, {
        state: 'pending',
        reason: `Will try again: ${problems.map((p) => p.message).join('; ')}`,
        fields: null,
        attempts,
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        updatedAt: now,
      });
    };

    if (channel.status !== 'connected')
      return finish({
        state: 'skipped',
        reason: 'The channel was disconnected before this order was imported',
        fields: null,
      });
    if (row.cancelled) {
      const shipmentId = row.shipmentId;
      if (shipmentId === null)
        return finish({ state: 'cancelled', reason: 'Cancelled in the store before it was imported', fields: null });
      const tried = await attempt(tx, row, (savepoint) =>
        cancelShipment(
          systemActor(row.accountId, `the store, which cancelled order ${row.channelOrderName ?? row.channelOrderId}`),
          shipmentId,
          savepoint,
        ),
      );
      if (!tried.ok) return failed(tried);
      return tried.value.cancelled
        ? finish({ state: 'cancelled', reason: 'Cancelled in the store; its Dakiya order was cancelled', fields: null })
        : finish({
            state: 'cancel_flagged',
            reason: `Cancelled in the store, but the shipment could not be cancelled (${tried.value.message}): an RTO is the merchant's call`,
            fields: null,
          });
    }
    if (row.orderId !== null) return finish({ state: 'imported', reason: null, fields: null });
    // A copy the store sent that could not be read stays refused until a copy that reads arrives.
    if (typeof row.payload.unreadable === 'string')
      return refused([{ field: 'order', message: row.payload.unreadable }]);
    const order = orderOfPayload(row.payload);
    if (!order.awaitingShipment)
      return finish({ state: 'skipped', reason: 'Not waiting to ship when seen (fulfilled or unpaid)', fields: null });
    const pkg = {
      defaultWeightGrams: channel.defaultWeightGrams,
      lengthCm: channel.lengthCm,
      breadthCm: channel.breadthCm,
      heightCm: channel.heightCm,
    };
    const problems = channelOrderProblems(order, pkg);
    if (problems.length > 0) return refused(problems);
    const origin: ChannelOrigin = {
      salesChannelId: channel.id,
      channel: channel.channel as ChannelOrigin['channel'],
      channelOrderId: row.channelOrderId,
      channelOrderName: row.channelOrderName,
    };
    const body = forwardOrderBody(order, row.channelOrderName, {
      storeName,
      warehouseId: channel.warehouseId,
      package: pkg,
    });
    const made = await attempt(tx, row, (savepoint) =>
      importOrder(row.accountId, body, savepoint, origin, channel.onImport === 'book'),
    );
    if (!made.ok) return failed(made);
    return finish({
      state: 'imported',
      reason: null,
      fields: null,
      orderId: made.value.orderId,
      shipmentId: made.value.shipmentId,
      attempts: row.attempts + 1,
    });
  };
}
