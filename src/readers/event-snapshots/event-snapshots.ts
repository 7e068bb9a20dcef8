import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Executor } from '../../base/db/client.js';
import { returnItems, returns } from '../../base/db/schema.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { findReturnEventsOf } from '../../features/returns/return-events.repository.js';
import { toReturnElement } from '../returns-listing/returns-listing.js';
import { findElements } from '../shipments/shipments.repository.js';
import type { ShipmentElement } from '../shipments/shipments.schemas.js';
import type { ElementWriter } from '../shipments/shipments.service.js';

export type ShipmentSnapshot = Static<typeof ShipmentElement>;
export type ReturnSnapshot = ReturnType<typeof toReturnElement>;

/**
 * The shipments as the listing shows them (without its per-read signed label links), read inside
 * the caller's transaction so an event carries the state its change committed. The listing's own
 * statement and element writer build them: one view, not two to keep equal.
 */
export async function shipmentSnapshots(ex: Executor, accountId: string, shipmentIds: string[], write: ElementWriter) {
  const rows = await findElements(ex, accountId, shipmentIds);
  return new Map(rows.map((row) => [row.id, JSON.parse(write(row)) as ShipmentSnapshot]));
}

/** The returns as the returns listing shows them, inside the caller's transaction. */
export async function returnSnapshots(ex: Executor, accountId: string, returnIds: string[], catalogue: CourierCatalogue) {
  const rows = await ex
    .select()
    .from(returns)
    .where(and(eq(returns.accountId, accountId), inArray(returns.id, returnIds)));
  const items = await ex
    .select()
    .from(returnItems)
    .where(and(eq(returnItems.accountId, accountId), inArray(returnItems.returnId, returnIds)))
    .orderBy(asc(returnItems.position));
  const events = await findReturnEventsOf(ex, accountId, returnIds);
  return new Map(rows.map((row) => [row.id, toReturnElement(row, items, events, catalogue)]));
}
