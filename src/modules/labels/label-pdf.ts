import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';

// DejaVu Sans has the rupee sign (₹), which the PDF standard fonts lack.
const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** A parsed font as pdfkit's registerFont accepts it (fontkit's Font). */
type ParsedFont = { layout: (...args: unknown[]) => unknown };
// pdfkit's own fontkit, whatever the install layout.
const fontkit = require(require.resolve('fontkit', { paths: [require.resolve('pdfkit')] })) as {
  create(buffer: Buffer): ParsedFont;
};
let fonts: { regular: ParsedFont; bold: ParsedFont } | undefined;

/**
 * Parsed once per process and shared by every label: given a file path, pdfkit re-reads and
 * re-parses the 700 KB font for each document, which was most of a label's drawing time. fontkit
 * fonts only cache what they decode, so sharing one between documents is safe.
 */
function labelFonts() {
  fonts ??= { regular: fontkit.create(readFileSync(FONT)), bold: fontkit.create(readFileSync(FONT_BOLD)) };
  return fonts;
}

/** 4 × 6 inches in PDF points (72 per inch). */
const PAGE: [number, number] = [288, 432];
const MARGIN = 12;
const WIDTH = PAGE[0] - 2 * MARGIN;

export interface LabelAddress {
  name: string;
  lines: string[];
  phone: string;
}

export interface LabelData {
  awb: string;
  courierName: string;
  /** The linked store's brand, else the account name. */
  brandName: string;
  brandLogo: Buffer | null;
  shipTo: LabelAddress;
  shipFrom: LabelAddress;
  /** The marketplace vendor the parcel ships for (vendor_details), if any. */
  soldBy: string | null;
  orderId: string;
  orderDate: string;
  items: { name: string; sku: string; units: number }[];
  /** Rupees to collect, or null for prepaid. */
  codAmount: number | null;
  weightKg: number;
  dimensionsCm: [number, number, number];
  zone: string;
}

const rupees = (amount: number) =>
  `₹${amount.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A printable 4x6 inch shipping label: the brand on top, the AWB barcode, both addresses, contents. */
export async function renderLabel(label: LabelData): Promise<Buffer> {
  const barcode = await bwipjs.toBuffer({
    bcid: 'code128',
    text: label.awb,
    scale: 2,
    height: 14,
    includetext: true,
    textxalign: 'center',
  });

  const doc = new PDFDocument({ size: PAGE, margin: MARGIN, info: { Title: `Label ${label.awb}`, Author: 'Dakiya' } });
  // pdfkit takes a parsed font too (its typings list only paths and bytes).
  const { regular, bold } = labelFonts();
  doc.registerFont('regular', regular as unknown as PDFKit.Mixins.PDFFontSource);
  doc.registerFont('bold', bold as unknown as PDFKit.Mixins.PDFFontSource);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let y = MARGIN;
  let textX = MARGIN;
  if (label.brandLogo) {
    try {
      doc.image(label.brandLogo, MARGIN, y, { fit: [48, 32] });
      textX += 54;
    } catch {
      // pdfkit draws PNG and JPEG only; a WebP or GIF logo leaves the brand name to stand alone.
    }
  }
  const textWidth = PAGE[0] - MARGIN - textX;
  doc.font('bold').fontSize(13).text(label.brandName, textX, y + 2, { width: textWidth, height: 18, ellipsis: true });
  doc
    .font('regular')
    .fontSize(8)
    .text(`${label.courierName} · ${label.zone.toUpperCase().replace('_', ' ')}`, textX, y + 19, { width: textWidth });
  y += 38;
  doc.moveTo(MARGIN, y).lineTo(PAGE[0] - MARGIN, y).stroke();

  doc.image(barcode, MARGIN + 14, y + 6, { fit: [WIDTH - 28, 62], align: 'center' });
  y += 74;
  doc.font('bold').fontSize(11).text(`AWB ${label.awb}`, MARGIN, y, { width: WIDTH, align: 'center' });
  y += 16;
  doc
    .font('bold')
    .fontSize(12)
    .text(label.codAmount === null ? 'PREPAID' : `COD: collect ${rupees(label.codAmount)}`, MARGIN, y, {
      width: WIDTH,
      align: 'center',
    });
  y += 20;
  doc.moveTo(MARGIN, y).lineTo(PAGE[0] - MARGIN, y).stroke();

  const address = (title: string, a: LabelAddress, size: number) => {
    doc.font('bold').fontSize(8).text(title, MARGIN, y + 4);
    doc.font('bold').fontSize(size).text(a.name, MARGIN, y + 14, { width: WIDTH });
    doc.font('regular').fontSize(size - 2).text([...a.lines, `Phone: ${a.phone}`].join('\n'), { width: WIDTH });
    y = doc.y + 4;
    doc.moveTo(MARGIN, y).lineTo(PAGE[0] - MARGIN, y).stroke();
  };
  address('SHIP TO', label.shipTo, 11);
  address('SHIP FROM', label.shipFrom, 9);

  doc.font('regular').fontSize(8);
  doc.text(`Order ${label.orderId} · ${label.orderDate}`, MARGIN, y + 4, { width: WIDTH });
  if (label.soldBy) doc.text(`Sold by ${label.soldBy}`, { width: WIDTH, height: 11, ellipsis: true });
  const [l, b, h] = label.dimensionsCm;
  doc.text(`Weight ${label.weightKg} kg · ${l} x ${b} x ${h} cm`, { width: WIDTH });
  const shown = label.items.slice(0, 6);
  for (const item of shown) doc.text(`${item.units} x ${item.name} (${item.sku})`, { width: WIDTH, height: 11, ellipsis: true });
  if (label.items.length > shown.length) doc.text(`+ ${label.items.length - shown.length} more items`, { width: WIDTH });

  doc.end();
  return done;
}
