import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { sniffImageType } from '../../base/images.js';
import { STORE_ERRORS } from './stores.errors.js';

const logoInvalid = (message: string) => STORE_ERRORS.store_logo_invalid.error(message, 'logo');

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Where a store's logo is served, under PUBLIC_BASE_URL. The hash in it changes with the logo, so
 * the bytes behind one URL never change and customers' mail clients may cache them for good.
 */
export const logoPath = (storeId: string, sha256: string) =>
  `/public/v1/store-logos/${storeId}?v=${sha256.slice(0, 16)}`;

export interface Logo {
  bytes: Buffer;
  contentType: string;
  sha256: string;
  /** What labels draw: a small PNG made from the logo at upload (makeLabelPng below); null until made. */
  labelPng: Buffer | null;
}

/**
 * Accepts the logo as JSON sends it (base64, optionally as a data: URL) and as the multipart
 * reader passes it on (base64 of the uploaded file's bytes).
 */
export function parseLogo(encoded: string): Logo {
  const base64 = encoded.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw logoInvalid('logo must be a file upload or base64-encoded image');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > LOGO_MAX_BYTES) throw logoInvalid('logo must be at most 2 MiB (2097152 bytes)');
  const contentType = sniffImageType(bytes);
  if (!contentType) throw logoInvalid('logo must be a PNG, JPEG, WebP or GIF image');
  return { bytes, contentType, sha256: createHash('sha256').update(bytes).digest('hex'), labelPng: null };
}

/**
 * Decoding limits. A PNG's pixels compress about a thousandfold, so 2 MiB can hold 16000 × 16000
 * RGBA (a gigabyte decoded): the byte limit bounds nothing once the pixels are read. sharp reads
 * the header alone for the dimensions, and refuses to decode past `limitInputPixels`.
 */
export const LOGO_MAX_SIDE = 4096;
export const LOGO_MAX_PIXELS = LOGO_MAX_SIDE * LOGO_MAX_SIDE;
const TOO_LARGE = `logo must be at most ${LOGO_MAX_SIDE}x${LOGO_MAX_SIDE} pixels (${LOGO_MAX_PIXELS} pixels in all)`;
const UNREADABLE = 'logo could not be decoded: the file is damaged or not really an image';

/**
 * The label copy's box: labels draw the logo within 48 × 32 points, and 200 × 134 pixels fill
 * that at 300 dpi, the finest common label printers print.
 */
const LABEL_BOX = { width: 200, height: 134 };

/**
 * The copy of a logo that labels draw: at most LABEL_BOX, upright (EXIF orientation applied),
 * on white (labels are printed on white; without an alpha channel pdfkit embeds a PNG's data as
 * it is instead of decoding its pixels in JavaScript), 8-bit sRGB. Made by sharp, whose decoding
 * runs on libuv's thread pool, never on the event loop. Answers why not when it cannot be made.
 */
async function makeLabelPng(bytes: Buffer): Promise<{ png: Buffer } | { problem: string }> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    return { problem: UNREADABLE };
  }
  if (!width || !height) return { problem: UNREADABLE };
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE || width * height > LOGO_MAX_PIXELS) {
    return { problem: `${TOO_LARGE}; this one is ${width}x${height}` };
  }
  try {
    const png = await sharp(bytes, { limitInputPixels: LOGO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ ...LABEL_BOX, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .png()
      .toBuffer();
    return { png };
  } catch {
    return { problem: UNREADABLE };
  }
}

/**
 * A logo as uploaded, checked and ready to store: its type and size (parseLogo), then its pixels,
 * decoded once here, within the limits, to make the label copy. A bad logo is a 422 naming `logo`.
 */
export async function readLogo(encoded: string): Promise<Logo> {
  const logo = parseLogo(encoded);
  const made = await makeLabelPng(logo.bytes);
  if ('problem' in made) throw logoInvalid(made.problem);
  return { ...logo, labelPng: made.png };
}

/**
 * The label copy of a logo stored before every upload got one, or null when none can be made (the
 * label then shows the brand name alone). Its original is never drawn: pdfkit decodes a PNG with
 * alpha synchronously, in JavaScript, on the event loop.
 */
export async function labelPngOf(bytes: Buffer): Promise<Buffer | null> {
  const made = await makeLabelPng(bytes);
  return 'png' in made ? made.png : null;
}
