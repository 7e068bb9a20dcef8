import sharp from 'sharp';

// Images from outside (a store's logo, a courier's weighing photo, a buyer's photo of a return):
// what they are is read from their bytes, and how big they are from their header, before any pixel
// is decoded.

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

/**
 * Recognises an image by its bytes, never by a declared type or file name: a client can claim
 * anything. Each check needs the format's whole fixed header, so a truncated file is refused.
 * SVG is refused on purpose: it is script-capable markup, and customers' mail clients render it.
 */
export function sniffImageType(
  bytes: Buffer,
  options: { jpegEndMarker: boolean } = { jpegEndMarker: true },
): string | null {
  // PNG: signature, then the IHDR chunk (length 13) is always first: 8 + 4 + 4 + 13 + 4 bytes.
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return bytes.length >= 33 && ascii(bytes, 12, 16) === 'IHDR' ? 'image/png' : null;
  }
  // JPEG: SOI marker followed by another marker; a real file also ends with EOI, unless a phone
  // camera appended its own data after it (Samsung's trailer, motion photos): `jpegEndMarker: false`
  // takes those, for a decoder that reads the image anyway.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    if (!options.jpegEndMarker) return bytes.length >= 4 ? 'image/jpeg' : null;
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

/** The pixel size an image's header declares (sharp reads the header alone), or null when it is unreadable. */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}
