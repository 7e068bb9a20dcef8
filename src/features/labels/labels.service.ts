import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import { heldMessage, heldShipments, holdOf } from '../../shipment-records/hold.js';
import type { EventLog } from '../../events/event-log.js';
import type { FieldError } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { paiseToRupees } from '../../domain/money.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { labelCache } from './label-cache.js';
import { LABEL_ERRORS } from './labels.errors.js';
import { type LabelData, renderLabel, renderLabels } from './label-pdf.js';
import {
  bumpLabelVersion,
  findAccountLabelsByAwbs,
  findAccountShipment,
  findLabelSource,
  lockAccountShipment,
  markLabelPrinted,
} from './labels.repository.js';
import { findAccountReturn, returnLabelData } from './return-label.js';
import { labelLogo } from './label-logo.js';
import { forBox, indiaDateTime, labelBoxes, soldBy } from './label-page-parts.js';
import { type BoxAwb, findBoxAwbs, findWithBoxAwb } from '../../shipment-records/box-awbs.js';

export type LabelsService = ReturnType<typeof createLabelsService>;

/** A printed label of a cancelled booking would put a parcel the courier no longer expects on its van. */
function refuseVoid(shipment: { status: string; awb: string }) {
  if (shipment.status === 'cancelled')
    throw LABEL_ERRORS.label_void.error(`Shipment ${shipment.awb} was cancelled: its label is void`);
}

/** Drawn labels kept per process (label-cache.ts): a few hundred labels of tens of kilobytes. */
const LABEL_CACHE_BYTES = 16 * 1024 * 1024;

/** A bulk label document's limit: a print run (a bulk import of 500 rows prints as one PDF, issue 28), and a few seconds of drawing. */
export const MAX_BULK_LABELS = 500;

/**
 * Labels are drawn when fetched, not at booking: drawing costs several milliseconds that a booking
 * at hundreds per second should not pay, most labels are fetched once, and a label drawn late
 * shows the store's current brand.
 */
export function createLabelsService({
  db,
  links,
  catalogue,
  clock,
  events,
}: {
  db: Db;
  links: LabelLinks;
  catalogue: CourierCatalogue;
  clock: Clock;
  events: EventLog;
}) {
  const record = auditRecorder(clock);
  const drawn = labelCache(LABEL_CACHE_BYTES);

  /** The account's shipment (by id, AWB or a box's AWB) whose label can be printed. */
  async function printable(accountId: string, idOrAwb: string) {
    const asked = await findWithBoxAwb(db, accountId, idOrAwb, (key) => findAccountShipment(db, accountId, key));
    const shipment = asked?.found ?? (await findAccountReturn(db, accountId, idOrAwb));
    if (!shipment) throw SHIPMENT_ERRORS.shipment_not_found.error('Shipment not found');
    const { awb } = shipment;
    if (!awb)
      throw LABEL_ERRORS.label_not_ready.error(
        `Shipment ${shipment.id} has no label yet: no courier has given it an AWB`,
      );
    refuseVoid({ status: shipment.status, awb });
    const hold = await holdOf(db, accountId, shipment.id);
    if (hold) throw SHIPMENT_ERRORS.shipment_held.error(heldMessage(awb, hold));
    return { id: shipment.id, awb, box: asked?.box ?? null };
  }

  /** A forward label not yet fetched as a PDF: the first fetch is noted, since a change after it needs a reprint. */
  type Unprinted = { accountId: string; shipmentId: string } | null;

  /** Everything a shipment's (or a return's) label prints, when its label was last re-issued, and whether it was ever printed. */
  async function labelOf(
    shipmentId: string,
  ): Promise<{ data: LabelData; reissuedAt: Date | null; unprinted: Unprinted } | undefined> {
    const source = await findLabelSource(db, shipmentId);
    if (!source) {
      const found = await returnLabelData(db, shipmentId, catalogue);
      if (!found) return undefined;
      refuseVoid({ status: found.status, awb: found.data.awb });
      return { data: found.data, reissuedAt: null, unprinted: null };
    }
    const awb = source.shipment.awb;
    if (!awb) return undefined;
    const { shipment, order, warehouse, store } = source;
    refuseVoid({ status: shipment.status, awb });
    // A signed link made at booking must not print the label of a parcel the hold keeps back.
    const hold = await holdOf(db, shipment.accountId, shipment.id);
    if (hold) throw SHIPMENT_ERRORS.shipment_held.error(heldMessage(awb, hold));
    const data: LabelData = {
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
      ewayBill: order.ewaybillNo && [order.ewaybillNo, order.ewaybillDate].filter(Boolean).join(' of '),
      codAmount: shipment.isCod ? paiseToRupees(shipment.codAmountPaise) : null,
      weightKg: order.weightGrams / 1000,
      dimensionsCm: [order.lengthCm, order.breadthCm, order.heightCm],
      zone: `zone_${shipment.zone.toLowerCase()}`,
      testMode: shipment.testMode,
      courierBarcodes: shipment.courierBarcodes,
      boxes: labelBoxes(order.packages, source.boxes, source.items),
      reissue: shipment.labelReissuedAt
        ? `Label ${shipment.labelVersion}, re-issued ${indiaDateTime(shipment.labelReissuedAt)}`
        : null,
    };
    return {
      data,
      reissuedAt: shipment.labelReissuedAt,
      unprinted: shipment.labelPrintedAt ? null : { accountId: shipment.accountId, shipmentId: shipment.id },
    };
  }

  /**
   * The label about to be drawn, noted as printed first when it never was, and then read again: a
   * COD-to-prepaid committing meanwhile either sees the print (and re-issues the label) or is seen
   * by the second read (which draws PREPAID). Once per label version; later fetches read once.
   */
  async function printing(shipmentId: string) {
    const label = await labelOf(shipmentId);
    if (!label?.unprinted) return label;
    await markLabelPrinted(db, label.unprinted.accountId, label.unprinted.shipmentId, clock.now());
    return labelOf(shipmentId);
  }

  return {
    checkLink: links.check,
    linkIssuedAt: links.issuedAt,

    /** A new signed link to the label, for a link that expired or was never kept. */
    async link(accountId: string, idOrAwb: string) {
      const shipment = await printable(accountId, idOrAwb);
      const { url, expiresAt } = links.issue(shipment.id);
      return { shipment_id: shipment.id, awb_code: shipment.awb, label_url: url, expires_at: expiresAt.toISOString() };
    },

    /** The label PDF itself, for a caller holding the account's credential. */
    async pdfFor(accountId: string, idOrAwb: string) {
      const shipment = await printable(accountId, idOrAwb);
      const pdf = await this.render(shipment.id, undefined, shipment.box);
      if (!pdf) throw LABEL_ERRORS.label_not_found.error('Label not found');
      return pdf;
    },

    /**
     * The label's data for a print with more pages (the label route's include=invoice): refused as
     * pdfFor refuses, and noted printed as a fetched label is.
     */
    async labelFor(accountId: string, idOrAwb: string): Promise<LabelData> {
      const shipment = await printable(accountId, idOrAwb);
      const label = await printing(shipment.id);
      if (!label) throw LABEL_ERRORS.label_not_found.error('Label not found');
      return forBox(label.data, shipment.box);
    },

    /**
     * The label behind a signed link. A link signed before the label's latest re-issue answers 410:
     * whoever holds it (a printer's queue, a link shared before an address was corrected) must
     * not print the superseded label. Links are signed to the second, so a link made in the
     * second of a re-issue still works. `box`: the one box's page, named by its AWB.
     */
    async render(
      shipmentId: string,
      linkIssuedAt?: Date,
      box?: BoxAwb | null,
    ): Promise<{ awb: string; bytes: Buffer } | undefined> {
      const superseded = (label: { data: LabelData; reissuedAt: Date | null }) => {
        const { data, reissuedAt } = label;
        if (
          linkIssuedAt &&
          reissuedAt &&
          Math.floor(linkIssuedAt.getTime() / 1000) < Math.floor(reissuedAt.getTime() / 1000)
        ) {
          throw LABEL_ERRORS.label_superseded.error([
            `The label of ${data.awb} was re-issued after this link was made: fetch the new label`,
          ]);
        }
      };
      const found = await labelOf(shipmentId);
      if (!found) return undefined;
      // A link the latest re-issue refused prints nothing, so it is refused before the print is noted.
      superseded(found);
      const label = found.unprinted ? await printing(shipmentId) : found;
      if (!label) return undefined;
      superseded(label);
      const data = forBox(label.data, box);
      return { awb: box?.awb ?? data.awb, bytes: await drawn.get(shipmentId, data, () => renderLabel(data)) };
    },

    /**
     * One PDF of the account's labels, a page per AWB in the order asked (a repeated AWB once).
     * An AWB the account does not have, or whose label is void, is named in a 422 and no PDF is
     * made, since a print run missing a page is a parcel nobody labels. A held shipment is left
     * out on purpose (its parcel must not be packed) and named in `held`; all of them held is a 409.
     * A multi-piece shipment's box AWB prints that box's page, unless its master AWB, which prints
     * every box, is asked too.
     */
    async bulkPdf(accountId: string, awbs: string[]): Promise<{ pdf: Buffer; held: string[] }> {
      const wanted = [...new Set(awbs)];
      const found = new Map<string, { id: string; status: string; box?: BoxAwb }>(
        (await findAccountLabelsByAwbs(db, accountId, wanted)).map((row) => [row.awb!, row]),
      );
      const boxes = await findBoxAwbs(
        db,
        accountId,
        wanted.filter((awb) => !found.has(awb)),
      );
      for (const [awb, box] of boxes) found.set(awb, { id: box.shipmentId, status: box.shipmentStatus, box });
      const problems: FieldError[] = [];
      awbs.forEach((awb, i) => {
        const row = found.get(awb);
        if (!row) problems.push({ field: `awbs[${i}]`, message: `AWB ${awb} is not a shipment of this account` });
        else if (row.status === 'cancelled')
          problems.push({
            field: `awbs[${i}]`,
            message: row.box
              ? `Box ${row.box.boxNo} (${awb}) of shipment ${row.box.masterAwb} was cancelled: its label is void`
              : `Shipment ${awb} was cancelled: its label is void`,
          });
      });
      if (problems.length > 0)
        throw LABEL_ERRORS.bulk_labels_refused.error(
          problems.map((p) => p.message),
          problems,
        );
      const holds = await heldShipments(
        db,
        accountId,
        wanted.map((awb) => found.get(awb)!.id),
      );
      const held = wanted.filter((awb) => holds.has(found.get(awb)!.id));
      const whole = new Set(wanted.flatMap((awb) => (found.get(awb)!.box ? [] : [found.get(awb)!.id])));
      const printed = wanted.filter((awb) => {
        const row = found.get(awb)!;
        return !holds.has(row.id) && !(row.box && whole.has(row.id));
      });
      if (printed.length === 0)
        throw SHIPMENT_ERRORS.shipment_held.error(held.map((awb) => heldMessage(awb, holds.get(found.get(awb)!.id)!)));
      const labels: LabelData[] = [];
      for (const awb of printed) {
        const row = found.get(awb)!;
        const label = await printing(row.id);
        if (!label) throw LABEL_ERRORS.label_not_found.error(`Label of ${awb} not found`);
        labels.push(forBox(label.data, row.box));
      }
      return { pdf: await renderLabels(labels), held };
    },

    /**
     * A new version of a forward shipment's label: the same AWB (the courier's booking stands), a
     * version number printed on it, and every link signed before now refused (render). Only before
     * pickup: afterwards the courier has the parcel and has scanned its label.
     */
    async reissue(actor: Actor, idOrAwb: string, reason: string | undefined, outer?: Tx) {
      const { accountId } = actor;
      const now = clock.now();
      const reissued = await inTransaction(db, outer, async (tx) => {
        // A box's AWB names its shipment: the label of every box is re-issued, as one version.
        const shipment = (
          await findWithBoxAwb(tx, accountId, idOrAwb, (key) => lockAccountShipment(tx, accountId, key))
        )?.found;
        if (!shipment) {
          if (await findAccountReturn(tx, accountId, idOrAwb)) {
            throw LABEL_ERRORS.return_label_not_reissuable.error(
              "A return's label cannot be re-issued: fetch it again with GET /shipments/{id}/label",
              'id',
            );
          }
          throw SHIPMENT_ERRORS.shipment_not_found.error('Shipment not found');
        }
        const { awb } = shipment;
        if (!awb)
          throw LABEL_ERRORS.label_not_ready.error(
            `Shipment ${shipment.id} has no label yet: no courier has given it an AWB`,
          );
        refuseVoid({ status: shipment.status, awb });
        if (shipment.status !== 'pending') {
          throw SHIPMENT_ERRORS.shipment_past_pickup.error(
            `Shipment ${awb} is ${shipment.status}: a label can be re-issued only before pickup`,
          );
        }
        const version = await bumpLabelVersion(tx, accountId, shipment.id, now);
        const change = { label_version: version, previous_version: shipment.labelVersion, reason: reason ?? null };
        await events.shipment(tx, accountId, shipment.id, [{ type: 'shipment.label_reissued', change }], now);
        await record(tx, actor, {
          action: 'shipment.label_reissued',
          objectType: 'shipment',
          objectId: shipment.id,
          changes: change,
        });
        return { id: shipment.id, awb, version };
      });
      const { url, expiresAt } = links.issue(reissued.id);
      return {
        shipment_id: reissued.id,
        awb_code: reissued.awb,
        label_version: reissued.version,
        reissued_at: now.toISOString(),
        label_url: url,
        expires_at: expiresAt.toISOString(),
      };
    },
  };
}
