import type { Db } from '../../base/db/client.js';
import { labelPngOf } from '../../tenancy/stores/logo.js';
import { readLogoBytes, saveLabelPng } from '../../tenancy/stores/stores.repository.js';
import type { findLabelSource } from './labels.repository.js';

type LabelStore = NonNullable<Awaited<ReturnType<typeof findLabelSource>>>['store'];

/**
 * The logo as labels draw it: the small PNG made at upload. A logo stored before every upload got
 * one has it made on its first label (by sharp, off the event loop, within the upload's pixel
 * limits) and kept; one over the limits, or damaged, keeps an empty copy and leaves the brand name
 * alone on its labels. The original is never drawn.
 */
export async function labelLogo(db: Db, store: LabelStore): Promise<Buffer | null> {
  if (!store?.logoSha256) return null;
  if (store.logoPng) return store.logoPng.length > 0 ? store.logoPng : null;
  const original = await readLogoBytes(db, store.id, store.logoSha256);
  if (!original) return null;
  const png = await labelPngOf(original);
  await saveLabelPng(db, store.id, store.logoSha256, png ?? Buffer.alloc(0));
  return png;
}
