import { constants, crc32, deflateRawSync } from 'node:zlib';
import { encodeRgbPng } from '../../src/demo/logo.js';

// Images a test uploads as logos. Uploads are decoded (src/tenancy/stores/logo.ts), so png(),
// jpeg(), gif() and webp() are real 1×1 images, padded to `size` bytes inside a part every decoder
// skips (a private PNG chunk, JPEG comments, a GIF comment, an unknown WebP chunk); `fill` is the
// padding's byte, so images of one size differ. Below the smallest such image they are that image.
// The *Header() ones are only the bytes the sniffer looks at: they look like images and are not.

const b64 = (text: string) => Buffer.from(text, 'base64');

/** 1×1 images of one colour as sharp writes them. */
const ONE_PIXEL = {
  jpeg: b64(
    '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCCACLA/9k=',
  ),
  gif: b64('R0lGODlhAQABAIAAAExpccgeKCH5BAUAAAAALAAAAAABAAEAAAICTAEAOw=='),
  'VP8 ': b64('UklGRjoAAABXRUJQVlA4IC4AAACQAQCdASoBAAEAAUAmJaACdLoAA5gA/vFNr+LaR0KZD/7xn/9xn/9xn/yIAAAA'),
  VP8L: b64('UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAdQjyIXpf+BiOh/AAA='),
  VP8X: b64(
    'UklGRlYAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAIAAAAAgFZQOCAuAAAAkAEAnQEqAQABAAFAJiWgAnS6AAOYAP7xTa/i2kdCmQ/+8Z//cZ//cZ/8iAAAAA==',
  ),
};

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decodable 1×1 PNG padded by a private ancillary chunk ("dkYa") right after IHDR. */
export function png(size = 64, fill = 0): Buffer {
  const image = encodeRgbPng(1, 1, () => [200, 30, 40]);
  const data = Buffer.alloc(Math.max(1, size - image.length - 12), fill);
  return Buffer.concat([image.subarray(0, 33), pngChunk('dkYa', data), image.subarray(33)]);
}

/** A decodable 1×1 JPEG padded by comment (COM) segments right after SOI. */
export function jpeg(size = 64, fill = 0): Buffer {
  const image = ONE_PIXEL.jpeg;
  let padding = Math.max(5, size - image.length);
  const segments: Buffer[] = [];
  while (padding > 0) {
    // A segment is 4 bytes of marker and length, then at most 65533 of text; never leave 1 to 4 over.
    let take = Math.min(padding, 65537);
    if (padding - take > 0 && padding - take < 5) take -= 5;
    const segment = Buffer.alloc(take, fill);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(take - 2, 2);
    segments.push(segment);
    padding -= take;
  }
  return Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
}

/** A decodable 1×1 GIF padded by a comment extension before its image. */
export function gif(size = 64, fill = 0): Buffer {
  const image = ONE_PIXEL.gif;
  // The header, the screen descriptor and the global colour table (2^(n+1) entries of 3 bytes).
  const tableEnd = 13 + 3 * 2 ** ((image[10]! & 7) + 1);
  // Extension introducer and label, sub-blocks of at most 255 bytes each after a length byte, a terminator.
  let data = Math.max(2, size - image.length - 3);
  const blocks: Buffer[] = [];
  while (data > 0) {
    let take = Math.min(data, 256);
    if (data - take === 1) take -= 1;
    blocks.push(Buffer.concat([Buffer.from([take - 1]), Buffer.alloc(take - 1, fill)]));
    data -= take;
  }
  return Buffer.concat([
    image.subarray(0, tableEnd),
    Buffer.from([0x21, 0xfe]),
    ...blocks,
    Buffer.from([0]),
    image.subarray(tableEnd),
  ]);
}

/** A decodable 1×1 WebP (lossy, lossless or extended) padded by an unknown chunk after its image. */
export function webp(size = 64, fill = 0, chunk: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 '): Buffer {
  const image = ONE_PIXEL[chunk];
  // A chunk is a type, a length and its data, then a pad byte when the length is odd.
  // RIFF sizes are even, so an odd `size` gets one byte less.
  const length = Math.max(2, size - image.length - 8) & ~1;
  const header = Buffer.alloc(8);
  header.write('dkYa', 0, 'latin1');
  header.writeUInt32LE(length, 4);
  const out = Buffer.concat([image, header, Buffer.alloc(length, fill)]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

/** A real, decodable width×height RGB PNG of one colour, valid enough for pdfkit to draw. */
export function realPng(width = 8, height = 8, rgb: [number, number, number] = [200, 30, 40]): Buffer {
  return encodeRgbPng(width, height, () => rgb);
}

/** Adler-32 of a then b, from each one's checksum and b's length (zlib's adler32_combine). */
function adler32Combine(a: number, b: number, lengthB: number): number {
  const BASE = 65521;
  const rem = lengthB % BASE;
  let sum1 = a & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (b & 0xffff) + BASE - 1;
  sum2 += ((a >>> 16) & 0xffff) + ((b >>> 16) & 0xffff) + BASE - rem;
  sum1 %= BASE;
  sum2 %= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A valid PNG of width×height RGBA pixels of one colour, made in milliseconds at any size: a
 * 16000×16000 one (a gigabyte of pixels) is about 1 MB. A block of rows is deflated once with a
 * full flush, which makes it independent of what came before, and then repeated.
 */
export function solidRgbaPng(
  width: number,
  height: number,
  rgba: [number, number, number, number] = [20, 90, 160, 200],
): Buffer {
  const rows = [64, 32, 16, 8, 4, 2, 1].find((n) => height % n === 0)!;
  const row = Buffer.alloc(1 + width * 4);
  for (let x = 0; x < width; x++) row.set(rgba, 1 + x * 4); // filter byte 0: none
  const block = Buffer.concat(Array.from({ length: rows }, () => row));
  const deflated = deflateRawSync(block, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const repeats = height / rows;
  let checksum = 1;
  const blockChecksum = adler32(block);
  for (let i = 0; i < repeats; i++) checksum = adler32Combine(checksum, blockChecksum, block.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(checksum);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const stream = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: repeats }, () => deflated),
    Buffer.from([0x03, 0x00]),
    trailer,
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', stream),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// --- Bytes that only look like images: the smallest sequences the logo sniffer accepts. ---

function padded(head: Buffer, size: number, fill: number, tail = Buffer.alloc(0)): Buffer {
  const padding = Math.max(0, size - head.length - tail.length);
  return Buffer.concat([head, Buffer.alloc(padding, fill), tail]);
}

/** PNG signature and an IHDR chunk (1×1 RGBA), then padding: no image data. */
export function pngHeader(size = 64, fill = 0): Buffer {
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
export function jpegHeader(size = 64, fill = 0): Buffer {
  return padded(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), size, fill, Buffer.from([0xff, 0xd9]));
}

/** GIF89a header and logical screen descriptor. */
export function gifHeader(size = 64, fill = 0): Buffer {
  return padded(Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0])]), size, fill);
}

/** RIFF/WEBP container with a VP8, VP8L or VP8X chunk header. */
export function webpHeader(size = 64, fill = 0, chunk: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 '): Buffer {
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(Math.max(size, 20) - 8);
  return padded(
    Buffer.concat([Buffer.from('RIFF'), riffSize, Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4)]),
    size,
    fill,
  );
}
