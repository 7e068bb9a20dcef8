import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { exchangeSettings, exchanges, returns, shipments } from '../../base/db/schema.js';

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
