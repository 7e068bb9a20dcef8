import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { queryRows } from '../../src/base/db/client.js';
import { PUBLIC_BASE_URL, type TestContext } from '../app.js';

const run = promisify(execFile);

/** A label_url as the test app hands them out: shipment id, expiry (Unix seconds) and signature. */
export const LABEL_URL = /^https:\/\/dakiya\.test\/public\/v1\/labels\/([0-9a-f-]{36})\?expires=(\d+)&signature=([A-Za-z0-9_-]{43})$/;

/** A label link as the server signs it (with its own secret), expiring at `expires` (Unix seconds). */
export async function signedLabelUrl(ctx: TestContext, shipmentId: string, expires: number): Promise<string> {
  const [row] = await queryRows<{ value: string }>(ctx.database.db, sql`select value from server_secrets where name = 'label-links'`);
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
