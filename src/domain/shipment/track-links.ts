import { randomBytes } from 'node:crypto';

/**
 * A tracking link's token: 128 random bits, base64url (22 characters). It is the only secret
 * guarding the customer's page, so it is never derived from the AWB, an order id or a row id.
 * Rows written before the column got 64 hex characters from the database default; both forms pass.
 */
export const newTrackToken = (): string => randomBytes(16).toString('base64url');

export const TRACK_TOKEN_PATTERN = '^[A-Za-z0-9_-]{22,64}$';

export type TrackUrl = (token: string) => string;

export const trackUrlOf =
  (publicBaseUrl: string): TrackUrl =>
  (token) =>
    `${publicBaseUrl}/t/${token}`;

/** Only a booked shipment (courier and AWB) has a page worth sending a customer to. */
export const bookedTrackUrl = (trackUrl: TrackUrl, shipment: { awb: string | null; trackToken: string }): string | null =>
  shipment.awb === null ? null : trackUrl(shipment.trackToken);
