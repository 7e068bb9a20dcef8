import type { Tx } from '../../base/db/client.js';
import { requireSchema } from '../../domain/schema-problems.js';
import type { ChannelOrigin, ImportChannelOrder } from '../contracts.js';
import { type CreateOrderInput, CreateOrderBody } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';
import { systemActor } from '../../domain/access/permissions.js';

// A store's order as forward-order takes it, from a sales channel: the body the route would have
// validated is checked here against the same schema (no route runs), then made or booked at once.

export function createChannelImport(orders: Pick<OrdersService, 'createOrder' | 'orchestrate'>): ImportChannelOrder {
  return async (accountId: string, body: object, outer: Tx, origin: ChannelOrigin, book: boolean) => {
    requireSchema(CreateOrderBody, body);
    const make = book ? orders.orchestrate : orders.createOrder;
    const store = systemActor(accountId, `the ${origin.channel} store's order ${origin.channelOrderName}`);
    const made = await make(store, body as CreateOrderInput, outer, origin);
    return { orderId: made.order_id, shipmentId: made.shipment_id, awb: made.awb_code };
  };
}
