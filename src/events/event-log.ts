import type { Executor } from '../base/db/client.js';
import type { CourierCatalogue } from '../domain/rates/catalogue.js';
import type { EventType } from '../domain/shipment/event-types.js';
import { insertEvent, insertEvents } from './events.repository.js';
import type { TrackUrl } from '../domain/shipment/track-links.js';
import { elementWriter } from '../readers/shipments/shipments.service.js';
import { returnSnapshots, shipmentSnapshots } from '../readers/event-snapshots/event-snapshots.js';

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

export function createEventLog({ catalogue, trackUrl }: { catalogue: CourierCatalogue; trackUrl: TrackUrl }): EventLog {
  const writeShipment = elementWriter(catalogue, trackUrl);
  const listeners: (() => void)[] = [];
  const recorded = () => {
    for (const listener of listeners) listener();
  };
  return {
    async shipment(tx, accountId, shipmentId, events, at) {
      if (events.length === 0) return;
      const shipment = (await shipmentSnapshots(tx, accountId, [shipmentId], writeShipment)).get(shipmentId);
      const subject = { subjectType: 'shipment', subjectId: shipmentId } as const;
      await insertEvents(tx, accountId, subject, events.map(({ type, change }) => ({ type, data: { shipment, ...change } })), at);
      recorded();
    },
    async return(tx, accountId, returnId, events, at) {
      if (events.length === 0) return;
      const snapshot = (await returnSnapshots(tx, accountId, [returnId], catalogue)).get(returnId);
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
