import type { Tx } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { requireSchema } from '../../domain/schema-problems.js';
import type { BookExchange } from '../contracts.js';
import { CreateExchangeBody, type CreateExchangeInput } from './exchanges.schemas.js';
import type { ExchangesService } from './exchanges.service.js';

/**
 * Exchanges as another module books them (an approved exchange request, features/return-requests):
 * the route's own path, its body checked as the route checks it, in the caller's transaction.
 */
export function exchangeBooking(exchanges: Pick<ExchangesService, 'orchestrate'>): BookExchange {
  return async (actor: Actor, body: object, tx: Tx) => {
    requireSchema(CreateExchangeBody, body);
    const made = await exchanges.orchestrate(actor, body as CreateExchangeInput, tx);
    return {
      exchangeId: made.exchange_order_id,
      returnId: made.return_id,
      parcels: [
        { carrierId: made.forward_shipment_details.courier_company_id, awb: made.forward_awb, journey: 'forward' },
        { carrierId: made.return_shipment.courier_company_id, awb: made.reverse_awb, journey: 'return' },
      ],
    };
  };
}
