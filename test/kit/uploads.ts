import { createHash } from 'node:crypto';
import { authed } from './http.js';

// Files a test uploads: images (logos) and the multipart/form-data that carries them.

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export { gif, gifHeader, jpeg, jpegHeader, png, pngHeader, realPng, solidRgbaPng, webp, webpHeader } from './images.js';

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>',
);

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
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`),
    );
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
