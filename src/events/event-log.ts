import type { SQL } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import type { Signal } from '../base/db/signal.js';
import type { EventType } from '../domain/shipment/event-types.js';
import { insertEvent, insertEvents, lockSubject, newSubjectEvents } from './events.repository.js';

/** What changed, beside the subject's new state; the keys depend on the event type (events.schemas.ts). */
export type Change = Record<string, unknown>;

export interface EventLog {
  /**
   * Records events about one shipment in the caller's transaction, each with the shipment as the
   * listing shows it after the change plus `change`. Call it in the transaction that makes the
   * change: the event then commits with it or not at all.
   */
  shipment(
    tx: Executor,
    accountId: string,
    shipmentId: string,
    events: { type: EventType; change?: Change }[],
    at: Date,
  ): Promise<void>;
  /**
   * The same for a shipment the caller's own statement is inserting, as one more of that
   * statement's CTEs (its text in `statement`): the events are written by the statement that writes
   * the shipment, with no round trip of their own and no read-back (see SubjectSnapshots.newShipment
   * for what the statement must name). Call `written()` once the statement has run.
   */
  newShipment(
    accountId: string,
    shipment: NewShipmentFacts,
    events: { type: EventType; change?: Change }[],
    at: Date,
  ): { statement: SQL; written(): void };
  /** The same for a return (`data.return`). */
  return(
    tx: Executor,
    accountId: string,
    returnId: string,
    events: { type: EventType; change?: Change }[],
    at: Date,
  ): Promise<void>;
  /** Any other subject (a store), with its data built by the caller. */
  record(
    tx: Executor,
    accountId: string,
    event: { type: EventType; subjectType: OtherSubject; subjectId: string; data: object },
    at: Date,
  ): Promise<void>;
  /** Several events about one such subject, in order, in one statement (a remittance file and its discrepancies). */
  recordAll(
    tx: Executor,
    accountId: string,
    subject: { subjectType: OtherSubject; subjectId: string },
    events: { type: EventType; data: object }[],
    at: Date,
  ): Promise<void>;
  /** Called after each record, in process: lets the outbox consumers look sooner than their next poll. */
  onRecorded(listener: () => void): void;
  /**
   * Tells the workers here and in the other processes (a delivery thread, npm run worker) to look
   * now, as a record does, for work written without a new event (a redelivery).
   */
  announce(): void;
}

/** Subjects whose events carry data their callers build. */
export type OtherSubject =
  | 'store'
  | 'cod_remittance_import'
  | 'cod_receivable'
  | 'pickup'
  | 'exchange'
  | 'return_request'
  | 'refund';

/** What a new shipment's snapshot takes from the API process: the columns it names the status by and links it with. */
export interface NewShipmentFacts {
  id: string;
  carrierId: string | null;
  awb: string | null;
  status: string;
  trackToken: string;
}

/**
 * How a subject looks after its change, read inside the change's transaction. The read models
 * (the listings) know that shape; the composition root hands their reader in, so the log stays
 * below every feature and reader and stores exactly what it is handed.
 */
export interface SubjectSnapshots {
  shipment(tx: Executor, accountId: string, shipmentId: string): Promise<object | undefined>;
  /**
   * The snapshot of a shipment being inserted, as an SQL expression (jsonb) evaluated inside the
   * inserting statement, where `shipments`, `orders`, `order_items` and `shipment_milestones` name
   * that statement's CTEs returning the new rows (a CTE hides the table of its name). The facts are
   * the columns the API process adds to what the database writes.
   */
  newShipment(shipment: NewShipmentFacts): SQL;
  return(tx: Executor, accountId: string, returnId: string): Promise<object | undefined>;
}

/**
 * `signal` (PostgreSQL): other processes on the database hear of each record too, and this
 * process's listeners hear of theirs, so a worker in another process (npm run worker, a second API
 * process) looks at once rather than at its next poll.
 */
export function createEventLog({ snapshots, signal }: { snapshots: SubjectSnapshots; signal?: Signal }): EventLog {
  const listeners: (() => void)[] = [];
  const wake = () => {
    for (const listener of listeners) listener();
  };
  signal?.onSignal(wake);
  const recorded = () => {
    wake();
    signal?.send();
  };
  return {
    async shipment(tx, accountId, shipmentId, events, at) {
      if (events.length === 0) return;
      await lockSubject(tx, shipmentId);
      const shipment = await snapshots.shipment(tx, accountId, shipmentId);
      const subject = { subjectType: 'shipment', subjectId: shipmentId } as const;
      await insertEvents(
        tx,
        accountId,
        subject,
        events.map(({ type, change }) => ({ type, data: { shipment, ...change } })),
        at,
      );
      recorded();
    },
    newShipment(accountId, shipment, events, at) {
      const subject = { subjectType: 'shipment', subjectId: shipment.id } as const;
      const data = events.map(({ type, change }) => ({ type, change: change ?? {} }));
      return {
        statement: newSubjectEvents(accountId, subject, 'shipment', snapshots.newShipment(shipment), data, at),
        written: recorded,
      };
    },
    async return(tx, accountId, returnId, events, at) {
      if (events.length === 0) return;
      await lockSubject(tx, returnId);
      const snapshot = await snapshots.return(tx, accountId, returnId);
      const subject = { subjectType: 'return', subjectId: returnId } as const;
      await insertEvents(
        tx,
        accountId,
        subject,
        events.map(({ type, change }) => ({ type, data: { return: snapshot, ...change } })),
        at,
      );
      recorded();
    },
    async record(tx, accountId, event, at) {
      await lockSubject(tx, event.subjectId);
      await insertEvent(tx, accountId, { ...event, createdAt: at });
      recorded();
    },
    async recordAll(tx, accountId, subject, events, at) {
      if (events.length === 0) return;
      await lockSubject(tx, subject.subjectId);
      await insertEvents(tx, accountId, subject, events, at);
      recorded();
    },
    onRecorded(listener) {
      listeners.push(listener);
    },
    announce: recorded,
  };
}
