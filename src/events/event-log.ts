import type { Executor } from '../base/db/client.js';
import type { EventType } from '../domain/shipment/event-types.js';
import { insertEvent, insertEvents } from './events.repository.js';

/** What changed, beside the subject's new state; the keys depend on the event type (events.schemas.ts). */
export type Change = Record<string, unknown>;

export interface EventLog {
  /**
   * Records events about one shipment in the caller's transaction, each with the shipment as the
   * listing shows it after the change plus `change`. Call it in the transaction that makes the
   * change: the event then commits with it or not at all.
   */
  shipment(tx: Executor, accountId: string, shipmentId: string, events: { type: EventType; change?: Change }[], at: Date): Promise<void>;
  /** The same for a return (`data.return`). */
  return(tx: Executor, accountId: string, returnId: string, events: { type: EventType; change?: Change }[], at: Date): Promise<void>;
  /** Any other subject (a store), with its data built by the caller. */
  record(tx: Executor, accountId: string, event: { type: EventType; subjectType: 'store'; subjectId: string; data: object }, at: Date): Promise<void>;
  /** Called after each record, in process: lets the outbox consumers look sooner than their next poll. */
  onRecorded(listener: () => void): void;
}

/**
 * How a subject looks after its change, read inside the change's transaction. The read models
 * (the listings) know that shape; the composition root hands their reader in, so the log stays
 * below every feature and reader and stores exactly what it is handed.
 */
export interface SubjectSnapshots {
  shipment(tx: Executor, accountId: string, shipmentId: string): Promise<object | undefined>;
  return(tx: Executor, accountId: string, returnId: string): Promise<object | undefined>;
}

export function createEventLog({ snapshots }: { snapshots: SubjectSnapshots }): EventLog {
  const listeners: (() => void)[] = [];
  const recorded = () => {
    for (const listener of listeners) listener();
  };
  return {
    async shipment(tx, accountId, shipmentId, events, at) {
      if (events.length === 0) return;
      const shipment = await snapshots.shipment(tx, accountId, shipmentId);
      const subject = { subjectType: 'shipment', subjectId: shipmentId } as const;
      await insertEvents(tx, accountId, subject, events.map(({ type, change }) => ({ type, data: { shipment, ...change } })), at);
      recorded();
    },
    async return(tx, accountId, returnId, events, at) {
      if (events.length === 0) return;
      const snapshot = await snapshots.return(tx, accountId, returnId);
      const subject = { subjectType: 'return', subjectId: returnId } as const;
      await insertEvents(tx, accountId, subject, events.map(({ type, change }) => ({ type, data: { return: snapshot, ...change } })), at);
      recorded();
    },
    async record(tx, accountId, event, at) {
      await insertEvent(tx, accountId, { ...event, createdAt: at });
      recorded();
    },
    onRecorded(listener) {
      listeners.push(listener);
    },
  };
}
