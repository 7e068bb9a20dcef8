import { createHash } from 'node:crypto';
import type { LabelData } from './label-pdf.js';

/**
 * Drawn labels, kept in this process: a label is fetched again and again (a printer's retries,
 * a link shared around, anyone holding a public link), and drawing one takes tens of
 * milliseconds of the event loop.
 *
 * The key is the shipment and a hash of everything the label prints, logo bytes included, so a
 * change to the order, the store's brand or logo, the warehouse or the account's name draws a new
 * label, and one shipment's entry is never another's (nor another account's). Bounded by bytes,
 * least recently used first out. Labels drawn at once for one key share the drawing.
 */
export interface LabelCache {
  get(shipmentId: string, label: LabelData, draw: () => Promise<Buffer>): Promise<Buffer>;
}

export function labelCacheKey(shipmentId: string, label: LabelData): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ...label, brandLogo: null }));
  hash.update(label.brandLogo ? createHash('sha256').update(label.brandLogo).digest('hex') : 'no logo');
  return `${shipmentId}:${hash.digest('hex')}`;
}

export function labelCache(maxBytes: number): LabelCache {
  const drawn = new Map<string, Buffer>();
  const drawing = new Map<string, Promise<Buffer>>();
  let bytes = 0;

  const keep = (key: string, pdf: Buffer) => {
    if (pdf.length > maxBytes || drawn.has(key)) return;
    drawn.set(key, pdf);
    bytes += pdf.length;
    for (const [oldest, old] of drawn) {
      if (bytes <= maxBytes) break;
      drawn.delete(oldest);
      bytes -= old.length;
    }
  };

  return {
    async get(shipmentId, label, draw) {
      const key = labelCacheKey(shipmentId, label);
      const hit = drawn.get(key);
      if (hit) {
        // A Map iterates in insertion order: moving the hit to the end makes it the newest.
        drawn.delete(key);
        drawn.set(key, hit);
        return hit;
      }
      const pending = drawing.get(key);
      if (pending) return pending;
      const started = draw();
      drawing.set(key, started);
      try {
        const pdf = await started;
        keep(key, pdf);
        return pdf;
      } finally {
        drawing.delete(key);
      }
    },
  };
}
