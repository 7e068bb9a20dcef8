import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RETURN_PHOTO_MAX_BYTES } from '../../domain/return-requests/return-request-rules.js';
import { readReturnPhoto } from './return-photos.js';

/** A PNG whose header declares width × height and whose pixels are missing: only the header is read. */
function pngDeclaring(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(typed));
    return Buffer.concat([length, typed, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  // A few bytes of deflate where the pixels would be: enough to read the header, never the image.
  const pixels = Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const photo = (width: number, height: number, format: 'jpeg' | 'png' | 'webp') =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } })
    .toFormat(format)
    .toBuffer();

describe("a buyer's photo", () => {
  it.each([
    ['a large JPEG, shrunk to 1600 px a side', 3000, 2000, 'jpeg', 1600, 1067],
    ['a tall PNG with transparency, on white', 900, 2400, 'png', 600, 1600],
    ['a small WebP, kept at its size', 640, 480, 'webp', 640, 480],
  ] as const)('stores %s as a JPEG', async (_label, width, height, format, storedWidth, storedHeight) => {
    const read = await readReturnPhoto(await photo(width, height, format));
    expect(read).toMatchObject({ contentType: 'image/jpeg', width: storedWidth, height: storedHeight });
    if (!('bytes' in read)) throw new Error('refused');
    expect(await sharp(read.bytes).metadata()).toMatchObject({
      format: 'jpeg',
      width: storedWidth,
      height: storedHeight,
    });
  });

  it("takes a phone's JPEG with its own data after the end marker", async () => {
    const withTrailer = Buffer.concat([await photo(800, 600, 'jpeg'), Buffer.from('SEFT motion photo trailer')]);
    expect(await readReturnPhoto(withTrailer)).toMatchObject({ contentType: 'image/jpeg', width: 800, height: 600 });
  });

  it.each([
    ['text', Buffer.from('a note, not a picture'), 'photo_type'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'photo_type'],
    [
      'one byte over 6 MiB',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(RETURN_PHOTO_MAX_BYTES - 2)]),
      'photo_too_big',
    ],
    ['a header declaring 10000 x 6000 pixels (60 megapixels)', pngDeclaring(10_000, 6_000), 'photo_too_large'],
    ['JPEG markers around nothing', Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0xff, 0xd9]), 'photo_unreadable'],
    ['a header declaring 4000 x 3000 with no pixels', pngDeclaring(4_000, 3_000), 'photo_unreadable'],
  ])('refuses %s', async (_label, bytes, problem) => {
    expect(await readReturnPhoto(bytes)).toEqual({ problem });
  });
});
