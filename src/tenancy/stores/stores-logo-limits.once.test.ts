import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES } from '../../../test/kit/http.js';
import { expectUnchanged } from '../../../test/kit/rows.js';
import { createStore, getStore } from '../../../test/kit/stores.js';
import {
  gifHeader,
  jpegHeader,
  logoPart,
  multipart,
  pngHeader,
  realPng,
  sha256,
  solidRgbaPng,
  webpHeader,
} from '../../../test/kit/uploads.js';

// Pixels, not bytes: a PNG of one colour compresses about a thousandfold, so a 2 MiB logo can
// decode to gigabytes. Uploads are decoded within a pixel limit before anything is stored.

const LIMIT = 'logo must be at most 4096x4096 pixels (16777216 pixels in all)';
const UNREADABLE = 'logo could not be decoded: the file is damaged or not really an image';
const refusal = (message: string) => ({
  code: 'store_logo_invalid',
  message,
  errors: [message],
  details: [{ field: 'logo', message }],
});

let ctx: TestContext;
let apiKey: string;
useTestApp(async (made) => {
  ctx = made;
  apiKey = (await ctx.createAccount('Pixel Limits')).apiKey;
});

type Encoding = 'JSON' | 'multipart';
const body = (encoding: Encoding, logo: Buffer, storeName?: string) =>
  encoding === 'JSON'
    ? {
        headers: authed(apiKey),
        payload: { ...(storeName && { store_name: storeName }), logo: logo.toString('base64') },
      }
    : multipart(apiKey, [...(storeName ? [{ name: 'store_name', value: storeName }] : []), logoPart(logo)]);

/** Sends a logo on every route that takes one, each as JSON and as multipart; each must leave every table as it was. */
async function everyRoute(logo: Buffer, storeId: string) {
  const answers: { route: string; statusCode: number; body: unknown }[] = [];
  for (const encoding of ['JSON', 'multipart'] as const) {
    for (const [route, method, url, storeName] of [
      ['create', 'POST', STORES, `refused-${encoding}`],
      ['update', 'PUT', `${STORES}/${storeId}`, undefined],
    ] as const) {
      const response = await expectUnchanged(ctx.database, () =>
        ctx.app.inject({ method, url, ...body(encoding, logo, storeName) }),
      );
      answers.push({ route: `${route} (${encoding})`, statusCode: response.statusCode, body: response.json() });
    }
  }
  return answers;
}

const expectRefusedEverywhere = (answers: Awaited<ReturnType<typeof everyRoute>>, message: string) =>
  expect(answers).toEqual(
    ['create (JSON)', 'update (JSON)', 'create (multipart)', 'update (multipart)'].map((route) => ({
      route,
      statusCode: 422,
      body: refusal(message),
    })),
  );

async function labelCopy(storeId: string): Promise<Buffer | null> {
  const [row] = await queryRows<{ label_png: Uint8Array | null }>(
    ctx.database.db,
    sql`select label_png from store_logos where store_id = ${storeId}`,
  );
  return row?.label_png ? Buffer.from(row.label_png) : null;
}

describe('logo pixel limits', () => {
  it('refuses a 16000x16000 PNG of about 1 MB (a gigabyte of pixels) on create and update, as JSON and multipart, naming the limit', async () => {
    const bomb = solidRgbaPng(16000, 16000);
    expect(bomb.length).toBeGreaterThan(900_000);
    expect(bomb.length).toBeLessThan(1_200_000);
    const store = await createStore(ctx, apiKey, {
      store_name: 'bomb-target',
      brand_name: 'Target',
      logo: realPng(8, 8).toString('base64'),
    });

    expectRefusedEverywhere(await everyRoute(bomb, store.id), `${LIMIT}; this one is 16000x16000`);
    expect((await getStore(ctx, apiKey, store.id)).json().data).toEqual(store);
  });

  it.each([
    ['4097x10', 4097, 10],
    ['10x4097', 10, 4097],
  ])('refuses %s, one pixel over on a side, on every route', async (size, width, height) => {
    const store = await createStore(ctx, apiKey, { store_name: `over-${size}` });
    expectRefusedEverywhere(await everyRoute(solidRgbaPng(width, height), store.id), `${LIMIT}; this one is ${size}`);
  });

  it('accepts 4096x4096 and stores a label copy of at most 200x134 pixels, on white, without alpha', async () => {
    const logo = solidRgbaPng(4096, 4096, [20, 90, 160, 0]);
    const store = await createStore(ctx, apiKey, { store_name: 'largest', logo: logo.toString('base64') });
    expect(store.logo_url).toBe(`https://dakiya.test/public/v1/store-logos/${store.id}?v=${sha256(logo).slice(0, 16)}`);

    const copy = await labelCopy(store.id);
    expect(await sharp(copy!).metadata()).toMatchObject({
      format: 'png',
      width: 134,
      height: 134,
      channels: 3,
      hasAlpha: false,
    });
    // Fully transparent pixels flattened onto white.
    expect([...(await sharp(copy!).raw().toBuffer()).subarray(0, 3)]).toEqual([255, 255, 255]);
  });

  it('keeps a small logo at its own size in the label copy, and replaces the copy with the logo', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'small', logo: realPng(40, 20).toString('base64') });
    expect(await sharp((await labelCopy(store.id))!).metadata()).toMatchObject({ width: 40, height: 20, channels: 3 });

    const wide = solidRgbaPng(1000, 100);
    const updated = await ctx.app.inject({ method: 'PUT', url: `${STORES}/${store.id}`, ...body('multipart', wide) });
    expect(updated.statusCode).toBe(200);
    expect(await sharp((await labelCopy(store.id))!).metadata()).toMatchObject({ width: 200, height: 20, channels: 3 });
  });

  it.each([
    ['a PNG', pngHeader(200, 1)],
    ['a JPEG', jpegHeader(200, 2)],
    ['a GIF', gifHeader(200, 3)],
    ['a WebP', webpHeader(200, 4)],
  ])(
    'refuses the header of %s with nothing behind it (it looks like an image and is not) on every route',
    async (_kind, logo) => {
      const store = await createStore(ctx, apiKey, { store_name: `header-${_kind.slice(2)}` });
      expectRefusedEverywhere(await everyRoute(logo, store.id), UNREADABLE);
    },
  );
});
