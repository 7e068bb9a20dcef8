import { createHash } from 'node:crypto';
import { encodeRgbPng } from '../../src/demo/logo.js';
import { authed } from './http.js';

// Files a test uploads: images (logos) and the multipart/form-data that carries them.

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// --- Images: the smallest byte sequences the logo sniffer accepts, padded to any size. ---

function padded(head: Buffer, size: number, fill: number, tail = Buffer.alloc(0)): Buffer {
  const padding = Math.max(0, size - head.length - tail.length);
  return Buffer.concat([head, Buffer.alloc(padding, fill), tail]);
}

/** PNG signature and an IHDR chunk (1×1 RGBA); `fill` makes images of one size differ. */
export function png(size = 64, fill = 0): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    ihdr,
    Buffer.from([0x1f, 0x15, 0xc4, 0x89]),
  ]);
  return padded(head, size, fill);
}

/** SOI, an APP0 marker, padding, EOI. */
export function jpeg(size = 64, fill = 0): Buffer {
  return padded(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), size, fill, Buffer.from([0xff, 0xd9]));
}

/** GIF89a header and logical screen descriptor. */
export function gif(size = 64, fill = 0): Buffer {
  return padded(Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0])]), size, fill);
}

/** RIFF/WEBP container with a VP8, VP8L or VP8X chunk header. */
export function webp(size = 64, fill = 0, chunk: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 '): Buffer {
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(Math.max(size, 20) - 8);
  return padded(Buffer.concat([Buffer.from('RIFF'), riffSize, Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4)]), size, fill);
}

export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

/** A real, decodable width×height RGB PNG of one colour (the ones above are headers only), valid enough for pdfkit to draw. */
export function realPng(width = 8, height = 8, rgb: [number, number, number] = [200, 30, 40]): Buffer {
  return encodeRgbPng(width, height, () => rgb);
}

// --- multipart/form-data, built by hand so tests control every byte. ---

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export const BOUNDARY = '----dakiya-test-boundary-7MA4YWxkTrZu0gW';

export function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType === undefined ? '' : `\r\nContent-Type: ${part.contentType}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Inject options (content type and body) for a multipart request. */
export function formData(parts: Part[]) {
  return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload: multipartBody(parts) };
}

/** Inject options for a multipart request carrying the given credential. */
export function multipart(credential: string, parts: Part[]) {
  const request = formData(parts);
  return { ...request, headers: { ...request.headers, ...authed(credential) } };
}

export const logoPart = (bytes: Buffer, filename = 'logo.png', contentType = 'image/png'): Part => ({
  name: 'logo',
  value: bytes,
  filename,
  contentType,
});
