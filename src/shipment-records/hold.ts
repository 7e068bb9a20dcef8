import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { orderConfirmations, shipments } from '../base/db/schema.js';

/*
 * The hold (decision 92): a COD shipment whose buyer has not confirmed, under the account's hold
 * policy, must not be handed to the courier. Buyer messaging writes `order_confirmations.held`;
 * labels and pickups read it. Both are features, so the one definition of "held" lives here.
 */

/**
 * True for a held row of `shipments`: usable in any statement over that table (a pickup request's
 * selection, a listing), e.g. `where(and(eq(shipments.accountId, id), not(shipmentHeld)))`.
 */
export const shipmentHeld: SQL = sql`exists (select 1 from ${orderConfirmations}
  where ${orderConfirmations.accountId} = ${shipments.accountId} and ${orderConfirmations.shipmentId} = ${shipments.id} and ${orderConfirmations.held})`;

/** Which of the account's shipments (ids) are held. */
export async function heldShipmentIds(ex: Executor, accountId: string, shipmentIds: string[]): Promise<Set<string>> {
  if (shipmentIds.length === 0) return new Set();
  const rows = await ex
    .select({ id: orderConfirmations.shipmentId })
    .from(orderConfirmations)
    .where(
      and(
        eq(orderConfirmations.accountId, accountId),
        inArray(orderConfirmations.shipmentId, shipmentIds),
        eq(orderConfirmations.held, true),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** Whether this shipment of the account is held. */
export async function isHeld(ex: Executor, accountId: string, shipmentId: string): Promise<boolean> {
  return (await heldShipmentIds(ex, accountId, [shipmentId])).has(shipmentId);
}

/** The words every refusal of a held shipment uses, so a logistics person reads one reason everywhere. */
export const heldMessage = (awbOrId: string) =>
  `Shipment ${awbOrId} is held: its buyer has not confirmed this cash-on-delivery order (the account's hold policy), so it must not be handed to the courier. It is released when the buyer confirms or pays online`;
