import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { shipments } from '../../base/db/schema.js';

/**
 * The stores a credential reaches, as an SQL list. A key can reach none (its stores and its
 * member's no longer meet): `in (null)` is then never true, where `in ()` would not parse.
 */
const storeList = (reach: readonly string[]) =>
  reach.length === 0
    ? sql`null`
    : sql.join(
        reach.map((id) => sql`${id}::uuid`),
        sql`, `,
      );

/** Conditions appended to a raw where clause that has one already (a store limit's, or none). */
export const andAll = (conditions: SQL[]): SQL => sql.join(conditions.map((condition) => sql` and ${condition}`));

/** A store-limited credential's condition on a row's own store column; none for every store. */
export function ownStoreIn(storeId: AnyPgColumn | SQL, reach: readonly string[] | null): SQL[] {
  return reach === null ? [] : [sql`${storeId} in (${storeList(reach)})`];
}

/**
 * A store-limited credential's condition on a row that belongs to a forward shipment (a return, an
 * exchange): its shipment is of one of the stores `reach` names; a row of no forward shipment is
 * of no store. None for every store (`reach` null).
 */
export function forwardInStores(
  forwardShipmentId: AnyPgColumn | SQL,
  accountId: string,
  reach: readonly string[] | null,
): SQL[] {
  if (reach === null) return [];
  const stores = storeList(reach);
  return [
    sql`${forwardShipmentId} in (select ${shipments.id} from ${shipments}
      where ${shipments.accountId} = ${accountId} and ${shipments.storeId} in (${stores}))`,
  ];
}
