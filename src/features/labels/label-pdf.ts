import bwipjs from 'bwip-js';
import { formatRupees } from '../../domain/money.js';
import { fontedDocument } from '../../base/pdf/pdf-document.js';
import type { Weight } from '../../base/pdf/pdf-fonts.js';
import { createMeasurer, drawLines, type Line, linesHeight, type Measurer, wrap } from '../../base/pdf/pdf-text.js';

/** 4 × 6 inches in PDF points (72 per inch). */
const PAGE: [number, number] = [288, 432];
const MARGIN = 12;
const WIDTH = PAGE[0] - 2 * MARGIN;
const BOTTOM = PAGE[1] - MARGIN;

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
  /** PNG or JPEG bytes, or null. */
  brandLogo: Buffer | null;
  shipTo: LabelAddress;
  /** The pickup warehouse, which is also where an undelivered parcel goes back to. */
  returnTo: LabelAddress;
  /** The warehouse's GSTIN, when it has one. */
  gstin: string | null;
  /** The marketplace vendor the parcel ships for (vendor_details), if any. */
  soldBy: string | null;
  orderId: string;
  orderDate: string;
  items: { name: string; sku: string; units: number }[];
  /** Rupees: the goods' value declared to the courier. */
  declaredValue: number;
  /** The consignment's e-way bill (rule 138), which a hub checks against the declared value: "331009876543 of 2026-11-20". */
  ewayBill?: string | null;
  /** Rupees to collect, or null for prepaid. */
  codAmount: number | null;
  weightKg: number;
  dimensionsCm: [number, number, number];
  zone: string;
  /** A test booking (an AWB no courier issued): the label says so across its barcode. */
  testMode: boolean;
  /** After a re-issue: "Label 2, re-issued …", so a printed copy tells which label it is. */
  reissue?: string | null;
  /**
   * Barcodes the courier's own label carries besides the AWB (Ekart's vendor waybill), each printed
   * under the AWB's with its caption: a hub that scans those rather than the AWB still knows the parcel.
   */
  courierBarcodes?: { label: string; value: string }[] | null;
  /**
   * A multi-piece shipment's boxes, box 1 first (box 1's AWB is `awb`, the master AWB): the label
   * is then a page per box, each with that box's AWB as its barcode, "Box 2 of 3", the master AWB,
   * and the box's own weight, size and contents. Absent or empty for a shipment in one box.
   */
  boxes?: LabelBox[] | null;
  /** One box's page alone (its number), for whoever asked by that box's own AWB; absent: every box's. */
  onlyBox?: number | null;
}

export interface LabelBox {
  awb: string;
  weightKg: number;
  dimensionsCm: [number, number, number];
  /** What the box holds; empty when the order listed no box's items (the order's are printed). */
  items: { name: string; sku: string; units: number }[];
}

/** A page's own part of a multi-piece label: which box, of how many, under which master AWB. */
interface BoxPage {
  no: number;
  count: number;
  masterAwb: string;
}

const rupees = formatRupees;

/** A paragraph of the label's lower part, or a rule across it. */
type Block = { text: string; weight: Weight; size: number; gap: number } | 'rule';

const RULE_SPACE = 8;
const MAX_ITEMS = 6;

function lowerBlocks(label: LabelData): Block[] {
  const text = (value: string, weight: Weight, size: number, gap = 0): Block => ({ text: value, weight, size, gap });
  const address = (a: LabelAddress, extra: string[], nameSize: number, size: number) => [
    text(a.name, 'bold', nameSize),
    text([...a.lines, ...extra, `Phone: ${a.phone}`].join('\n'), 'regular', size),
  ];
  const [l, b, h] = label.dimensionsCm;
  const shown = label.items.slice(0, MAX_ITEMS);
  return [
    text('SHIP TO', 'bold', 8, 4),
    ...address(label.shipTo, [], 11, 9),
    'rule',
    text('IF UNDELIVERED, RETURN TO', 'bold', 7),
    ...address(label.returnTo, label.gstin ? [`GSTIN: ${label.gstin}`] : [], 8, 7),
    'rule',
    text(
      [
        ...(label.reissue ? [label.reissue] : []),
        `Order ${label.orderId} · ${label.orderDate}`,
        ...(label.soldBy ? [`Sold by ${label.soldBy}`] : []),
        `Declared value ${rupees(label.declaredValue)}`,
        ...(label.ewayBill ? [`E-way bill ${label.ewayBill}`] : []),
        `Weight ${label.weightKg} kg · ${l} x ${b} x ${h} cm`,
        ...shown.map((item) => `${item.units} x ${item.name} (${item.sku})`),
        ...(label.items.length > shown.length ? [`+ ${label.items.length - shown.length} more items`] : []),
      ].join('\n'),
      'regular',
      8,
    ),
  ];
}

type Laid = { lines: Line[]; gap: number } | 'rule';

const layOut = (blocks: Block[], scale: number, measure: Measurer): Laid[] =>
  blocks.map((block) =>
    block === 'rule'
      ? block
      : { lines: wrap(block.text, block.weight, block.size * scale, WIDTH, measure), gap: block.gap * scale },
  );

const heightOf = (laid: Laid[], scale: number) =>
  laid.reduce((sum, part) => sum + (part === 'rule' ? RULE_SPACE * scale : part.gap + linesHeight(part.lines)), 0);

/**
 * The lower part at the largest scale that fits the space left: a long address shrinks the text,
 * and is never cut. Sizes only fall, so the first scale that fits is the largest.
 */
function fitLower(blocks: Block[], space: number, measure: Measurer): { laid: Laid[]; scale: number } {
  let scale = 1;
  let laid = layOut(blocks, scale, measure);
  while (heightOf(laid, scale) > space && scale > 0.05) {
    scale *= 0.95;
    laid = layOut(blocks, scale, measure);
  }
  return { laid, scale };
}

/** The largest size up to `max` at which the text fits in `lines` lines. */
function fitLines(text: string, weight: Weight, max: number, width: number, lines: number, measure: Measurer): Line[] {
  let size = max;
  let laid = wrap(text, weight, size, width, measure);
  while (laid.length > lines && size > 4) {
    size -= 0.5;
    laid = wrap(text, weight, size, width, measure);
  }
  return laid;
}

/** A document of 4x6 inch pages with the label fonts registered, and its bytes once ended. */
const labelDocument = (title: string) =>
  fontedDocument({ size: PAGE, margin: MARGIN, autoFirstPage: false, info: { Title: title, Author: 'Dakiya' } });

/** A printable 4x6 inch shipping label: the brand on top, the AWB barcode, both addresses, contents. */
export async function renderLabel(label: LabelData): Promise<Buffer> {
  const { doc, done } = labelDocument(`Label ${label.awb}`);
  await drawLabel(doc, label);
  doc.end();
  return done;
}

/**
 * Several labels as one PDF, a page each in the order given, for one print run. Each page is the
 * same drawing as a label alone; the event loop gets a turn between pages, so a hundred labels do
 * not hold up other requests for the whole document.
 */
export async function renderLabels(labels: LabelData[]): Promise<Buffer> {
  const { doc, done } = labelDocument(`Labels ${labels.map((label) => label.awb).join(' ')}`.slice(0, 200));
  for (const label of labels) {
    await drawLabel(doc, label);
    await new Promise((resolve) => setImmediate(resolve));
  }
  doc.end();
  return done;
}

/**
 * The label, then pages another document draws into the same PDF (the buyer's tax invoice:
 * invoice-pdf.ts), for one print of everything a parcel travels with.
 */
export async function renderLabelThen(label: LabelData, after: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { doc, done } = labelDocument(`Label ${label.awb}`);
  await drawLabel(doc, label);
  after(doc);
  doc.end();
  return done;
}

/**
 * PREPAID, or the cash to collect: a multi-piece shipment's once, on box 1 (the master), which
 * says for how many boxes; the others say where it is collected, so no box is paid for twice.
 */
function paymentLine(codAmount: number | null, box: BoxPage | undefined): string {
  if (codAmount === null) return 'PREPAID';
  if (!box) return `COD: collect ${rupees(codAmount)}`;
  if (box.no === 1) return `COD: collect ${rupees(codAmount)} for all ${box.count} boxes`;
  return 'COD: collected with box 1';
}

const code128 = (text: string, height: number, includetext: boolean) =>
  bwipjs.toBuffer({ bcid: 'code128', text, scale: 2, height, includetext, textxalign: 'center' });

/** A courier barcode's drawn height in points: half the AWB's, leaving the lower part its room. */
const EXTRA_BARCODE = 26;

/** The label's pages: one, or a page per box of a multi-piece shipment. */
async function drawLabel(doc: PDFKit.PDFDocument, label: LabelData) {
  const boxes = label.boxes ?? [];
  if (boxes.length === 0) return drawPage(doc, label);
  for (const [i, box] of boxes.entries()) {
    if (label.onlyBox && label.onlyBox !== i + 1) continue;
    const page: LabelData = {
      ...label,
      awb: box.awb,
      weightKg: box.weightKg,
      dimensionsCm: box.dimensionsCm,
      items: box.items.length > 0 ? box.items : label.items,
    };
    await drawPage(doc, page, { no: i + 1, count: boxes.length, masterAwb: label.awb });
  }
}

async function drawPage(doc: PDFKit.PDFDocument, label: LabelData, box?: BoxPage) {
  const barcode = await code128(label.awb, 14, true);
  // Shorter than the AWB's and captioned in the PDF's text, so the label still tells which is which.
  const extras = await Promise.all(
    (label.courierBarcodes ?? []).map(async (code) => ({
      caption: `${code.label} ${code.value}`,
      image: await code128(code.value, 7, false),
    })),
  );
  doc.addPage({ size: PAGE, margin: MARGIN });
  const measure = createMeasurer();
  const rule = (at: number) =>
    doc
      .moveTo(MARGIN, at)
      .lineTo(PAGE[0] - MARGIN, at)
      .stroke();

  let y = MARGIN;
  let textX = MARGIN;
  if (label.brandLogo) {
    try {
      doc.image(label.brandLogo, MARGIN, y, { fit: [48, 32] });
      textX += 54;
    } catch {
      // Bytes pdfkit cannot decode (a damaged image) leave the brand name to stand alone.
    }
  }
  const textWidth = PAGE[0] - MARGIN - textX;
  y = drawLines(doc, fitLines(label.brandName, 'bold', 13, textWidth, 1, measure), textX, y + 1, textWidth);
  const courier = `${label.courierName} · ${label.zone.toUpperCase().replace('_', ' ')}`;
  y = drawLines(doc, fitLines(courier, 'regular', 8, textWidth, 1, measure), textX, y, textWidth);
  y = Math.max(y, MARGIN + 32) + 4;
  rule(y);

  const barcodeTop = y + 6;
  doc.image(barcode, MARGIN + 14, barcodeTop, { fit: [WIDTH - 28, 62], align: 'center' });
  y += 74;
  y = drawLines(doc, wrap(`AWB ${label.awb}`, 'bold', 11, WIDTH, measure), MARGIN, y, WIDTH, 'center');
  if (box) {
    const which = `Box ${box.no} of ${box.count} · Master AWB ${box.masterAwb}`;
    y = drawLines(doc, fitLines(which, 'bold', 10, WIDTH, 1, measure), MARGIN, y + 1, WIDTH, 'center');
  }
  const payment = paymentLine(label.codAmount, box);
  y = drawLines(doc, wrap(payment, 'bold', 12, WIDTH, measure), MARGIN, y + 2, WIDTH, 'center') + 2;
  for (const extra of extras) {
    doc.image(extra.image, MARGIN + 28, y + 2, { fit: [WIDTH - 56, EXTRA_BARCODE], align: 'center' });
    y =
      drawLines(
        doc,
        fitLines(extra.caption, 'regular', 8, WIDTH, 1, measure),
        MARGIN,
        y + EXTRA_BARCODE + 3,
        WIDTH,
        'center',
      ) + 2;
  }
  rule(y);

  const { laid, scale } = fitLower(lowerBlocks(label), BOTTOM - y, measure);
  for (const part of laid) {
    if (part === 'rule') {
      rule(y + (RULE_SPACE / 2) * scale);
      y += RULE_SPACE * scale;
    } else {
      y = drawLines(doc, part.lines, MARGIN, y + part.gap, WIDTH);
    }
  }

  if (label.testMode) drawTestBand(doc, barcodeTop + 8, measure);
}

export const TEST_BAND_TEXT = 'TEST — NOT A COURIER LABEL';

/**
 * A black band with white capitals across the barcode, drawn last so nothing covers it: a test
 * booking's label can be neither mistaken for a courier's by a person nor scanned by a courier.
 */
function drawTestBand(doc: PDFKit.PDFDocument, top: number, measure: Measurer) {
  const height = 44;
  doc.save();
  doc.rect(0, top, PAGE[0], height).fill('#000000');
  doc.fillColor('#ffffff');
  const lines = fitLines(TEST_BAND_TEXT, 'bold', 20, WIDTH, 1, measure);
  drawLines(doc, lines, MARGIN, top + (height - linesHeight(lines)) / 2, WIDTH, 'center');
  doc.restore();
  doc.fillColor('#000000');
}
