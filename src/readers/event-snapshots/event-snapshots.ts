import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Executor } from '../../base/db/client.js';
import { returnItems, returns } from '../../base/db/schema.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { toReturnElement } from '../returns-listing/returns-listing.js';
import type { ShipmentElement } from '../shipments/shipment-element.schemas.js';
import { type ElementWriter, elementWriter } from '../shipments/shipments.service.js';
import type { SubjectSnapshots } from '../../events/event-log.js';
import type { TrackUrl } from '../../domain/shipment/track-links.js';
import { findReturnEventsOf } from '../returns-listing/return-history.repository.js';
import { exchangeLinkOf, selectReturnsWithExchange } from '../returns-listing/return-exchange.repository.js';
import { ELEMENT_COLUMNS, ELEMENT_JOINS, findElements } from '../shipments/shipment-element.repository.js';

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
export async function returnSnapshots(
  ex: Executor,
  accountId: string,
  returnIds: string[],
  catalogue: CourierCatalogue,
) {
  const rows = await selectReturnsWithExchange(ex).where(
    and(eq(returns.accountId, accountId), inArray(returns.id, returnIds)),
  );
  const items = await ex
    .select()
    .from(returnItems)
    .where(and(eq(returnItems.accountId, accountId), inArray(returnItems.returnId, returnIds)))
    .orderBy(asc(returnItems.position));
  const events = await findReturnEventsOf(ex, accountId, returnIds);
  return new Map(
    rows.map((r) => [r.row.id, toReturnElement(r.row, items, events, catalogue, exchangeLinkOf(r), r.refundStatus)]),
  );
}

/** The listings' readers, as the event log takes them (events/event-log.ts). */
export function createSubjectSnapshots({
  catalogue,
  trackUrl,
}: {
  catalogue: CourierCatalogue;
  trackUrl: TrackUrl;
}): SubjectSnapshots {
  const writeShipment = elementWriter(catalogue, trackUrl);
  return {
    shipment: async (tx, accountId, shipmentId) =>
      (await shipmentSnapshots(tx, accountId, [shipmentId], writeShipment)).get(shipmentId),
    newShipment(shipment) {
      // The writer's fields before the database's attributes: what it writes for this row around
      // an empty attribute object, less the closing brace. A new shipment has no sub-status,
      // attempt, RTO or reattempt request yet.
      const head = writeShipment({
        id: shipment.id,
        created_ms: '',
        carrier_id: shipment.carrierId,
        awb: shipment.awb,
        status: shipment.status,
        track_token: shipment.trackToken,
        sub_status: null,
        attempt_count: 0,
        rto_started: false,
        reattempt_requested: false,
        attributes: '{',
      }).slice(0, -1);
      return sql`(select (${head}::text || substr(e.attributes, 2) || '}')::jsonb
        from (select ${ELEMENT_COLUMNS} from shipments s ${ELEMENT_JOINS}
              where s.id = ${shipment.id}::uuid) e)`;
    },
    return: async (tx, accountId, returnId) =>
      (await returnSnapshots(tx, accountId, [returnId], catalogue)).get(returnId),
  };
}
