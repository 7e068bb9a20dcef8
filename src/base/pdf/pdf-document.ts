import PDFDocument from 'pdfkit';
import { labelFonts } from './pdf-fonts.js';

/**
 * A pdfkit document with Dakiya's fonts registered (Latin and the nine Indic scripts), and its
 * bytes once ended. Registering only names a font: a document embeds subsets of those it draws with.
 */
export function fontedDocument(options: PDFKit.PDFDocumentOptions): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const doc = new PDFDocument(options);
  // pdfkit takes a parsed font too (its typings list only paths and bytes).
  for (const font of labelFonts().values())
    doc.registerFont(font.name, font.pdfFont as unknown as PDFKit.Mixins.PDFFontSource);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}
