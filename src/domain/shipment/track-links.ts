import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';

const TOKEN_BYTES = 16;
// Drawn from the CSPRNG a few hundred tokens at a time, as crypto.randomUUID does: a call into it
// per booking cost more than the token's other work. Each byte serves one token only.
const entropy = Buffer.alloc(TOKEN_BYTES * 256);
let entropyUsed = entropy.length;

/**
 * A tracking link's token: 128 random bits, base64url (22 characters). It is the only secret
 * guarding the customer's page, so it is never derived from the AWB, an order id or a row id.
 * Rows written before the column got 64 hex characters from the database default; both forms pass.
 */
export function newTrackToken(): string {
  if (entropyUsed === entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  entropyUsed += TOKEN_BYTES;
  return entropy.toString('base64url', entropyUsed - TOKEN_BYTES, entropyUsed);
}

export const TRACK_TOKEN_PATTERN = '^[A-Za-z0-9_-]{22,64}$';

export type TrackUrl = (token: string) => string;

export const trackUrlOf =
  (publicBaseUrl: string): TrackUrl =>
  (token) =>
    `${publicBaseUrl}/t/${token}`;

/**
 * A store's own tracking page, where a buyer finds a parcel by AWB, or by order id and phone. Not
 * under /t/: that path holds bearer tokens (redacted from logs); a store id is no secret.
 */
export const storeTrackPath = (storeId: string): string => `/track/${storeId}`;

/** Only a booked shipment (courier and AWB) has a page worth sending a customer to. */
export const bookedTrackUrl = (
  trackUrl: TrackUrl,
  shipment: { awb: string | null; trackToken: string },
): string | null => (shipment.awb === null ? null : trackUrl(shipment.trackToken));

const RETURN_TOKEN = /^r([0-9a-f]{32})([A-Za-z0-9_-]{22})$/;

/**
 * A return's tracking link token: `r`, the return's id and an HMAC of it with a server secret (128
 * bits), 55 characters. Signed rather than stored: the token needs no column, and it is no easier
 * to guess than a forward shipment's random one, since without the secret no id yields its MAC.
 */
export function createReturnTrackTokens(secret: string) {
  const mac = (compactId: string) =>
    createHmac('sha256', secret).update(`track-return:${compactId}`).digest('base64url').slice(0, 22);
  return {
    issue(returnId: string): string {
      const compact = returnId.replaceAll('-', '').toLowerCase();
      return `r${compact}${mac(compact)}`;
    },
    /** The return id a genuine token names, or null for any other string. */
    read(token: string): string | null {
      const match = RETURN_TOKEN.exec(token);
      if (!match) return null;
      const [, compact, given] = match as unknown as [string, string, string];
      const expected = Buffer.from(mac(compact));
      if (!timingSafeEqual(Buffer.from(given), expected)) return null;
      return `${compact.slice(0, 8)}-${compact.slice(8, 12)}-${compact.slice(12, 16)}-${compact.slice(16, 20)}-${compact.slice(20)}`;
    },
  };
}

export type ReturnTrackTokens = ReturnType<typeof createReturnTrackTokens>;
