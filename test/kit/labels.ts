import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { queryRows } from '../../src/base/db/client.js';
import { PUBLIC_BASE_URL, type TestContext } from '../app.js';

const run = promisify(execFile);

/** A label_url as the test app hands them out: shipment id, expiry (Unix seconds) and signature. */
export const LABEL_URL =
  /^https:\/\/dakiya\.test\/public\/v1\/labels\/([0-9a-f-]{36})\?expires=(\d+)&signature=([A-Za-z0-9_-]{43})$/;

/** A label link as the server signs it (with its own secret), expiring at `expires` (Unix seconds). */
export async function signedLabelUrl(ctx: TestContext, shipmentId: string, expires: number): Promise<string> {
  const [row] = await queryRows<{ value: string }>(
    ctx.database.db,
    sql`select value from server_secrets where name = 'label-links'`,
  );
  const signature = createHmac('sha256', row!.value).update(`label:${shipmentId}:${expires}`).digest('base64url');
  return `${PUBLIC_BASE_URL}/public/v1/labels/${shipmentId}?expires=${expires}&signature=${signature}`;
}

/** The label_url a read shows now: signed at the test clock's time, for the default 24 hours. */
export const labelUrlNow = (ctx: TestContext, shipmentId: string) =>
  signedLabelUrl(ctx, shipmentId, Math.floor(ctx.clock.now().getTime() / 1000) + 24 * 60 * 60);

/** The path and query of an absolute label_url, for app.inject. */
export function labelPath(labelUrl: string): string {
  const url = new URL(labelUrl);
  return url.pathname + url.search;
}

/** The text of a PDF, one string. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** What poppler reads of a PDF: its page count and size (pdfinfo), and each page's text (pdftotext). */
export async function popplerRead(bytes: Buffer): Promise<{ pages: number; pageSize: string; pageTexts: string[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dakiya-labels-'));
  try {
    const file = path.join(dir, 'labels.pdf');
    await writeFile(file, bytes);
    const info = (await run('pdfinfo', [file])).stdout;
    const text = (await run('pdftotext', [file, '-'])).stdout;
    // pdftotext ends every page with a form feed.
    const pageTexts = text.split('\f').slice(0, -1);
    return {
      pages: Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]),
      pageSize: /^Page size:\s+(.+?)\s*$/m.exec(info)?.[1] ?? '',
      pageTexts,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A word of a PDF page and its box, in points from the page's top left corner. */
export interface PdfWord {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

/** Every word of a PDF with its box (pdftotext -bbox), pages counted from 1. */
export async function pdfWords(bytes: Buffer): Promise<PdfWord[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dakiya-words-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, bytes);
    const html = (await run('pdftotext', ['-bbox', file, '-'])).stdout;
    const words: PdfWord[] = [];
    for (const [i, page] of html.split('<page ').slice(1).entries()) {
      for (const m of page.matchAll(
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
      )) {
        const text = m[5]!.replace(/&(amp|lt|gt|quot|apos);/g, (e) => ENTITIES[e]!);
        words.push({
          page: i + 1,
          text,
          xMin: Number(m[1]),
          yMin: Number(m[2]),
          xMax: Number(m[3]),
          yMax: Number(m[4]),
        });
      }
    }
    return words;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A page drawn in grey, one byte a pixel from 0 (black) to 255 (white), row after row. */
export interface GreyPage {
  width: number;
  height: number;
  dpi: number;
  pixels: Buffer;
}

/**
 * Each page of a PDF drawn by pdftoppm in grey at `dpi`, without anti-aliasing, so a shape's edge
 * is black or white and a narrow gap between bars stays white.
 */
export async function pdfGreyPages(bytes: Buffer, dpi = 300): Promise<GreyPage[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dakiya-pages-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, bytes);
    await run('pdftoppm', ['-gray', '-r', String(dpi), '-aa', 'no', '-aaVector', 'no', file, path.join(dir, 'page')], {
      maxBuffer: 1 << 20,
    });
    const names = (await readdir(dir)).filter((name) => name.endsWith('.pgm')).sort();
    const pages: GreyPage[] = [];
    for (const name of names) {
      const pgm = await readFile(path.join(dir, name));
      // A binary PGM: "P5", width, height, the largest value, one whitespace, then the pixels.
      const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
      pages.push({ width: Number(header[1]), height: Number(header[2]), dpi, pixels: pgm.subarray(header[0].length) });
    }
    return pages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The dark runs (bars) a horizontal line at `y` points crosses from `fromX` to `toX` points. */
export function darkRunsAcross(page: GreyPage, y: number, fromX: number, toX: number): number {
  const scale = page.dpi / 72;
  const row = Math.round(y * scale) * page.width;
  let runs = 0;
  let dark = false;
  for (let x = Math.floor(fromX * scale); x <= Math.ceil(toX * scale); x++) {
    const isDark = page.pixels[row + x]! < 128;
    if (isDark && !dark) runs += 1;
    dark = isDark;
  }
  return runs;
}
