import type { Db } from '../../base/db/client.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { paiseToRupees } from '../../domain/money.js';
import { type Party, sellerGstin, type TaxInvoice, taxInvoice } from '../../domain/paperwork/tax-invoice.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { INVOICE_ERRORS } from './invoice.errors.js';
import { type InvoiceData, renderInvoice, renderInvoices } from './invoice-pdf.js';
import { findInvoiceSource, type InvoiceSource } from './invoice.repository.js';
import { labelLogo } from './label-logo.js';
import { findWithBoxAwb } from '../../shipment-records/box-awbs.js';

// A shipment's tax invoice (docs/paperwork.md, "The buyer's tax invoice"): the number its booking
// issued, the seller's details its store holds, the order's lines taxed by place of supply. Drawn
// when asked, like labels, in the store's brand.

export type InvoicesService = ReturnType<typeof createInvoicesService>;

const names = (...parts: (string | null)[]) => parts.filter(Boolean).join(' ');

export function createInvoicesService({ db, directory }: { db: Db; directory: PincodeDirectory }) {
  /** A pincode's State as the directory names it (the GST state codes' names), else the address's own words. */
  const stateOf = (pincode: string, written: string) => directory.lookup(pincode)?.state ?? written;

  function partiesOf(order: InvoiceSource['order']) {
    const buyer: Omit<Party, 'stateCode'> = {
      name: names(order.billingName, order.billingLastName),
      lines: [
        order.companyName,
        order.billingAddress,
        order.billingAddress2,
        `${order.billingCity}, ${order.billingState} ${order.billingPincode}`,
      ].filter((line): line is string => Boolean(line)),
      state: stateOf(order.billingPincode, order.billingState),
      // A business buyer's GSTIN (billing_gstin) makes it a B2B invoice; without one, the buyer is unregistered.
      gstin: order.buyerGstin,
    };
    const shipTo = order.shippingIsBilling
      ? null
      : {
          name: names(order.shippingName, order.shippingLastName),
          lines: [
            order.shippingAddress,
            order.shippingAddress2,
            `${order.shippingCity}, ${order.shippingState} ${order.shippingPincode}`,
          ].filter((line): line is string => Boolean(line)),
          state: stateOf(order.shippingPincode, order.shippingState),
        };
    return { buyer, shipTo };
  }

  async function invoiceOf(accountId: string, idOrAwb: string) {
    // One invoice per shipment: a multi-piece shipment's box AWB names its shipment's.
    const source = (await findWithBoxAwb(db, accountId, idOrAwb, (key) => findInvoiceSource(db, accountId, key)))
      ?.found;
    if (!source) throw SHIPMENT_ERRORS.shipment_not_found.error('Shipment not found');
    const { shipment, order, warehouse, store, number } = source;
    if (!store?.prefix || !store.gstin || !store.legalName || !store.address) {
      throw INVOICE_ERRORS.invoice_details_missing.error(
        store
          ? `The store of shipment ${shipment.id} has no invoice details: set them with PUT /custom/api/v1/client-stores/${store.id}/invoice-details`
          : `Shipment ${shipment.id} has no store: a tax invoice is issued under a store's invoice details (its order's store_name)`,
      );
    }
    if (!number?.prefix) {
      throw INVOICE_ERRORS.invoice_not_numbered.error(
        shipment.awb
          ? `Shipment ${shipment.awb} was booked before its store had invoice details: it has no invoice number`
          : `Shipment ${shipment.id} has no courier booked yet: its invoice is numbered at booking`,
      );
    }
    const supplierState = stateOf(warehouse.pincode, warehouse.state);
    const gstin = sellerGstin(store.gstin, warehouse.gstNo, supplierState);
    if (!gstin) {
      throw INVOICE_ERRORS.invoice_gstin_other_state.error(
        `The store's GSTIN ${store.gstin} is not registered in ${supplierState}, where warehouse ${warehouse.name} is, ` +
          `and the warehouse has no GSTIN of ${supplierState} (gst_no): set one on the warehouse`,
      );
    }
    const invoice = taxInvoice({
      number: { ...number, prefix: number.prefix },
      seller: { legalName: store.legalName, address: store.address },
      sellerGstin: gstin,
      supplierState,
      ...partiesOf(order),
      items: source.items,
      orderDiscountPaise: order.totalDiscountPaise,
    });
    return { source, invoice };
  }

  return {
    /** The invoice as JSON: the same fields the PDF prints, money in rupees. */
    async json(accountId: string, idOrAwb: string) {
      const { source, invoice } = await invoiceOf(accountId, idOrAwb);
      return invoiceView(source, invoice);
    },

    /** What the invoice's pages print, in the store's brand: for the PDF, alone or after the label. */
    async data(accountId: string, idOrAwb: string): Promise<InvoiceData> {
      const { source, invoice } = await invoiceOf(accountId, idOrAwb);
      // invoiceOf refused a shipment without a store with invoice details: the store is there.
      const store = source.store!;
      return {
        ...invoice,
        brandName: store.brandName ?? invoice.seller.name,
        brandLogo: await labelLogo(db, { ...store, id: store.id! }),
        orderId: source.order.merchantOrderId,
        awb: source.shipment.awb,
      };
    },

    /** The invoice as an A4 PDF in the store's brand. */
    async pdf(accountId: string, idOrAwb: string): Promise<{ number: string; bytes: Buffer }> {
      const data = await this.data(accountId, idOrAwb);
      return { number: data.number, bytes: await renderInvoice(data) };
    },

    /**
     * A print run's invoices, one A4 PDF, each in its store's brand, in the order sent (an AWB
     * repeated prints once, and so does a shipment named by its master AWB and a box's). All or
     * nothing: every AWB that cannot be invoiced is named with why.
     */
    async bulkPdf(accountId: string, awbs: readonly string[]): Promise<Buffer> {
      const invoices: InvoiceData[] = [];
      const problems: FieldError[] = [];
      const seen = new Set<string>();
      for (const [i, awb] of awbs.entries()) {
        if (seen.has(awb)) continue;
        seen.add(awb);
        try {
          const data = await this.data(accountId, awb);
          if (!invoices.some((one) => one.number === data.number)) invoices.push(data);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          problems.push({ field: `awbs[${i}]`, message: `${awb}: ${error.message}` });
        }
      }
      if (problems.length > 0)
        throw INVOICE_ERRORS.bulk_invoices_refused.error(
          problems.map((p) => p.message),
          problems,
        );
      return renderInvoices(invoices, `Tax invoices (${invoices.length})`);
    },
  };
}

const rupees = paiseToRupees;

const shipToView = (party: Omit<Party, 'gstin'>) => ({
  name: party.name,
  address: party.lines,
  state: party.state,
  state_code: party.stateCode,
});
const partyView = (party: Party) => ({ ...shipToView(party), gstin: party.gstin });

function invoiceView(source: InvoiceSource, invoice: TaxInvoice) {
  return {
    shipment_id: source.shipment.id,
    awb_code: source.shipment.awb,
    order_id: source.order.merchantOrderId,
    invoice_number: invoice.number,
    invoice_date: invoice.date,
    seller: partyView(invoice.seller),
    buyer: partyView(invoice.buyer),
    ship_to: invoice.shipTo && shipToView(invoice.shipTo),
    place_of_supply: { state: invoice.placeOfSupply.state, state_code: invoice.placeOfSupply.stateCode },
    supply: invoice.supply,
    items: invoice.lines.map((line) => ({
      name: line.name,
      sku: line.sku,
      hsn: line.hsn,
      units: line.units,
      unit_price: rupees(line.unitPricePaise),
      discount: rupees(line.discountPaise),
      taxable_value: rupees(line.taxablePaise),
      tax_percent: line.taxPercent,
      taxes: line.taxes.map((tax) => ({
        kind: tax.kind,
        rate_percent: tax.ratePercent,
        amount: rupees(tax.amountPaise),
      })),
      total: rupees(line.totalPaise),
    })),
    totals: {
      taxable_value: rupees(invoice.totals.taxablePaise),
      taxes: invoice.totals.taxes.map((tax) => ({ kind: tax.kind, amount: rupees(tax.amountPaise) })),
      rounding: rupees(invoice.totals.roundingPaise),
      total: rupees(invoice.totals.totalPaise),
      amount_in_words: invoice.amountInWords,
    },
  };
}
