import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { exchanges, orderConfirmations, shipments } from '../base/db/schema.js';

/*
 * The hold: a shipment that must not be handed to its courier yet. Two modules hold one: buyer
 * messaging, for a COD order whose buyer has not confirmed under the account's hold policy
 * (decision 92, `order_confirmations.held`), and exchanges, for a replacement the account's terms
 * send only once the old item is picked up or passes its QC (decision 149,
 * `exchanges.replacement_held`). Labels and pickups read it. All are features, so the one
 * definition of "held" lives here.
 */

export type HoldReason = 'cod_unconfirmed' | 'exchange_awaiting_return';

const codUnconfirmed: SQL = sql`exists (select 1 from ${orderConfirmations}
  where ${orderConfirmations.accountId} = ${shipments.accountId} and ${orderConfirmations.shipmentId} = ${shipments.id} and ${orderConfirmations.held})`;
const exchangeAwaitingReturn: SQL = sql`exists (select 1 from ${exchanges}
  where ${exchanges.accountId} = ${shipments.accountId} and ${exchanges.forwardShipmentId} = ${shipments.id} and ${exchanges.replacementHeld})`;

/**
 * True for a held row of `shipments`: usable in any statement over that table (a pickup request's
 * selection, a listing), e.g. `where(and(eq(shipments.accountId, id), not(shipmentHeld)))`.
 */
export const shipmentHeld: SQL = sql`(${codUnconfirmed} or ${exchangeAwaitingReturn})`;

/** Why a row of `shipments` is held, or null. */
export const shipmentHoldReason = sql<HoldReason | null>`case when ${codUnconfirmed} then 'cod_unconfirmed' when ${exchangeAwaitingReturn} then 'exchange_awaiting_return' end`;

/** Which of the account's shipments (ids) are held, and why. */
export async function heldShipments(
  ex: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<Map<string, HoldReason>> {
  if (shipmentIds.length === 0) return new Map();
  const rows = await ex
    .select({ id: shipments.id, reason: shipmentHoldReason })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.id, shipmentIds), shipmentHeld));
  return new Map(rows.map((row) => [row.id, row.reason!]));
}

/** Why this shipment of the account is held, or null when it is not. */
export async function holdOf(ex: Executor, accountId: string, shipmentId: string): Promise<HoldReason | null> {
  return (await heldShipments(ex, accountId, [shipmentId])).get(shipmentId) ?? null;
}

/** The words every refusal of a held shipment uses, so a logistics person reads one reason everywhere. */
export const heldMessage = (awbOrId: string, reason: HoldReason) =>
  reason === 'cod_unconfirmed'
    ? `Shipment ${awbOrId} is held: its buyer has not confirmed this cash-on-delivery order (the account's hold policy), so it must not be handed to the courier. It is released when the buyer confirms or pays online`
    : `Shipment ${awbOrId} is held: it is an exchange's replacement, which the account's exchange terms send only once the old item is picked up (or passes its quality check). It is released then`;
