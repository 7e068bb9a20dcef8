import { describe, expect, it } from 'vitest';
import {
  gif,
  gifHeader,
  jpeg,
  jpegHeader,
  png,
  pngHeader,
  realPng,
  SVG,
  webp,
  webpHeader,
} from '../../test/kit/uploads.js';
import { imageSize, sniffImageType } from './images.js';

const bytes = (...values: number[]) => Buffer.from(values);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('sniffImageType', () => {
  it.each([
    ['a PNG', png(), 'image/png'],
    ['the smallest PNG header (33 bytes)', pngHeader(33), 'image/png'],
    ['a JPEG', jpeg(), 'image/jpeg'],
    ['a JPEG of SOI and EOI only', bytes(0xff, 0xd8, 0xff, 0xd9), 'image/jpeg'],
    ['a GIF89a', gif(), 'image/gif'],
    ['a GIF87a', Buffer.concat([Buffer.from('GIF87a'), Buffer.alloc(7)]), 'image/gif'],
    ['a lossy WebP', webp(64, 0, 'VP8 '), 'image/webp'],
    ['a lossless WebP', webp(64, 0, 'VP8L'), 'image/webp'],
    ['an extended WebP', webp(64, 0, 'VP8X'), 'image/webp'],
    ['the smallest WebP header (20 bytes)', webpHeader(20), 'image/webp'],
  ])('recognises %s', (_label, input, type) => {
    expect(sniffImageType(input)).toBe(type);
  });

  it.each([
    ['nothing', Buffer.alloc(0)],
    ['text', Buffer.from('hello, this is not an image')],
    ['an SVG', SVG],
    ['an SVG with an XML declaration', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', Buffer.from('<!doctype html><html><body>hi</body></html>')],
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n')],
    ['a BMP', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])],
    ['a PNG signature alone', bytes(...PNG_SIGNATURE)],
    ['a PNG header cut one byte short', pngHeader(33).subarray(0, 32)],
    [
      'a PNG whose first chunk is not IHDR',
      Buffer.concat([bytes(...PNG_SIGNATURE, 0, 0, 0, 13), Buffer.from('IDAT'), Buffer.alloc(17)]),
    ],
    ['a JPEG without its end marker', jpegHeader(64).subarray(0, 62)],
    ['a JPEG start marker alone', bytes(0xff, 0xd8, 0xff)],
    ['a GIF header cut short', gifHeader(13).subarray(0, 12)],
    ['a GIF of an unknown version', Buffer.concat([Buffer.from('GIF88a'), Buffer.alloc(7)])],
    ['a WebP header cut short', webpHeader(20).subarray(0, 19)],
    [
      'a RIFF file that is not WebP',
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8)]),
    ],
    [
      'a WebP with an unknown chunk',
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP9 '), Buffer.alloc(8)]),
    ],
    ['PNG bytes after a leading byte', Buffer.concat([bytes(0), png()])],
  ])('refuses %s', (_label, input) => {
    expect(sniffImageType(input)).toBeNull();
  });
});

describe('imageSize', () => {
  it('reads the width and height a real image declares', async () => {
    expect(await imageSize(realPng(31, 17))).toEqual({ width: 31, height: 17 });
  });

  it.each([
    ['text', Buffer.from('hello, this is not an image')],
    ['a PNG header over garbage', pngHeader(33).subarray(0, 20)],
    ['nothing', Buffer.alloc(0)],
  ])('answers null for %s', async (_label, input) => {
    expect(await imageSize(input)).toBeNull();
  });
});
