import type { Executor, Tx } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { notFound } from '../../domain/errors.js';
import { rupeesToPaise } from '../../domain/money.js';
import { requireSchema } from '../../domain/schema-problems.js';
import type { ExchangeLegBooking, ForwardLeg } from '../contracts.js';
import type { OrderPayloadView } from './order-answers.schemas.js';
import * as repo from './orders.repository.js';
import { type CreateOrderInput, CreateOrderBody } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';

// An exchange's replacement (features/exchanges): a forward order booked by forward-order's own
// orchestration, in the exchange's transaction, and shown as its answer shows it.

function legOf(view: OrderPayloadView): ForwardLeg {
  const charges = view.charges;
  return {
    orderId: view.order_id,
    merchantOrderId: view.channel_order_id,
    shipmentId: view.shipment_id,
    awb: view.awb_code,
    carrierId: view.courier_company_id,
    courierName: view.courier_name,
    appliedWeightKg: view.applied_weight,
    status: view.status,
    labelUrl: view.label_url,
    trackUrl: view.track_url,
    testMode: view.test_mode,
    warnings: view.warnings ?? [],
    isCod: view.cod === 1,
    // The answer's rupees hold at most two decimals: back to paise exactly.
    freightPaise: rupeesToPaise(charges?.forward_freight_charges ?? 0),
    codPaise: rupeesToPaise(charges?.cod_charges ?? 0),
    rtoPaise: rupeesToPaise(charges?.rto_freight_charges ?? 0),
  };
}

export function createForwardLeg(orders: Pick<OrdersService, 'orchestrate' | 'view'>): ExchangeLegBooking<ForwardLeg> {
  return {
    async book(actor: Actor, body: object, tx: Tx) {
      requireSchema(CreateOrderBody, body);
      return legOf(await orders.orchestrate(actor, body as CreateOrderInput, tx));
    },

    async read(ex: Executor, accountId: string, shipmentId: string) {
      const found = await repo.findShipmentWithOrder(ex, accountId, shipmentId);
      if (!found) throw notFound(`Shipment ${shipmentId} not found`);
      return legOf(orders.view(found.order, found.shipment, null));
    },
  };
}
