import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLanguage, type Language, type LanguageSignals } from '../../domain/buyer-copy/page-text.js';
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
  vary: 'Accept-Language, Cookie',
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

/** The language the buyer last picked on a page: set by any page opened with `?lang`, read by every page. */
export const LANGUAGE_COOKIE = 'dakiya_lang';
const YEAR_SECONDS = 365 * 24 * 3600;
/** The pages that read it: a shipment's (and its forms) and a store's; nothing else of the site. */
const LANGUAGE_COOKIE_PATHS = ['/t', '/track'];

/** What the request says of the buyer's language: `?lang`, the picked one, the browser's. */
export function requestLanguage(request: FastifyRequest): Pick<LanguageSignals, 'query' | 'cookie' | 'acceptLanguage'> {
  return {
    query: (request.query as { lang?: string } | undefined)?.lang,
    cookie: cookieValue(request, LANGUAGE_COOKIE),
    acceptLanguage: request.headers['accept-language'],
  };
}

/**
 * Remembers a language the buyer asked for with `?lang` (a language link on a page, or a link
 * with it), for a year, for the shipment pages under /t and the store pages under /track: a cookie
 * has one path, so one cookie each. SameSite=Lax: a link from a message still carries it.
 */
export function rememberLanguage(request: FastifyRequest, reply: FastifyReply): Language | null {
  const asked = (request.query as { lang?: string } | undefined)?.lang;
  if (!isLanguage(asked)) return null;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  for (const path of LANGUAGE_COOKIE_PATHS)
    reply.header(
      'set-cookie',
      `${LANGUAGE_COOKIE}=${asked}; Path=${path}; Max-Age=${YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
    );
  return asked;
}
