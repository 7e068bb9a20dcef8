import { amountInWords } from './amount-in-words.js';
import { GST_STATE_CODES, gstinProblems } from './gstin.js';
import { invoiceNumber } from './invoice-number.js';
import {
  type InvoiceLine,
  type InvoiceLineInput,
  type InvoiceTotals,
  invoiceLines,
  invoiceTotals,
  type Supply,
  taxSplit,
} from './invoice-tax.js';

/*
 * A buyer's tax invoice as rule 46 of the CGST Rules lists its contents: the supplier's name,
 * address and GSTIN, a consecutive number and the date, the recipient's name and address (and
 * GSTIN when registered), the place of supply with its State, each item's HSN, quantity, value,
 * discount, taxable value, rate and tax by kind, and the total. Pure: the caller reads the rows.
 */

/** The State a GST state code names, and the code of a State (its lowest, for a State with two: 37 for Andhra Pradesh). */
export const stateCodeOf = (state: string): string | null => {
  const codes = Object.entries(GST_STATE_CODES)
    .filter(([, name]) => name === state)
    .map(([code]) => code);
  // 25 and 28 are the older registrations of merged or divided States: a place of supply takes the current code.
  return codes.filter((code) => code !== '25' && code !== '28')[0] ?? codes[0] ?? null;
};

export interface Party {
  name: string;
  lines: string[];
  state: string;
  stateCode: string | null;
  gstin: string | null;
}

export interface TaxInvoice {
  number: string;
  /** India date, YYYY-MM-DD. */
  date: string;
  seller: Party;
  buyer: Party;
  /** Where the goods are delivered, when not the buyer's own address. */
  shipTo: Omit<Party, 'gstin'> | null;
  placeOfSupply: { state: string; stateCode: string | null };
  supply: Supply;
  lines: InvoiceLine[];
  totals: InvoiceTotals;
  amountInWords: string;
}

export interface TaxInvoiceInput {
  number: { prefix: string; financialYear: number; sequence: number; issuedAt: Date };
  seller: { legalName: string; address: string };
  /** The GSTIN invoices are issued under (sellerGstin's choice). */
  sellerGstin: string;
  /** Where the goods leave from: the warehouse's State (the location of the supplier). */
  supplierState: string;
  buyer: Omit<Party, 'stateCode'>;
  shipTo: Omit<Party, 'stateCode' | 'gstin'> | null;
  items: InvoiceLineInput[];
  orderDiscountPaise: number;
}

const IST_MS = 330 * 60 * 1000;
const indiaDate = (at: Date) => new Date(at.getTime() + IST_MS).toISOString().slice(0, 10);

/**
 * The GSTIN a parcel leaving `supplierState` is invoiced under: a registration is per State, so
 * the store's when it is registered there, else the warehouse's own when it passes its checks for
 * that State; null when neither is (the invoice cannot be issued as the rules want).
 */
export function sellerGstin(storeGstin: string, warehouseGstin: string | null, supplierState: string): string | null {
  if (GST_STATE_CODES[storeGstin.slice(0, 2)] === supplierState) return storeGstin;
  if (warehouseGstin && gstinProblems(warehouseGstin, supplierState).length === 0) return warehouseGstin;
  return null;
}

/**
 * The invoice: the place of supply is where the goods are delivered (IGST Act s.10(1)(a): where
 * their movement ends), so the ship-to State when there is one, else the buyer's.
 */
export function taxInvoice(input: TaxInvoiceInput): TaxInvoice {
  const placeOfSupply = input.shipTo?.state ?? input.buyer.state;
  const split = taxSplit(input.supplierState, placeOfSupply);
  const lines = invoiceLines(input.items, input.orderDiscountPaise, split);
  const totals = invoiceTotals(lines, split);
  const { prefix, financialYear, sequence, issuedAt } = input.number;
  return {
    number: invoiceNumber(prefix, financialYear, sequence),
    date: indiaDate(issuedAt),
    seller: {
      name: input.seller.legalName,
      lines: input.seller.address.split(/\r?\n/).filter((line) => line.trim() !== ''),
      state: input.supplierState,
      stateCode: input.sellerGstin.slice(0, 2),
      gstin: input.sellerGstin,
    },
    buyer: { ...input.buyer, stateCode: stateCodeOf(input.buyer.state) },
    shipTo: input.shipTo && { ...input.shipTo, stateCode: stateCodeOf(input.shipTo.state) },
    placeOfSupply: { state: placeOfSupply, stateCode: stateCodeOf(placeOfSupply) },
    supply: split.supply,
    lines,
    totals,
    amountInWords: amountInWords(totals.totalPaise),
  };
}
