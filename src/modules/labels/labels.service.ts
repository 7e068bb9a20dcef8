import type { Db } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import type { CourierCatalogue } from '../rates/catalogue.js';
import { paiseToRupees } from '../rates/money.js';
import type { LabelLinks } from './label-links.js';
import { renderLabel } from './label-pdf.js';
import { findLabelSource } from './labels.repository.js';

export type LabelsService = ReturnType<typeof createLabelsService>;

const IST_MS = 330 * 60 * 1000;
const indiaDateTime = (at: Date) => `${new Date(at.getTime() + IST_MS).toISOString().slice(0, 16).replace('T', ' ')} IST`;

/** "Sold by" for a marketplace order: the vendor's name, with its city when known. */
function soldBy(vendor: Record<string, string> | null): string | null {
  if (!vendor?.name) return null;
  return vendor.city ? `${vendor.name}, ${vendor.city}` : vendor.name;
}

/**
 * Labels are drawn when fetched, not at booking: drawing costs several milliseconds that a booking
 * at hundreds per second should not pay, most labels are fetched once, and a label drawn late
 * shows the store's current brand.
 */
export function createLabelsService({ db, links, catalogue }: { db: Db; links: LabelLinks; catalogue: CourierCatalogue }) {
  return {
    checkLink: links.check,

    async render(shipmentId: string): Promise<{ awb: string; bytes: Buffer } | undefined> {
      const source = await findLabelSource(db, shipmentId);
      const awb = source?.shipment.awb;
      if (!source || !awb) return undefined;
      const { shipment, order, warehouse, store } = source;
      // A printed label of a cancelled booking would put a parcel the courier no longer expects on its van.
      if (shipment.status === 'cancelled') throw new AppError(410, [`Shipment ${awb} was cancelled: its label is void`]);
      const bytes = await renderLabel({
        awb,
        courierName: catalogue.byId.get(shipment.carrierId!)?.name ?? shipment.carrierId!,
        brandName: store?.brandName ?? source.accountName,
        brandLogo: store?.logo ?? null,
        shipTo: {
          name: [order.shippingName, order.shippingLastName].filter(Boolean).join(' '),
          lines: [
            order.companyName,
            order.shippingAddress,
            order.shippingAddress2,
            `${order.shippingCity}, ${order.shippingState} ${order.shippingPincode}`,
          ].filter((line): line is string => Boolean(line)),
          phone: order.shippingPhone,
        },
        shipFrom: {
          name: warehouse.name,
          lines: [
            warehouse.streetAddress,
            `${warehouse.city}, ${warehouse.state} ${warehouse.pincode}`,
            ...(warehouse.gstNo ? [`GSTIN: ${warehouse.gstNo}`] : []),
          ],
          phone: warehouse.phone,
        },
        soldBy: soldBy(order.vendorDetails),
        orderId: order.merchantOrderId,
        orderDate: indiaDateTime(order.orderDate),
        items: source.items,
        codAmount: shipment.isCod ? paiseToRupees(shipment.codAmountPaise) : null,
        weightKg: order.weightGrams / 1000,
        dimensionsCm: [order.lengthCm, order.breadthCm, order.heightCm],
        zone: `zone_${shipment.zone.toLowerCase()}`,
      });
      return { awb, bytes };
    },
  };
}
