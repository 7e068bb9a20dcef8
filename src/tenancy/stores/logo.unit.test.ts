import { describe, expect, it } from 'vitest';
import {
  gif,
  gifHeader,
  jpeg,
  jpegHeader,
  png,
  pngHeader,
  sha256,
  SVG,
  webp,
  webpHeader,
} from '../../../test/kit/uploads.js';
import { DomainError } from '../../domain/errors.js';
import { LOGO_MAX_BYTES, parseLogo, sniffImageType } from './logo.js';

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

function refusal(encoded: string): { code: string; messages: string[]; details: unknown } {
  try {
    parseLogo(encoded);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const refused = error as DomainError;
    return { code: refused.code, messages: refused.messages, details: refused.details };
  }
  throw new Error('parseLogo accepted the input');
}

const TYPE = 'logo must be a PNG, JPEG, WebP or GIF image';
const SIZE = 'logo must be at most 2 MiB (2097152 bytes)';
const ENCODING = 'logo must be a file upload or base64-encoded image';

describe('parseLogo', () => {
  it('decodes base64 and answers the bytes, the sniffed type and the SHA-256', () => {
    const image = png(100, 3);
    expect(parseLogo(image.toString('base64'))).toEqual({
      bytes: image,
      contentType: 'image/png',
      sha256: sha256(image),
      labelPng: null,
    });
  });

  it.each([
    ['a data: URL', (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`],
    ['a data: URL with a wrong declared type', (b: Buffer) => `data:text/plain;base64,${b.toString('base64')}`],
    ['base64 broken over lines', (b: Buffer) => b.toString('base64').replace(/(.{20})/g, '$1\r\n')],
    ['base64url', (b: Buffer) => b.toString('base64url')],
  ])('accepts %s', (_label, encode) => {
    const image = jpeg(90, 0xfb);
    expect(parseLogo(encode(image))).toEqual({
      bytes: image,
      contentType: 'image/jpeg',
      sha256: sha256(image),
      labelPng: null,
    });
  });

  it('accepts exactly 2 MiB', () => {
    const image = gif(LOGO_MAX_BYTES);
    expect(LOGO_MAX_BYTES).toBe(2_097_152);
    expect(parseLogo(image.toString('base64')).bytes.length).toBe(LOGO_MAX_BYTES);
  });

  it.each([
    ['one byte over 2 MiB', gif(LOGO_MAX_BYTES + 1).toString('base64'), SIZE],
    ['text', Buffer.from('plain text').toString('base64'), TYPE],
    ['an SVG', SVG.toString('base64'), TYPE],
    ['an SVG data: URL', `data:image/svg+xml;base64,${SVG.toString('base64')}`, TYPE],
    ['a truncated PNG header', png().subarray(0, 20).toString('base64'), TYPE],
    ['an empty string', '', TYPE],
    ['raw SVG markup', '<svg xmlns="http://www.w3.org/2000/svg"/>', ENCODING],
    ['a URL', 'https://example.com/logo.png', ENCODING],
    ['a data: URL that is not base64', 'data:image/png,%89PNG', ENCODING],
  ])('refuses %s with 422 naming logo', (_label, encoded, message) => {
    expect(refusal(encoded)).toEqual({
      code: 'store_logo_invalid',
      messages: [message],
      details: [{ field: 'logo', message }],
    });
  });
});
