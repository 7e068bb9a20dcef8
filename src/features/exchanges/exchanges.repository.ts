import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { exchangeSettings, exchanges, returns, shipments } from '../../base/db/schema.js';
import { exchangeStatus } from '../../domain/shipment/exchange-status.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';

export type ExchangeRow = typeof exchanges.$inferSelect;
export type TermsRow = typeof exchangeSettings.$inferSelect;

export async function findByDisplayId(ex: Executor, accountId: string, displayId: string) {
  const [row] = await ex
    .select()
    .from(exchanges)
    .where(and(eq(exchanges.accountId, accountId), eq(exchanges.displayId, displayId)));
  return row;
}

export async function insertExchange(ex: Executor, row: typeof exchanges.$inferInsert): Promise<ExchangeRow> {
  const [created] = await ex.insert(exchanges).values(row).returning();
  return created!;
}

/** What the exchange's status is read from: both legs' statuses and the pickup's QC result. */
export async function legStatuses(ex: Executor, accountId: string, exchange: ExchangeRow) {
  const [row] = await ex
    .select({ forward: shipments.status, return: returns.status, qcStatus: returns.qcStatus })
    .from(exchanges)
    .innerJoin(shipments, eq(shipments.id, exchanges.forwardShipmentId))
    .innerJoin(returns, eq(returns.id, exchanges.returnId))
    .where(and(eq(exchanges.accountId, accountId), eq(exchanges.id, exchange.id)));
  return row!;
}

export async function findTerms(ex: Executor, accountId: string): Promise<TermsRow | undefined> {
  const [row] = await ex.select().from(exchangeSettings).where(eq(exchangeSettings.accountId, accountId));
  return row;
}

export async function saveTerms(ex: Executor, row: TermsRow): Promise<TermsRow> {
  const { accountId: _, ...values } = row;
  const [saved] = await ex
    .insert(exchangeSettings)
    .values(row)
    .onConflictDoUpdate({ target: exchangeSettings.accountId, set: values })
    .returning();
  return saved!;
}

/** An exchange as its events carry it (event-payloads.ts, EXCHANGE_DATA): the pair, its terms and its status now. */
export async function eventData(ex: Executor, accountId: string, exchangeId: string) {
  const [row] = await ex
    .select({
      exchange: exchanges,
      forwardAwb: shipments.awb,
      forwardStatus: shipments.status,
      returnAwb: returns.awb,
      returnStatus: returns.status,
      qcStatus: returns.qcStatus,
    })
    .from(exchanges)
    .innerJoin(shipments, eq(shipments.id, exchanges.forwardShipmentId))
    .innerJoin(returns, eq(returns.id, exchanges.returnId))
    .where(and(eq(exchanges.accountId, accountId), eq(exchanges.id, exchangeId)));
  const { exchange: e, ...legs } = row!;
  return {
    id: e.id,
    display_id: e.displayId,
    unique_id: e.uniqueId,
    status: exchangeStatus({
      forward: legs.forwardStatus as ShipmentStatus,
      return: legs.returnStatus as ReturnStatus,
      qcStatus: legs.qcStatus,
      replacementHeld: e.replacementHeld,
    }),
    forward_shipment_id: e.forwardShipmentId,
    forward_awb: legs.forwardAwb,
    return_id: e.returnId,
    return_awb: legs.returnAwb,
    release_on: e.releaseOn,
    replacement_held: e.replacementHeld,
    qc_failed_at: e.qcFailedAt?.toISOString() ?? null,
  };
}
