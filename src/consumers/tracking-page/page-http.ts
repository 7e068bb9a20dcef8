import type { FastifyRequest } from 'fastify';
import { HtmlPage } from './tracking-page.schemas.js';

// What the tracking page's forms share: the cookie of the double-submit token, the page's headers
// and the cross-site check.

export const COOKIE = 'dakiya_form';
export const NONCE = /^[A-Za-z0-9_-]{22}$/;

// The page holds its own secret in the URL: it must not leak through Referer, be cached by a
// proxy or be framed, and it loads nothing but its own logo, fonts and inline style.
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // same-origin rather than no-referrer: with no-referrer browsers send `Origin: null` on the form's
  // post, and the origin check below could not tell our page from a sandboxed attacker's.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; img-src 'self'; font-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  vary: 'Accept-Language',
};

export const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: HtmlPage } } });

export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** Browsers say where a form post comes from (Origin, Sec-Fetch-Site): from anywhere but this site, it is forged. */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin !== `${request.protocol}://${request.host}`;
}
