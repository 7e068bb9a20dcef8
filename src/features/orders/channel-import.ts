import { Value } from 'typebox/value';
import type { Tx } from '../../base/db/client.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import type { ChannelOrigin, ImportChannelOrder } from '../contracts.js';
import { type CreateOrderInput, CreateOrderBody } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';

// A store's order as forward-order takes it, from a sales channel: the body the route would have
// validated is checked here against the same schema (no route runs), then made or booked at once.

function schemaProblems(body: unknown): FieldError[] {
  return [...Value.Errors(CreateOrderBody, body)].flatMap((error) => {
    const path = error.instancePath.split('/').filter(Boolean);
    // A missing field is reported on its parent (the body itself: instancePath ''): name each
    // missing one, as the route's own validation does, so the merchant sees billing_phone, not body.
    const missing =
      error.keyword === 'required' ? (error.params as { requiredProperties?: unknown }).requiredProperties : undefined;
    if (Array.isArray(missing) && missing.length > 0)
      return missing.map((name) => {
        const field = [...path, String(name)].join('.');
        return { field, message: `${field} is required` };
      });
    const field = path.join('.') || 'body';
    return [{ field, message: `${field} ${error.message}` }];
  });
}

export function createChannelImport(orders: Pick<OrdersService, 'createOrder' | 'orchestrate'>): ImportChannelOrder {
  return async (accountId: string, body: object, outer: Tx, origin: ChannelOrigin, book: boolean) => {
    const problems = schemaProblems(body);
    if (problems.length > 0) {
      throw new DomainError(
        'invalid',
        problems.map((p) => p.message),
        problems,
      );
    }
    const make = book ? orders.orchestrate : orders.createOrder;
    const made = await make(accountId, body as CreateOrderInput, outer, origin);
    return { orderId: made.order_id, shipmentId: made.shipment_id, awb: made.awb_code };
  };
}
