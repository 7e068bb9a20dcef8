import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { unprocessable } from '../../http/errors.js';

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Where a store's logo is served, under PUBLIC_BASE_URL. The hash in it changes with the logo, so
 * the bytes behind one URL never change and customers' mail clients may cache them for good.
 */
export const logoPath = (storeId: string, sha256: string) => `/public/v1/store-logos/${storeId}?v=${sha256.slice(0, 16)}`;

export interface Logo {
  bytes: Buffer;
  contentType: string;
  sha256: string;
  /** What labels draw for a format pdfkit cannot (WebP, GIF): a PNG of it, or null. */
  labelPng: Buffer | null;
}

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

/**
 * Recognises an image by its bytes, never by a declared type or file name: a client can claim
 * anything. Each check needs the format's whole fixed header, so a truncated file is refused.
 * SVG is refused on purpose: it is script-capable markup, and customers' mail clients render it.
 */
export function sniffImageType(bytes: Buffer): string | null {
  // PNG: signature, then the IHDR chunk (length 13) is always first: 8 + 4 + 4 + 13 + 4 bytes.
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return bytes.length >= 33 && ascii(bytes, 12, 16) === 'IHDR' ? 'image/png' : null;
  }
  // JPEG: SOI marker followed by another marker; a real file also ends with EOI.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    return bytes.length >= 4 && startsWith(bytes, [0xff, 0xd9], bytes.length - 2) ? 'image/jpeg' : null;
  }
  // GIF: 6-byte version tag and the 7-byte logical screen descriptor.
  if (/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return bytes.length >= 13 ? 'image/gif' : null;
  // WebP: RIFF container of type WEBP holding a VP8, VP8L or VP8X chunk.
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') {
    return bytes.length >= 20 && /^VP8[ LX]$/.test(ascii(bytes, 12, 16)) ? 'image/webp' : null;
  }
  return null;
}

/**
 * Accepts the logo as JSON sends it (base64, optionally as a data: URL) and as the multipart
 * reader passes it on (base64 of the uploaded file's bytes).
 */
export function parseLogo(encoded: string): Logo {
  const base64 = encoded.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw unprocessable('logo must be a file upload or base64-encoded image', 'logo');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > LOGO_MAX_BYTES) throw unprocessable('logo must be at most 2 MiB (2097152 bytes)', 'logo');
  const contentType = sniffImageType(bytes);
  if (!contentType) throw unprocessable('logo must be a PNG, JPEG, WebP or GIF image', 'logo');
  return { bytes, contentType, sha256: createHash('sha256').update(bytes).digest('hex'), labelPng: null };
}

/** Formats a label draws as they are; any other logo is converted to PNG for labels. */
const LABEL_READY = new Set(['image/png', 'image/jpeg']);

/**
 * A PNG of a WebP or GIF logo (its first frame), for labels; null for a PNG or JPEG, which labels
 * draw as they are, and for bytes that only look like an image (the label then shows the brand
 * name alone). The size is capped: a label draws the logo 48 points wide.
 */
export async function labelPngOf(bytes: Buffer, contentType: string): Promise<Buffer | null> {
  if (LABEL_READY.has(contentType)) return null;
  try {
    return await sharp(bytes).resize({ width: 384, height: 256, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch {
    return null;
  }
}

/** Adds the label's PNG to a parsed logo: converted once, when uploaded. */
export const withLabelPng = async (logo: Logo): Promise<Logo> => ({ ...logo, labelPng: await labelPngOf(logo.bytes, logo.contentType) });
