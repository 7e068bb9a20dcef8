import type { Tx } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { quoteRates } from '../../domain/rates/engine.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { ORDER_ERRORS } from './orders.errors.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { PrepaidConversion, ReissueLabel } from '../contracts.js';
import * as repo from './orders.repository.js';

/**
 * A COD order the buyer paid online becomes prepaid: nothing to collect, the charges re-quoted on
 * the booked service without the COD fee, in the caller's transaction. Allowed until pickup: after
 * it the courier carries the COD amount it was handed. The label is drawn when fetched from the
 * shipment as it stands, so a label never printed prints PREPAID on its next fetch, by any link; a
 * label already printed (fetched as a PDF) shows an amount to collect, so it is re-issued as a
 * merchant's re-issue is, and the links to the COD one are refused.
 */
export function createCodToPrepaid({
  rates,
  warehouses,
  labelLinks,
  reissueLabel,
}: {
  rates: RatesContext;
  warehouses: WarehousesService;
  labelLinks: LabelLinks;
  reissueLabel: ReissueLabel;
}) {
  return async (tx: Tx, actor: Actor, shipmentId: string, now: Date): Promise<PrepaidConversion> => {
    const { accountId } = actor;
    const found = await repo.findShipmentWithOrder(tx, accountId, shipmentId, true);
    if (!found) throw SHIPMENT_ERRORS.shipment_not_found.error(`Shipment '${shipmentId}' not found`);
    const { shipment, order } = found;
    if (!shipment.isCod)
      throw ORDER_ERRORS.shipment_already_prepaid.error(`Shipment '${shipmentId}' is already prepaid`);
    if (shipment.status !== 'pending')
      throw SHIPMENT_ERRORS.shipment_past_pickup.error(
        `Shipment '${shipmentId}' is ${shipment.status}: a COD order turns prepaid only before pickup`,
      );
    const warehouse = await warehouses.requireForOrder(accountId, shipment.warehouseId, tx);
    const quote = quoteRates(
      {
        journeyType: 'forward',
        origin: rates.directory.lookup(warehouse.pincode)!,
        destination: rates.directory.lookup(order.shippingPincode)!,
        deadWeightGrams: order.weightGrams,
        lengthCm: order.lengthCm,
        widthCm: order.breadthCm,
        heightCm: order.heightCm,
        paymentMethod: 'prepaid',
        qcApplicable: false,
      },
      now,
      rates,
    );
    const offered = shipment.carrierId ? quote.couriers.find((c) => c.service.id === shipment.carrierId) : undefined;
    const codPaise = shipment.codAmountPaise;
    await repo.updateOrder(tx, accountId, order.id, { paymentMethod: 'prepaid', codCollectiblePaise: 0 });
    await repo.updateShipment(tx, accountId, shipment.id, {
      isCod: false,
      codAmountPaise: 0,
      updatedAt: now,
      // A service that no longer quotes the lane keeps its booked freight; only the COD fee goes.
      ...(offered
        ? { freightPaise: offered.freightPaise, codChargesPaise: offered.codPaise, rtoChargesPaise: offered.rtoPaise }
        : { codChargesPaise: shipment.carrierId ? 0 : null }),
    });
    const reissued =
      shipment.awb && shipment.labelPrintedAt
        ? await reissueLabel(tx, actor, shipment.id, 'COD order paid online: now prepaid')
        : null;
    return {
      paidPaise: codPaise,
      charges: offered
        ? {
            freight: offered.freightPaise / 100,
            cod_charges: offered.codPaise / 100,
            rto_charges: offered.rtoPaise / 100,
          }
        : null,
      labelUrl: reissued?.label_url ?? (shipment.awb ? labelLinks.urlFor(shipment.id) : null),
      labelVersion: reissued?.label_version ?? null,
    };
  };
}
