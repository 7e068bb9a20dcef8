import { fontedDocument } from '../../base/pdf/pdf-document.js';
import type { Weight } from '../../base/pdf/pdf-fonts.js';
import { createMeasurer, drawLines, type Line, linesHeight, type Measurer, wrap } from '../../base/pdf/pdf-text.js';
import type { Party, TaxInvoice } from '../../domain/paperwork/tax-invoice.js';
import type { TaxKind } from '../../domain/paperwork/invoice-tax.js';

// The buyer's tax invoice as an A4 page (more when its items need them), drawn with the label's
// fonts and text layout (base/pdf), in the store's brand: the seller and buyer, the place of
// supply, the items with their HSN, value, discount, taxable value, rate and each tax, the totals
// with the rounding line, and the amount in words (docs/paperwork.md).

/** A4 in PDF points. */
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const WIDTH = PAGE[0] - 2 * MARGIN;
const BOTTOM = PAGE[1] - MARGIN;

export interface InvoiceData extends TaxInvoice {
  brandName: string;
  /** PNG or JPEG bytes, or null. */
  brandLogo: Buffer | null;
  orderId: string;
  awb: string | null;
}

const KIND_NAMES: Record<TaxKind, string> = { cgst: 'CGST', sgst: 'SGST', utgst: 'UTGST', igst: 'IGST' };

/** Paise as an amount in a column: "1,18,000.00" (Indian grouping; the currency is said once, in the header). */
const amount = (paise: number) =>
  (paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = (rate: number) => `${Number(rate.toFixed(3))}%`;
const signed = (paise: number) => (paise > 0 ? `+${amount(paise)}` : paise < 0 ? `-${amount(-paise)}` : amount(0));
const withCode = (state: string, code: string | null) => (code ? `${state} (${code})` : state);

/** "2026-11-20" → "20-11-2026", as Indian invoices date. */
const dayFirst = (date: string) => date.split('-').reverse().join('-');

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

export function renderInvoice(invoice: InvoiceData): Promise<Buffer> {
  return renderInvoices([invoice], `Tax invoice ${invoice.number}`);
}

/** Invoices one after another in one A4 PDF, each from a page of its own: a pickup's print run. */
export async function renderInvoices(invoices: readonly InvoiceData[], title: string): Promise<Buffer> {
  const { doc, done } = fontedDocument({
    size: PAGE,
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: title, Author: 'Dakiya' },
  });
  for (const invoice of invoices) drawInvoice(doc, invoice);
  doc.end();
  return done;
}

/** The invoice's pages, added to `doc`: the label route's combined print draws it after the label. */
export function drawInvoice(doc: PDFKit.PDFDocument, invoice: InvoiceData) {
  const measure = createMeasurer();
  doc.addPage({ size: PAGE, margin: MARGIN });
  const text = (value: string, weight: Weight, size: number, x: number, y: number, width: number) =>
    drawLines(doc, wrap(value, weight, size, width, measure), x, y, width);
  const rule = (at: number) =>
    doc
      .moveTo(MARGIN, at)
      .lineTo(PAGE[0] - MARGIN, at)
      .stroke();

  // The brand, and what the document is.
  let y = MARGIN;
  let brandX = MARGIN;
  if (invoice.brandLogo) {
    try {
      doc.image(invoice.brandLogo, MARGIN, y, { fit: [72, 40] });
      brandX += 80;
    } catch {
      // A logo pdfkit cannot decode leaves the brand name to stand alone.
    }
  }
  const brandBottom = text(invoice.brandName, 'bold', 16, brandX, y + 4, WIDTH / 2);
  const titleBottom = rightText(doc, measure, 'TAX INVOICE', 'bold', 16, MARGIN + WIDTH / 2, y + 4, WIDTH / 2);
  y = Math.max(brandBottom, titleBottom, MARGIN + 40) + 6;
  y = rightText(doc, measure, `Invoice No. ${invoice.number}`, 'bold', 10, MARGIN, y, WIDTH);
  y = rightText(doc, measure, `Invoice Date ${dayFirst(invoice.date)}`, 'regular', 9, MARGIN, y, WIDTH);
  const refs = [`Order ${invoice.orderId}`, ...(invoice.awb ? [`AWB ${invoice.awb}`] : [])].join(' · ');
  y = rightText(doc, measure, refs, 'regular', 9, MARGIN, y, WIDTH) + 6;
  rule(y);
  y += 8;

  // The parties: seller left, buyer (and ship-to) right.
  const half = WIDTH / 2 - 10;
  const sellerBottom = party(doc, measure, 'SOLD BY', invoice.seller, MARGIN, y, half);
  let buyerBottom = party(doc, measure, 'BILL TO', invoice.buyer, MARGIN + WIDTH / 2 + 10, y, half);
  if (invoice.shipTo)
    buyerBottom = party(doc, measure, 'SHIP TO', invoice.shipTo, MARGIN + WIDTH / 2 + 10, buyerBottom + 6, half);
  y = Math.max(sellerBottom, buyerBottom) + 6;
  const supply = invoice.supply === 'intra_state' ? 'Intra-State supply' : 'Inter-State supply';
  y = text(
    `Place of supply: ${withCode(invoice.placeOfSupply.state, invoice.placeOfSupply.stateCode)} · ${supply} · Amounts in ₹ (INR)`,
    'bold',
    9,
    MARGIN,
    y,
    WIDTH,
  );
  y += 6;

  // The items.
  const kinds = invoice.totals.taxes.map((tax) => tax.kind);
  const taxWidth = kinds.length === 1 ? 76 : 56;
  const columns: Column[] = [
    { title: '#', width: 16, align: 'left' },
    { title: 'Item', width: 0, align: 'left' },
    { title: 'HSN', width: 40, align: 'left' },
    { title: 'Qty', width: 26, align: 'right' },
    { title: 'Unit price', width: 52, align: 'right' },
    { title: 'Discount', width: 46, align: 'right' },
    { title: 'Taxable value', width: 58, align: 'right' },
    ...kinds.map((kind): Column => ({ title: `${KIND_NAMES[kind]} rate, amount`, width: taxWidth, align: 'right' })),
    { title: 'Total', width: 58, align: 'right' },
  ];
  columns[1]!.width = WIDTH - columns.reduce((sum, column) => sum + column.width, 0);
  const row = (cells: string[], weight: Weight, top: number) => {
    const laid = cells.map((cell, i) => wrap(cell, weight, 8, columns[i]!.width - 4, measure));
    const height = Math.max(...laid.map(linesHeight));
    let x = MARGIN;
    laid.forEach((lines, i) => {
      const column = columns[i]!;
      if (column.align === 'right') rightLines(doc, lines, x, top, column.width - 4);
      else drawLines(doc, lines, x, top, column.width - 4);
      x += column.width;
    });
    return top + height + 3;
  };
  const header = (top: number) => {
    const bottom = row(
      columns.map((column) => column.title),
      'bold',
      top,
    );
    rule(bottom);
    return bottom + 3;
  };
  y = header(y);
  invoice.lines.forEach((line, i) => {
    const cells = [
      String(i + 1),
      `${line.name}\nSKU ${line.sku}`,
      line.hsn ?? '-',
      String(line.units),
      amount(line.unitPricePaise),
      amount(line.discountPaise),
      amount(line.taxablePaise),
      ...line.taxes.map((tax) => `${percent(tax.ratePercent)}\n${amount(tax.amountPaise)}`),
      amount(line.totalPaise),
    ];
    // A row that would cross the page's foot starts a new page, under the header again.
    const laidHeight = Math.max(
      ...cells.map((cell, c) => linesHeight(wrap(cell, 'regular', 8, columns[c]!.width - 4, measure))),
    );
    if (y + laidHeight > BOTTOM - 20) {
      doc.addPage({ size: PAGE, margin: MARGIN });
      y = header(MARGIN);
    }
    y = row(cells, 'regular', y);
  });
  rule(y);
  y += 6;

  // The totals, the rounding line and the amount in words.
  const totals: [string, string][] = [
    ['Taxable value', amount(invoice.totals.taxablePaise)],
    ...invoice.totals.taxes.map((tax): [string, string] => [`${KIND_NAMES[tax.kind]}`, amount(tax.amountPaise)]),
    ['Total before rounding', amount(invoice.totals.exactPaise)],
    ['Rounding off', signed(invoice.totals.roundingPaise)],
  ];
  const needed = (totals.length + 4) * 14;
  if (y + needed > BOTTOM) {
    doc.addPage({ size: PAGE, margin: MARGIN });
    y = MARGIN;
  }
  const labelX = MARGIN + WIDTH - 260;
  for (const [label, value] of totals) {
    drawLines(doc, wrap(label, 'regular', 9, 160, measure), labelX, y, 160);
    y = rightText(doc, measure, value, 'regular', 9, labelX + 160, y, 100);
  }
  doc
    .moveTo(labelX, y + 1)
    .lineTo(PAGE[0] - MARGIN, y + 1)
    .stroke();
  y += 4;
  drawLines(doc, wrap('Invoice total', 'bold', 11, 160, measure), labelX, y, 160);
  y = rightText(doc, measure, `₹${amount(invoice.totals.totalPaise)}`, 'bold', 11, labelX + 160, y, 100) + 8;
  y = text(`Amount in words: ${invoice.amountInWords}`, 'bold', 9, MARGIN, y, WIDTH) + 10;
  text(
    'Prices as sold include tax; tax is charged on the taxable value. The total is rounded to the nearest rupee. ' +
      'This is a computer-generated invoice.',
    'regular',
    7,
    MARGIN,
    y,
    WIDTH,
  );
}

/** A party's block: its heading, name, address, State with its code, and GSTIN when it has one. */
function party(
  doc: PDFKit.PDFDocument,
  measure: Measurer,
  heading: string,
  who: Omit<Party, 'gstin'> & { gstin?: string | null },
  x: number,
  top: number,
  width: number,
) {
  let y = drawLines(doc, wrap(heading, 'bold', 8, width, measure), x, top, width);
  y = drawLines(doc, wrap(who.name, 'bold', 10, width, measure), x, y + 1, width);
  const lines = [
    ...who.lines,
    `State: ${withCode(who.state, who.stateCode)}`,
    ...(who.gstin ? [`GSTIN: ${who.gstin}`] : []),
  ];
  return drawLines(doc, wrap(lines.join('\n'), 'regular', 9, width, measure), x, y, width);
}

/** Lines drawn flush with the right edge of `width` from `left`; answers the y below the last. */
function rightLines(doc: PDFKit.PDFDocument, lines: Line[], left: number, top: number, width: number) {
  let y = top;
  for (const line of lines) y = drawLines(doc, [line], left + Math.max(0, width - line.width), y, line.width);
  return y;
}

function rightText(
  doc: PDFKit.PDFDocument,
  measure: Measurer,
  value: string,
  weight: Weight,
  size: number,
  left: number,
  top: number,
  width: number,
) {
  return rightLines(doc, wrap(value, weight, size, width, measure), left, top, width);
}
