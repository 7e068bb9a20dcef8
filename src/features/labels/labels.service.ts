import type { Db } from '../../base/db/client.js';
import { AppError, notFound } from '../../http/errors.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { paiseToRupees } from '../../domain/money.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { labelCache } from './label-cache.js';
import { type LabelData, renderLabel } from './label-pdf.js';
import { findAccountShipment, findLabelSource } from './labels.repository.js';
import { findAccountReturn, returnLabelData } from './return-label.js';
import { labelPngOf } from '../../tenancy/stores/logo.js';
import { readLogoBytes, saveLabelPng } from '../../tenancy/stores/stores.repository.js';

export type LabelsService = ReturnType<typeof createLabelsService>;

const IST_MS = 330 * 60 * 1000;
const indiaDateTime = (at: Date) => `${new Date(at.getTime() + IST_MS).toISOString().slice(0, 16).replace('T', ' ')} IST`;

/** "Sold by" for a marketplace order: the vendor's name, with its city when known. */
function soldBy(vendor: Record<string, string> | null): string | null {
  if (!vendor?.name) return null;
  return vendor.city ? `${vendor.name}, ${vendor.city}` : vendor.name;
}

/** A printed label of a cancelled booking would put a parcel the courier no longer expects on its van. */
function refuseVoid(shipment: { status: string; awb: string }) {
  if (shipment.status === 'cancelled') throw new AppError(410, [`Shipment ${shipment.awb} was cancelled: its label is void`]);
}

type LabelStore = NonNullable<Awaited<ReturnType<typeof findLabelSource>>>['store'];

/**
 * The logo as labels draw it: the small PNG made at upload. A logo stored before every upload got
 * one has it made on its first label (by sharp, off the event loop, within the upload's pixel
 * limits) and kept; one over the limits, or damaged, keeps an empty copy and leaves the brand name
 * alone on its labels. The original is never drawn.
 */
async function labelLogo(db: Db, store: LabelStore): Promise<Buffer | null> {
  if (!store?.logoSha256) return null;
  if (store.logoPng) return store.logoPng.length > 0 ? store.logoPng : null;
  const original = await readLogoBytes(db, store.id, store.logoSha256);
  if (!original) return null;
  const png = await labelPngOf(original);
  await saveLabelPng(db, store.id, store.logoSha256, png ?? Buffer.alloc(0));
  return png;
}

/** Drawn labels kept per process (label-cache.ts): a few hundred labels of tens of kilobytes. */
const LABEL_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Labels are drawn when fetched, not at booking: drawing costs several milliseconds that a booking
 * at hundreds per second should not pay, most labels are fetched once, and a label drawn late
 * shows the store's current brand.
 */
export function createLabelsService({ db, links, catalogue }: { db: Db; links: LabelLinks; catalogue: CourierCatalogue }) {
  const drawn = labelCache(LABEL_CACHE_BYTES);

  /** The account's shipment (by id or AWB) whose label can be printed. */
  async function printable(accountId: string, idOrAwb: string) {
    const shipment = (await findAccountShipment(db, accountId, idOrAwb)) ?? (await findAccountReturn(db, accountId, idOrAwb));
    if (!shipment) throw notFound('Shipment not found');
    const { awb } = shipment;
    if (!awb) throw notFound(`Shipment ${shipment.id} has no label yet: no courier has given it an AWB`);
    refuseVoid({ status: shipment.status, awb });
    return { id: shipment.id, awb };
  }

  /** A return's label: the same label, its addresses the other way round (return-label.ts). */
  async function renderReturn(shipmentId: string) {
    const found = await returnLabelData(db, shipmentId, catalogue);
    if (!found) return undefined;
    refuseVoid({ status: found.status, awb: found.data.awb });
    return { awb: found.data.awb, bytes: await renderLabel(found.data) };
  }

  return {
    checkLink: links.check,

    /** A new signed link to the label, for a link that expired or was never kept. */
    async link(accountId: string, idOrAwb: string) {
      const shipment = await printable(accountId, idOrAwb);
      const { url, expiresAt } = links.issue(shipment.id);
      return { shipment_id: shipment.id, awb_code: shipment.awb, label_url: url, expires_at: expiresAt.toISOString() };
    },

    /** The label PDF itself, for a caller holding the account's credential. */
    async pdfFor(accountId: string, idOrAwb: string) {
      const shipment = await printable(accountId, idOrAwb);
      const pdf = await this.render(shipment.id);
      if (!pdf) throw notFound('Label not found');
      return pdf;
    },

    async render(shipmentId: string): Promise<{ awb: string; bytes: Buffer } | undefined> {
      const source = await findLabelSource(db, shipmentId);
      if (!source) return renderReturn(shipmentId);
      const awb = source.shipment.awb;
      if (!awb) return undefined;
      const { shipment, order, warehouse, store } = source;
      refuseVoid({ status: shipment.status, awb });
      const label: LabelData = {
        awb,
        courierName: catalogue.byId.get(shipment.carrierId!)?.name ?? shipment.carrierId!,
        brandName: store?.brandName ?? source.accountName,
        brandLogo: await labelLogo(db, store),
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
        returnTo: {
          name: warehouse.name,
          lines: [warehouse.streetAddress, `${warehouse.city}, ${warehouse.state} ${warehouse.pincode}`],
          phone: warehouse.phone,
        },
        gstin: warehouse.gstNo,
        soldBy: soldBy(order.vendorDetails),
        orderId: order.merchantOrderId,
        orderDate: indiaDateTime(order.orderDate),
        items: source.items,
        declaredValue: paiseToRupees(order.subTotalPaise),
        codAmount: shipment.isCod ? paiseToRupees(shipment.codAmountPaise) : null,
        weightKg: order.weightGrams / 1000,
        dimensionsCm: [order.lengthCm, order.breadthCm, order.heightCm],
        zone: `zone_${shipment.zone.toLowerCase()}`,
        testMode: shipment.testMode,
      };
      return { awb, bytes: await drawn.get(shipment.id, label, () => renderLabel(label)) };
    },
  };
}
