import type { Tx } from '../../base/db/client.js';
import { requireSchema } from '../../domain/schema-problems.js';
import type { ChannelOrigin, ImportChannelOrder } from '../contracts.js';
import { type CreateOrderInput, CreateOrderBody } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';
import { systemActor } from '../../domain/access/permissions.js';
import { DomainError } from '../../domain/errors.js';
import { ORDER_ERRORS } from './orders.errors.js';

// A store's order as forward-order takes it, from a sales channel: the body the route would have
// validated is checked here against the same schema (no route runs), then made or booked at once.

export function createChannelImport(orders: Pick<OrdersService, 'createOrder' | 'orchestrate'>): ImportChannelOrder {
  return async (accountId: string, body: object, outer: Tx, origin: ChannelOrigin, book: boolean) => {
    requireSchema(CreateOrderBody, body);
    const store = systemActor(accountId, `the ${origin.channel} store's order ${origin.channelOrderName}`);
    const order = body as CreateOrderInput;
    // A store's order that needs an e-way bill is kept unbooked (its answer says why), for the
    // merchant to add the bill's number and book: refused, it would not be imported at all.
    const made = book
      ? await orders.orchestrate(store, order, outer, origin).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === ORDER_ERRORS.eway_bill_required.code)
            return orders.createOrder(store, order, outer, origin);
          throw error;
        })
      : await orders.createOrder(store, order, outer, origin);
    return { orderId: made.order_id, shipmentId: made.shipment_id, awb: made.awb_code };
  };
}
