import sharp from 'sharp';
import { imageSize, sniffImageType } from '../../base/images.js';
import type { PhotoProblem } from '../../domain/buyer-copy/return-form-words.js';
import { RETURN_PHOTO_MAX_BYTES, RETURN_PHOTO_MAX_PIXELS } from '../../domain/return-requests/return-request-rules.js';

/** What the merchant is shown: enough to judge a tear or a stain, a fraction of the upload's bytes. */
const STORED_SIDE = 1600;

export interface ReturnPhoto {
  contentType: 'image/jpeg';
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * A buyer's photo, checked as store logos are (its type by its bytes, its size, its declared pixels
 * before any is decoded), then stored as a JPEG of at most 1600 px a side. The copy is made by
 * decoding and encoding again, which also drops everything but the pixels: a phone's photo carries
 * where it was taken (EXIF GPS), which the merchant has no need of. Runs on libuv's thread pool.
 */
export async function readReturnPhoto(bytes: Buffer): Promise<ReturnPhoto | { problem: PhotoProblem }> {
  if (bytes.length > RETURN_PHOTO_MAX_BYTES) return { problem: 'photo_too_big' };
  // A phone's JPEG may carry data after its end marker: sharp decides whether it decodes.
  if (!sniffImageType(bytes, { jpegEndMarker: false })) return { problem: 'photo_type' };
  const size = await imageSize(bytes);
  if (!size) return { problem: 'photo_unreadable' };
  if (size.width * size.height > RETURN_PHOTO_MAX_PIXELS) return { problem: 'photo_too_large' };
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: RETURN_PHOTO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: STORED_SIDE, height: STORED_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    return { contentType: 'image/jpeg', bytes: data, width: info.width, height: info.height };
  } catch {
    return { problem: 'photo_unreadable' };
  }
}
