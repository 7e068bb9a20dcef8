import { type InvoiceLineInput, invoiceLines, invoiceTotals, taxSplit } from './invoice-tax.js';
import { stateCodeOf } from './tax-invoice.js';

/*
 * Part A of an e-way bill as the NIC e-way bill API (v1.03, `genewaybill`) takes it, built from an
 * order: the request's field names, types and codes are the ones public clients send (Odoo's
 * l10n_in_edi_ewaybill, odoo/odoo addons/l10n_in_edi_ewaybill/models/account_edi_format.py,
 * `_l10n_in_edi_ewaybill_generate_json`; TaxPro's request classes, ROHIT0JANGRA/TMS_MLPL
 * `TaxProEwayBillGenerationRequest`): docs/paperwork.md, "Generation through a GSP". Pure: the
 * caller reads the rows and the pincode directory.
 */

/** An unregistered person's GSTIN in the request (Odoo sends `vat or "URP"` for either party). */
export const UNREGISTERED = 'URP';

export interface EwayBillItem {
  productName: string;
  productDesc: string;
  /** Digits only (Odoo: extract_digits; TaxPro: an int). */
  hsnCode: number;
  quantity: number;
  /** Units of quantity: NOS, numbers (Odoo falls back to OTH when a product's unit has no code). */
  qtyUnit: string;
  /** Rupees, two decimals. */
  taxableAmount: number;
  cgstRate?: number;
  sgstRate?: number;
  igstRate?: number;
  cessRate: number;
}

/** The `genewaybill` request: every field Dakiya sends, none it cannot fill. */
export interface EwayBillRequest {
  supplyType: 'O';
  subSupplyType: '1';
  docType: 'INV';
  docNo: string;
  /** dd/mm/yyyy. */
  docDate: string;
  /** 1 regular, 2 bill to – ship to. */
  transactionType: 1 | 2;
  fromGstin: string;
  fromTrdName: string;
  fromAddr1: string;
  fromAddr2: string;
  fromPlace: string;
  fromPincode: number;
  fromStateCode: number;
  actFromStateCode: number;
  toGstin: string;
  toTrdName: string;
  toAddr1: string;
  toAddr2: string;
  toPlace: string;
  toPincode: number;
  toStateCode: number;
  actToStateCode: number;
  itemList: EwayBillItem[];
  totalValue: number;
  cgstValue: number;
  sgstValue: number;
  igstValue: number;
  cessValue: number;
  cessNonAdvolValue: number;
  otherValue: number;
  totInvValue: number;
  /** Kilometres, as text (Odoo: `str(l10n_in_distance)`; TaxPro: a string). */
  transDistance: string;
}

export interface EwayBillAddress {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  pincode: string;
  /** As the pincode directory names it. */
  state: string;
}

export interface EwayBillSource {
  document: { number: string /** India date, YYYY-MM-DD. */; date: string };
  /** The GSTIN the GSP user generates under (the e-way bill API's error 359: it must be the outward supply's fromGstin). */
  supplierGstin: string;
  /** The warehouse the goods leave, named by the supplier's trade name. */
  dispatchFrom: EwayBillAddress;
  /** The buyer as billed, with their GSTIN when registered. */
  billTo: EwayBillAddress & { gstin: string | null };
  /** Where the goods go, when not the billing address. */
  shipTo: EwayBillAddress | null;
  items: readonly InvoiceLineInput[];
  orderDiscountPaise: number;
  distanceKm: number;
}

/** NIC's `docNo`: up to 16 characters of letters, digits, `/` and `-` (error 206 otherwise; Odoo checks `^.{1,16}$`). */
export const EWAY_BILL_DOC_NO = /^[A-Za-z0-9/-]{1,16}$/;

const rupees = (paise: number) => paise / 100;
const digits = (text: string | null) => (text ?? '').replace(/[^0-9]/g, '');
const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('/');
const cut = (text: string, max: number) => text.slice(0, max);

/** The State's GST code as a number; 0 when the directory's State has none (the caller refuses before). */
const stateNumber = (state: string) => Number(stateCodeOf(state) ?? 0);

/**
 * The request. Taxes come from the same computation as the buyer's tax invoice (invoice-tax.ts:
 * prices tax included, the place of supply the delivery State), so the bill and the invoice agree.
 */
export function ewayBillRequest(source: EwayBillSource): EwayBillRequest {
  const delivery = source.shipTo ?? source.billTo;
  const split = taxSplit(source.dispatchFrom.state, delivery.state);
  const lines = invoiceLines(source.items, source.orderDiscountPaise, split);
  const totals = invoiceTotals(lines, split);
  const taxOf = (kinds: readonly string[]) =>
    rupees(totals.taxes.filter((t) => kinds.includes(t.kind)).reduce((sum, t) => sum + t.amountPaise, 0));
  const from = source.dispatchFrom;
  return {
    supplyType: 'O',
    subSupplyType: '1',
    docType: 'INV',
    docNo: source.document.number,
    docDate: ddmmyyyy(source.document.date),
    transactionType: source.shipTo ? 2 : 1,
    fromGstin: source.supplierGstin,
    fromTrdName: cut(from.name, 100),
    fromAddr1: cut(from.line1, 120),
    fromAddr2: cut(from.line2 ?? '', 120),
    fromPlace: cut(from.city, 50),
    fromPincode: Number(from.pincode),
    fromStateCode: Number(source.supplierGstin.slice(0, 2)),
    actFromStateCode: stateNumber(from.state),
    toGstin: source.billTo.gstin ?? UNREGISTERED,
    toTrdName: cut(source.billTo.name, 100),
    toAddr1: cut(delivery.line1, 120),
    toAddr2: cut(delivery.line2 ?? '', 120),
    toPlace: cut(delivery.city, 50),
    toPincode: Number(delivery.pincode),
    toStateCode: stateNumber(source.billTo.state),
    actToStateCode: stateNumber(delivery.state),
    itemList: lines.map((line) => {
      const rate = (kind: string) => line.taxes.find((t) => t.kind === kind)?.ratePercent ?? 0;
      return {
        productName: cut(line.name, 100),
        productDesc: cut(line.sku, 100),
        hsnCode: Number(digits(line.hsn)),
        quantity: line.units,
        qtyUnit: 'NOS',
        taxableAmount: rupees(line.taxablePaise),
        ...(split.supply === 'inter_state'
          ? { igstRate: rate('igst') }
          : { cgstRate: rate('cgst'), sgstRate: rate('sgst') + rate('utgst') }),
        cessRate: 0,
      };
    }),
    totalValue: rupees(totals.taxablePaise),
    cgstValue: taxOf(['cgst']),
    // UTGST goes where SGST does: the API has no field of its own for it.
    sgstValue: taxOf(['sgst', 'utgst']),
    igstValue: taxOf(['igst']),
    cessValue: 0,
    cessNonAdvolValue: 0,
    otherValue: 0,
    totInvValue: rupees(totals.exactPaise),
    transDistance: String(Math.max(1, Math.round(source.distanceKm))),
  };
}

/**
 * What Dakiya cannot send as the API wants it, each naming the order's field: the document number's
 * form, a line without a numeric HSN (error 216), a State without a GST code. Empty when none.
 */
export function ewayBillSourceProblems(source: EwayBillSource): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!EWAY_BILL_DOC_NO.test(source.document.number))
    problems.push({
      field: 'order_id',
      message: `the document number ${source.document.number} is not up to 16 letters, digits, / and -, as the e-way bill's docNo must be: give the store invoice details so the bill carries its tax invoice number`,
    });
  source.items.forEach((item, i) => {
    if (digits(item.hsn).length < 4)
      problems.push({
        field: `order_items[${i}].hsn`,
        message: `order_items[${i}].hsn must be the item's HSN code of at least 4 digits for its e-way bill`,
      });
  });
  for (const [field, state] of [
    ['warehouse', source.dispatchFrom.state],
    ['billing_state', source.billTo.state],
    ['shipping_pincode', (source.shipTo ?? source.billTo).state],
  ] as const) {
    if (stateCodeOf(state) === null) problems.push({ field, message: `${state} has no GST state code` });
  }
  return problems;
}
