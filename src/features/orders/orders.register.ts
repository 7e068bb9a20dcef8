import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { Host } from '../../http/host.js';
import type { CancelShipment, CorrectDeliveryAddress, ReissueLabel } from '../contracts.js';
import { createBuyerAddressUpdate } from './buyer-address.js';
import { createChannelImport } from './channel-import.js';
import { createCodToPrepaid } from './cod-to-prepaid.js';
import { createForwardLeg } from './exchange-leg.js';
import { createOrderUpdateService } from './order-update.service.js';
import { ordersRoutes } from './orders.routes.js';
import { createOrdersService } from './orders.service.js';
import type { OrderSettings } from './orders.settings.js';

type OrdersDeps = Parameters<typeof createOrdersService>[0];

export interface OrdersContext
  extends Pick<
    OrdersDeps,
    | 'db'
    | 'clock'
    | 'rates'
    | 'events'
    | 'trackUrl'
    | 'warehouses'
    | 'stores'
    | 'couriers'
    | 'returns'
    | 'allocator'
    | 'applyShipmentEvents'
    | 'ewayBill'
  > {
  settings: { orders: OrderSettings };
  /** The label links bookings hand out, and the re-issue COD-to-prepaid reprints with (features/labels). */
  labels: { links: LabelLinks; reissue: ReissueLabel };
  /** NDR's: an address PUT /order corrects during a failed delivery goes to the courier (features/ndr). */
  correctDeliveryAddress: CorrectDeliveryAddress;
}

/**
 * Orders: booking, updates and cancellation; and what orders hands the buyer-facing modules: the
 * cancellation buyer messaging offers, COD to prepaid, the buyer's address form, and an exchange's replacement.
 */
export function registerOrders(host: Host, ctx: OrdersContext) {
  const { db, clock, rates, events, warehouses, couriers, labels } = ctx;
  const { rtoChecks } = ctx.settings.orders;
  const orders = createOrdersService({ ...ctx, labelLinks: labels.links, rtoChecks });
  const updates = createOrderUpdateService({
    db,
    clock,
    orders,
    events,
    directory: rates.directory,
    rtoChecks,
    correctDeliveryAddress: ctx.correctDeliveryAddress,
  });
  host.routes?.add('account', ordersRoutes(orders, updates));
  const cancelShipment: CancelShipment = (actor, shipmentId, outer) =>
    orders.cancelShipment(actor, shipmentId, undefined, outer);
  return {
    cancelShipment,
    importChannelOrder: createChannelImport(orders),
    exchangeLeg: createForwardLeg(orders),
    convertToPrepaid: createCodToPrepaid({ rates, warehouses, labelLinks: labels.links, reissueLabel: labels.reissue }),
    buyerAddress: createBuyerAddressUpdate({ ...rates, db, clock, events, couriers, rtoChecks }),
  };
}
