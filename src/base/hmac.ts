import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `givenHex` is the HMAC-SHA256 of `rawBody` under `secret`, compared in constant time:
 * how webhook senders (Meta, Ekart) sign what they post.
 */
export function hmacSha256Matches(rawBody: string, secret: string, givenHex: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(givenHex)) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(Buffer.from(givenHex, 'hex'), expected);
}
