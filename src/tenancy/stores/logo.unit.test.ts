import { describe, expect, it } from 'vitest';
import { gif, jpeg, png, sha256, SVG } from '../../../test/kit/uploads.js';
import { DomainError } from '../../domain/errors.js';
import { LOGO_MAX_BYTES, parseLogo } from './logo.js';

const _bytes = (...values: number[]) => Buffer.from(values);
const _PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

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
