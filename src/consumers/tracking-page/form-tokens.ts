import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a loaded page's form stays usable. */
const FORM_TTL_MS = 2 * 60 * 60 * 1000;

export interface FormToken {
  /** Goes in the SameSite=Strict cookie. */
  nonce: string;
  /** Goes in the form's hidden field. */
  field: string;
}

/**
 * Cross-site request forgery defence for the tracking page's form (double submit, signed): the
 * page sets a random nonce in a SameSite=Strict cookie and puts `<nonce>.<expiry>.<mac>` in the
 * form, the MAC binding the nonce to that shipment's link. A post must carry both, matching, signed
 * by this server, unexpired: another site can neither read the cookie nor make the browser send it.
 */
export function createFormTokens(secret: string) {
  const mac = (trackToken: string, nonce: string, expiry: number) =>
    createHmac('sha256', secret).update(`${trackToken}.${nonce}.${expiry}`).digest('base64url');
  return {
    issue(trackToken: string, now: Date, nonce = randomBytes(16).toString('base64url')): FormToken {
      const expiry = now.getTime() + FORM_TTL_MS;
      return { nonce, field: `${nonce}.${expiry}.${mac(trackToken, nonce, expiry)}` };
    },
    verify(trackToken: string, field: string | undefined, cookieNonce: string | undefined, now: Date): boolean {
      if (!field || !cookieNonce) return false;
      const [nonce, expiryText, signature] = field.split('.');
      const expiry = Number(expiryText);
      if (!nonce || !signature || nonce !== cookieNonce || !Number.isSafeInteger(expiry) || expiry < now.getTime())
        return false;
      const expected = Buffer.from(mac(trackToken, nonce, expiry));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type FormTokens = ReturnType<typeof createFormTokens>;
