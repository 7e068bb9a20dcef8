import type { Static } from 'typebox';
import { forwardInStores } from '../shipments/store-limit.js';
import type { Db } from '../../base/db/client.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { pageOf } from '../shipments/shipments.service.js';
import { elementBuilder } from './exchange-element.js';
import { conditions, countExchanges, findExchangePage, findLegItems } from './exchange-listing.repository.js';
import type { ListExchangesBody } from './exchange-listing.schemas.js';
import { exchanges } from '../../base/db/schema.js';

type ListInput = Static<typeof ListExchangesBody>;

export type ExchangeListing = ReturnType<typeof createExchangeListing>;

/**
 * `POST /exchange-orders`: an account's exchanges with their legs, filtered and counted in the
 * database, paged by number as Velocity's answer describes it (meta.total_pages, no cursor).
 */
export function createExchangeListing({ db, catalogue }: { db: Db; catalogue: CourierCatalogue }) {
  const toElement = elementBuilder(catalogue);
  return {
    /** Of every store, or of the stores `reach` names (an exchange is its forward shipment's store's). */
    async list(accountId: string, body: ListInput, reach: readonly string[] | null = null) {
      const { page, perPage } = pageOf(body);
      const where = [...conditions(accountId, body), ...forwardInStores(exchanges.forwardShipmentId, accountId, reach)];
      const [rows, total] = await Promise.all([
        findExchangePage(db, where, {
          limit: perPage,
          offset: (page - 1) * perPage,
          sortBy: body.sort_by ?? 'created_at',
          descending: (body.sort_order ?? 'desc') === 'desc',
        }),
        countExchanges(db, where),
      ]);
      const items = await findLegItems(
        db,
        accountId,
        rows.map((row) => row.order.id),
        rows.map((row) => row.ret.id),
      );
      return {
        data: rows.map((row) => toElement(row, items.orderItems, items.returnItems)),
        meta: {
          total,
          page,
          current_page: page,
          per_page: perPage,
          total_pages: Math.ceil(total / perPage),
        },
      };
    },
  };
}
