import type { OrderPackage } from '../../base/db/schema.js';
import type { BookedBoxRow } from '../../shipment-records/shipment-boxes.js';
import type { BoxAwb } from '../../shipment-records/box-awbs.js';
import type { LabelBox, LabelData } from './label-pdf.js';

// What a label's page shows besides the shipment's own columns: the time in India, the marketplace
// seller, and a multi-piece shipment's boxes (a page each, or one box's alone).

const IST_MS = 330 * 60 * 1000;
export const indiaDateTime = (at: Date) =>
  `${new Date(at.getTime() + IST_MS).toISOString().slice(0, 16).replace('T', ' ')} IST`;

/** "Sold by" for a marketplace order: the vendor's name, with its city when known. */
export function soldBy(vendor: Record<string, string> | null): string | null {
  if (!vendor?.name) return null;
  return vendor.city ? `${vendor.name}, ${vendor.city}` : vendor.name;
}

/** The label as asked by a box's own AWB prints that box's page alone; by the shipment, every box's. */
export const forBox = (data: LabelData, box: BoxAwb | null | undefined): LabelData =>
  box ? { ...data, onlyBox: box.boxNo } : data;

/**
 * A multi-piece shipment's boxes as its label prints them, a page each (label-pdf.ts): each booked
 * box's AWB beside its package's weight, size and items (named as the order names them). Null for a
 * shipment in one box.
 */
export function labelBoxes(
  packages: OrderPackage[] | null,
  booked: BookedBoxRow[],
  items: { name: string; sku: string; units: number }[],
): LabelBox[] | null {
  if (!packages || booked.length !== packages.length) return null;
  const nameOf = new Map(items.map((item) => [item.sku, item.name]));
  return packages.map((box, i) => ({
    awb: booked[i]!.awb,
    weightKg: box.weightGrams / 1000,
    dimensionsCm: [box.lengthCm, box.breadthCm, box.heightCm],
    items: box.items.map((item) => ({ ...item, name: nameOf.get(item.sku) ?? item.sku })),
  }));
}
