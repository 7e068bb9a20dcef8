import { describe, expect, it } from 'vitest';
import { createLabelLinks } from './label-links.js';

const A = '7f9c1e2a-0000-4000-8000-000000000001';
const B = '7f9c1e2a-0000-4000-8000-000000000002';

describe('label links', () => {
  it('signs each shipment once a second, and a link read again in that second is the same, valid link', () => {
    let now = Date.parse('2026-11-24T10:00:00.100Z');
    const links = createLabelLinks({
      secret: 'a-secret-of-the-server',
      publicBaseUrl: 'https://ship.example.in',
      ttlSeconds: 3600,
      clock: { now: () => new Date(now) },
    });
    const first = links.issue(A);
    now += 800; // 10:00:00.900, the same second
    const again = links.issue(A);
    const other = links.issue(B);
    now += 200; // 10:00:01.100, the next second
    const next = links.issue(A);

    const expires = Date.parse('2026-11-24T11:00:00Z') / 1000;
    expect(first.expiresAt.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(again.url).toBe(first.url);
    expect(first.url).toMatch(
      new RegExp(`^https://ship\\.example\\.in/public/v1/labels/${A}\\?expires=${expires}&signature=[\\w-]{43}$`),
    );
    expect(other.url).not.toBe(first.url);
    expect(next.url).toContain(`expires=${expires + 1}&`);

    const signatureOf = (url: string) => new URL(url).searchParams.get('signature')!;
    expect(links.check(A, expires, signatureOf(first.url))).toBe('valid');
    expect(links.check(A, expires + 1, signatureOf(next.url))).toBe('valid');
    // Kept links are per shipment: A's signature does not open B's label.
    expect(links.check(B, expires, signatureOf(first.url))).toBe('forged');
    expect(links.urlForShipment({ id: A, awb: 'DK1', status: 'cancelled' })).toBeNull();
    expect(links.urlForShipment({ id: A, awb: null, status: 'pending' })).toBeNull();
    expect(links.urlForShipment({ id: A, awb: 'DK1', status: 'pending' })).toBe(next.url);
  });
});
