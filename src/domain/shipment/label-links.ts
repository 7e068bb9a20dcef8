import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../base/clock.js';

export type LinkCheck = 'valid' | 'forged' | 'expired';

/** A bound on one second's kept links (a PDF of 500 labels, many pages read at once). */
const MAX_LINKS_PER_SECOND = 10_000;

/**
 * Labels are fetched by printers and warehouse staff without an API credential, so the link itself
 * is the credential: an HMAC over the shipment id and the expiry, with a server secret.
 */
export function createLabelLinks({
  secret,
  publicBaseUrl,
  ttlSeconds,
  clock,
}: {
  secret: string;
  publicBaseUrl: string;
  ttlSeconds: number;
  clock: Clock;
}) {
  const signature = (shipmentId: string, expires: number) =>
    createHmac('sha256', secret).update(`label:${shipmentId}:${expires}`).digest('base64url');

  // A link is the same for every read of its shipment within one second (its expiry is in whole
  // seconds), so the second's links are kept: a listing read many times a second (a panel's
  // refresh, an integration's poll) signs each row once, not once a read. Kept for one second only.
  let linksSecond = -1;
  const linksOfSecond = new Map<string, string>();
  const linkFor = (shipmentId: string, expires: number) => {
    if (expires !== linksSecond || linksOfSecond.size >= MAX_LINKS_PER_SECOND) {
      linksSecond = expires;
      linksOfSecond.clear();
    }
    let url = linksOfSecond.get(shipmentId);
    if (url === undefined) {
      url = `${publicBaseUrl}/public/v1/labels/${shipmentId}?expires=${expires}&signature=${signature(shipmentId, expires)}`;
      linksOfSecond.set(shipmentId, url);
    }
    return url;
  };

  const issue = (shipmentId: string) => {
    const expires = Math.floor(clock.now().getTime() / 1000) + ttlSeconds;
    return { url: linkFor(shipmentId, expires), expiresAt: new Date(expires * 1000) };
  };

  return {
    /** A new link, valid from now for the configured lifetime, and when it expires. */
    issue,

    urlFor: (shipmentId: string): string => issue(shipmentId).url,

    /**
     * The link a read of the shipment shows, new on every read so it is never stale: none before a
     * courier gives it an AWB, nor once it is cancelled (its label is void).
     */
    urlForShipment: (shipment: { id: string; awb: string | null; status: string }): string | null =>
      shipment.awb && shipment.status !== 'cancelled' ? issue(shipment.id).url : null,

    /**
     * When a genuine link was signed: its expiry less the lifetime. Links carry no issue time of
     * their own; a change of the lifetime setting shifts this for links signed before it.
     */
    issuedAt: (expires: number): Date => new Date((expires - ttlSeconds) * 1000),

    /** Forgery is checked first, so an expired link reveals nothing unless it was genuine. */
    check(shipmentId: string, expires: number, given: string): LinkCheck {
      const expected = Buffer.from(signature(shipmentId, expires));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'forged';
      return expires * 1000 <= clock.now().getTime() ? 'expired' : 'valid';
    },
  };
}

export type LabelLinks = ReturnType<typeof createLabelLinks>;
