import bwipjs from 'bwip-js';
import { fontedDocument } from '../../base/pdf/pdf-document.js';
import type { Weight } from '../../base/pdf/pdf-fonts.js';
import { createMeasurer, drawLines, wrap } from '../../base/pdf/pdf-text.js';
import { formatRupees, paiseToRupees } from '../../domain/money.js';

/** A4 portrait in PDF points: what a warehouse printer holds. */
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const WIDTH = PAGE[0] - 2 * MARGIN;
const ROW_HEIGHT = 46;
/** The space the last page keeps under the table for the totals and the signatures. */
const CLOSING_HEIGHT = 150;
const COLUMNS = [
  { title: '#', width: 26 },
  { title: 'AWB', width: 206 },
  { title: 'Order ID', width: 140 },
  { title: 'Weight (kg)', width: 70 },
  { title: 'COD', width: WIDTH - 26 - 206 - 140 - 70 },
] as const;

export interface ManifestLine {
  awb: string;
  orderId: string;
  weightGrams: number;
  /** Paise to collect; 0 for a prepaid parcel. */
  codAmountPaise: number;
  /** The consignment's e-way bill number, which the rider's hub checks (docs/paperwork.md); null for none. */
  ewayBill?: string | null;
}

export interface ManifestData {
  pickupId: string;
  courierName: string;
  courierReference: string | null;
  warehouseName: string;
  warehouseAddress: string;
  pickupDate: string;
  lines: ManifestLine[];
}

const kilograms = (grams: number) => (grams / 1000).toFixed(3);

/**
 * The pickup's manifest, for the rider to sign: who collects from where on which day, then a row
 * per parcel (its AWB as a Code 128 barcode to scan, the order id, weight, cash to collect), the
 * totals and two signature lines. Drawn from the pickup's rows alone, so a reprint is the same.
 */
export async function renderManifest(data: ManifestData): Promise<Buffer> {
  const { doc, done } = fontedDocument({
    size: PAGE,
    margin: MARGIN,
    autoFirstPage: false,
    info: {
      Title: `Manifest ${data.pickupId}`,
      Author: 'Dakiya',
      CreationDate: new Date(`${data.pickupDate}T00:00:00Z`),
    },
  });
  const measure = createMeasurer();
  const text = (value: string, weight: Weight, size: number, x: number, y: number, width: number) =>
    drawLines(doc, wrap(value, weight, size, width, measure), x, y, width);

  const pages = pageRows(data.lines.length);
  for (const [index, rows] of pages.entries()) {
    doc.addPage({ size: PAGE, margin: MARGIN });
    let y =
      index === 0
        ? header(data, text)
        : text(`Manifest ${data.pickupId} (continued)`, 'bold', 10, MARGIN, MARGIN, WIDTH) + 8;
    y = tableHead(doc, text, y);
    for (const n of rows) {
      y = row(doc, text, y, n + 1, data.lines[n]!);
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (index === pages.length - 1) closing(doc, text, y + 12, data.lines);
    text(`Page ${index + 1} of ${pages.length}`, 'regular', 8, MARGIN, PAGE[1] - MARGIN - 10, WIDTH);
  }
  doc.end();
  return done;
}

type Text = (value: string, weight: Weight, size: number, x: number, y: number, width: number) => number;

/** Row numbers per page: the first page under the header, the last with room for the closing. */
function pageRows(count: number): number[][] {
  const first = Math.floor((PAGE[1] - 2 * MARGIN - 180) / ROW_HEIGHT);
  const later = Math.floor((PAGE[1] - 2 * MARGIN - 60) / ROW_HEIGHT);
  const closingRows = Math.ceil(CLOSING_HEIGHT / ROW_HEIGHT);
  const range = (from: number, length: number) => Array.from({ length }, (_, i) => from + i);
  const pages: number[][] = [];
  for (let next = 0; ; ) {
    const room = pages.length === 0 ? first : later;
    const left = count - next;
    if (left <= room - closingRows) {
      pages.push(range(next, left));
      return pages;
    }
    // Rows that would leave no room for the closing: it goes on a page of its own after them.
    const take = Math.min(left, room);
    pages.push(range(next, take));
    next += take;
  }
}

function header(data: ManifestData, text: Text): number {
  let y = text('Pickup manifest', 'bold', 18, MARGIN, MARGIN, WIDTH) + 6;
  const facts = [
    `Courier: ${data.courierName}${data.courierReference ? ` (pickup ${data.courierReference})` : ''}`,
    `Pickup date: ${data.pickupDate}`,
    `Warehouse: ${data.warehouseName}`,
    data.warehouseAddress,
    `Dakiya pickup: ${data.pickupId}`,
    `Parcels: ${data.lines.length}`,
  ];
  for (const fact of facts) y = text(fact, 'regular', 10, MARGIN, y, WIDTH) + 2;
  return y + 10;
}

function tableHead(doc: PDFKit.PDFDocument, text: Text, top: number): number {
  let x = MARGIN;
  for (const column of COLUMNS) {
    text(column.title, 'bold', 9, x + 4, top + 4, column.width - 8);
    x += column.width;
  }
  const bottom = top + 20;
  doc
    .moveTo(MARGIN, bottom)
    .lineTo(MARGIN + WIDTH, bottom)
    .stroke();
  return bottom;
}

/**
 * A Code 128 barcode drawn as bars (vector): sharp at any printer's resolution, and the same bytes
 * on every reprint (an embedded PNG is decoded asynchronously, so its objects land in any order).
 */
function drawBarcode(doc: PDFKit.PDFDocument, value: string, x: number, y: number, maxWidth: number, height: number) {
  const [{ sbs }] = bwipjs.raw('code128', value, {}) as unknown as [{ sbs: number[] }];
  const modules = sbs.reduce((sum, width) => sum + width, 0);
  const unit = Math.min(maxWidth / modules, 1.5);
  let at = x;
  for (const [i, width] of sbs.entries()) {
    if (i % 2 === 0) doc.rect(at, y, width * unit, height);
    at += width * unit;
  }
  doc.fill('#000000');
}

function row(doc: PDFKit.PDFDocument, text: Text, top: number, n: number, line: ManifestLine): number {
  const cells = [
    String(n),
    '',
    line.ewayBill ? `${line.orderId}\nE-way bill ${line.ewayBill}` : line.orderId,
    kilograms(line.weightGrams),
    line.codAmountPaise > 0 ? formatRupees(paiseToRupees(line.codAmountPaise)) : 'Prepaid',
  ];
  let x = MARGIN;
  for (const [i, column] of COLUMNS.entries()) {
    if (i === 1) {
      // The AWB is printed under its bars too, so the manifest reads (and searches) without a scanner.
      drawBarcode(doc, line.awb, x + 4, top + 5, column.width - 8, ROW_HEIGHT - 20);
      text(line.awb, 'regular', 8, x + 4, top + ROW_HEIGHT - 14, column.width - 8);
    } else text(cells[i]!, 'regular', 9, x + 4, top + 14, column.width - 8);
    x += column.width;
  }
  const bottom = top + ROW_HEIGHT;
  doc
    .moveTo(MARGIN, bottom)
    .lineTo(MARGIN + WIDTH, bottom)
    .lineWidth(0.5)
    .stroke()
    .lineWidth(1);
  return bottom;
}

function closing(doc: PDFKit.PDFDocument, text: Text, top: number, lines: ManifestLine[]) {
  const grams = lines.reduce((sum, line) => sum + line.weightGrams, 0);
  const cod = lines.reduce((sum, line) => sum + line.codAmountPaise, 0);
  const codParcels = lines.filter((line) => line.codAmountPaise > 0).length;
  let y = text(`Total: ${lines.length} parcels, ${kilograms(grams)} kg`, 'bold', 10, MARGIN, top, WIDTH) + 2;
  y =
    text(
      `Cash on delivery: ${formatRupees(paiseToRupees(cod))} on ${codParcels} parcels`,
      'bold',
      10,
      MARGIN,
      y,
      WIDTH,
    ) + 28;
  const half = (WIDTH - 24) / 2;
  for (const [i, label] of [
    'Handed over by (name, signature)',
    'Received by the rider (name, signature, time)',
  ].entries()) {
    const x = MARGIN + i * (half + 24);
    doc
      .moveTo(x, y)
      .lineTo(x + half, y)
      .stroke();
    text(label, 'regular', 9, x, y + 4, half);
  }
}
