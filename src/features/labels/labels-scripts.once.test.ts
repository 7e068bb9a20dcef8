import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { queryRows } from '../../base/db/client.js';
import { labelPath } from '../../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody, type OrderPayload } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

// Labels in every Indic script, checked on the PDF itself with poppler (pdftotext, pdftoppm,
// pdffonts) and by reading its content streams: no glyph is missing, conjuncts are formed, and
// nothing is drawn outside the margins.

let ctx: TestContext;
let dir: string;
beforeAll(async () => {
  ctx = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'dakiya-labels-'));
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A name, an address line with conjuncts, reph and vowel signs, a city and a product, per script. */
const SCRIPTS = [
  {
    script: 'Devanagari',
    block: 0x900,
    name: 'श्रीमती प्रिया क्षत्रिय',
    address: 'फ्लैट 12, कृष्णा नगर, सेक्टर 62',
    city: 'वाराणसी',
    item: 'शुद्ध देसी घी',
  },
  {
    script: 'Bengali',
    block: 0x980,
    name: 'শ্রী কৃষ্ণ চক্রবর্তী',
    address: '২২ পার্ক স্ট্রীট, ফ্ল্যাট 3B',
    city: 'কলকাতা',
    item: 'তাঁতের শাড়ি',
  },
  {
    script: 'Gurmukhi',
    block: 0xa00,
    name: 'ਪ੍ਰੀਤ ਸਿੰਘ ਗਿੱਲ',
    address: 'ਗਲੀ 4, ਅੰਮ੍ਰਿਤਸਰ ਰੋਡ',
    city: 'ਅੰਮ੍ਰਿਤਸਰ',
    item: 'ਫੁਲਕਾਰੀ ਦੁਪੱਟਾ',
  },
  {
    script: 'Gujarati',
    block: 0xa80,
    name: 'શ્રી ક્ષિતિજ પટેલ',
    address: 'પ્લોટ 7, નવરંગપુરા, સ્ટેશન રોડ',
    city: 'અમદાવાદ',
    item: 'ખાખરા પેક',
  },
  {
    script: 'Oriya',
    block: 0xb00,
    name: 'ଶ୍ରୀ କ୍ଷେତ୍ରମୋହନ ମହାପାତ୍ର',
    address: 'ପ୍ଲଟ 9, ସହିଦ ନଗର',
    city: 'ଭୁବନେଶ୍ୱର',
    item: 'ସମ୍ବଲପୁରୀ ଶାଢ଼ୀ',
  },
  {
    script: 'Tamil',
    block: 0xb80,
    name: 'ஸ்ரீ கொற்றவை சுந்தரம்',
    address: '12 கோவில் தெரு, க்ஷேத்திரம்',
    city: 'சென்னை',
    item: 'பட்டுப் புடவை',
  },
  {
    script: 'Telugu',
    block: 0xc00,
    name: 'శ్రీ కృష్ణ ప్రసాద్',
    address: 'ఫ్లాట్ 5, బంజారా హిల్స్',
    city: 'హైదరాబాద్',
    item: 'పోచంపల్లి చీర',
  },
  {
    script: 'Kannada',
    block: 0xc80,
    name: 'ಶ್ರೀ ಕೃಷ್ಣ ಪ್ರಸಾದ್',
    address: 'ಮನೆ 8, ಜಯನಗರ ರಸ್ತೆ',
    city: 'ಬೆಂಗಳೂರು',
    item: 'ಮೈಸೂರು ರೇಷ್ಮೆ ಸೀರೆ',
  },
  {
    script: 'Malayalam',
    block: 0xd00,
    name: 'ശ്രീ കൃഷ്ണൻ നമ്പ്യാർ',
    address: 'വീട് 3, പട്ടം റോഡ്',
    city: 'തിരുവനന്തപുരം',
    item: 'കസവ് മുണ്ട്',
  },
] as const;

async function labelOf(booking: OrderPayload): Promise<Buffer> {
  const response = await ctx.app.inject({ method: 'GET', url: labelPath(booking.label_url!) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { encoding: 'latin1', maxBuffer: 64 * 1024 * 1024 });

function save(pdf: Buffer): string {
  const file = join(dir, `label-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The PDF's streams, inflated where they are compressed (content streams, the ToUnicode maps). */
function streams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const found: string[] = [];
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    try {
      found.push(inflateSync(bytes).toString('latin1'));
    } catch {
      found.push(bytes.toString('latin1'));
    }
  }
  return found;
}

/** Every glyph id the page draws, in the order drawn (pdfkit writes them as 4-digit hex in TJ arrays). */
function drawnGlyphIds(pdf: Buffer): number[] {
  return streams(pdf)
    .flatMap((s) => [...s.matchAll(/\[([^\]]*)\] TJ/g)])
    .flatMap((tj) => [...tj[1]!.matchAll(/<([0-9a-f]+)>/gi)])
    .flatMap((hex) => hex[1]!.match(/.{4}/g)!.map((id) => Number.parseInt(id, 16)));
}

/** The code points of each ToUnicode entry that stands for more than one character. */
function multiCharGlyphs(pdf: Buffer): number[][] {
  return streams(pdf)
    .filter((s) => s.includes('beginbfrange'))
    .flatMap((s) => [...s.matchAll(/<((?:[0-9a-f]{4} )+[0-9a-f]{4})>/gi)])
    .map((entry) => entry[1]!.split(' ').map((hex) => Number.parseInt(hex, 16)));
}

/**
 * How many times each letter occurs. Vowel signs and viramas are left out: a PDF maps each glyph to
 * one text for the whole document, and a mark's glyph drawn inside a conjunct in one word and
 * alone in another can only carry one of the two.
 */
function counts(text: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const char of text.normalize('NFD').replace(/[^\p{L}\p{N}]/gu, ''))
    result.set(char, (result.get(char) ?? 0) + 1);
  return result;
}

/** Word boxes (points, top-left origin) as pdftotext -bbox reports them. */
function wordBoxes(file: string) {
  return [
    ...run('pdftotext', ['-bbox', file, '-']).matchAll(
      /xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"/g,
    ),
  ].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

/** The page rendered in grey at 72 dpi (one pixel per point): width, height and pixels. */
function raster(file: string) {
  const base = join(dir, `page-${Math.random().toString(36).slice(2)}`);
  run('pdftoppm', ['-r', '72', '-gray', '-singlefile', file, base]);
  const pgm = readFileSync(`${base}.pgm`);
  const header = pgm
    .subarray(0, 20)
    .toString('latin1')
    .match(/^P5\s+(\d+)\s+(\d+)\s+255\s/)!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
}

/** Dark pixels in the outer band of the page, where the 12-point margin must stay blank. */
function inkInMargin(file: string, band = 8): number {
  const { width, height, pixels } = raster(file);
  expect([width, height]).toEqual([288, 432]);
  let ink = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const outside = x < band || x >= width - band || y < band || y >= height - band;
      if (outside && pixels[y * width + x]! < 200) ink++;
    }
  }
  return ink;
}

function expectInsideMargins(file: string) {
  expect(inkInMargin(file)).toBe(0);
  const boxes = wordBoxes(file);
  expect(boxes.length).toBeGreaterThan(10);
  for (const box of boxes) {
    expect(box.xMin).toBeGreaterThanOrEqual(11);
    expect(box.xMax).toBeLessThanOrEqual(288 - 11);
    expect(box.yMin).toBeGreaterThanOrEqual(0);
    expect(box.yMax).toBeLessThanOrEqual(432 - 11);
  }
}

describe('labels in every Indic script', () => {
  it.each(SCRIPTS)(
    'prints $script names, addresses and items shaped, with no missing glyph, beside Latin',
    async (sample) => {
      const { apiKey } = await ctx.createAccount(`${sample.script} Traders`);
      const warehouseId = await createWarehouse(ctx, apiKey);
      const booking = await orchestrate(
        ctx,
        apiKey,
        codOrderBody(warehouseId, {
          billing_customer_name: sample.name,
          billing_address: sample.address,
          billing_city: sample.city,
          order_items: [{ name: `${sample.item} Premium`, sku: 'SKU-1', units: 1, selling_price: 998 }],
        }),
      );
      const pdf = await labelOf(booking);
      const file = save(pdf);

      // The script's own Noto font is embedded, beside DejaVu Sans for the Latin text.
      const fonts = run('pdffonts', [file]);
      expect(fonts).toMatch(new RegExp(`\\+NotoSans${sample.script}-Regular `));
      expect(fonts).toMatch(/\+DejaVuSans /);

      // No glyph drawn is .notdef (glyph 0, the empty box).
      const ids = drawnGlyphIds(pdf);
      expect(ids.length).toBeGreaterThan(100);
      expect(ids.filter((id) => id === 0)).toEqual([]);

      // Shaping happened: some glyph stands for several characters of the script (a conjunct, a
      // reph or a below-base form), which a character-by-character drawing never has.
      const inScript = (cp: number) => cp >= sample.block && cp < sample.block + 0x80;
      expect(multiCharGlyphs(pdf).filter((cps) => cps.filter(inScript).length >= 2).length).toBeGreaterThan(0);

      // The text layer (copy, search) has the script's letters (in visual order within a syllable,
      // as drawn), at least all but one of each: a reph drawn after its base can lend its RA's text
      // to the vowel sign it sits on. The Latin beside them is exact.
      const text = Buffer.from(run('pdftotext', [file, '-']), 'latin1').toString('utf8');
      const found = counts(text);
      for (const [char, times] of counts(`${sample.name} ${sample.address} ${sample.city} ${sample.item}`)) {
        expect({ char, enough: (found.get(char) ?? 0) >= times - 1 }).toEqual({ char, enough: true });
      }
      expect(text).toContain('Premium (SKU-1)');
      expect(text).toContain(', Maharashtra 400001');

      expectInsideMargins(file);
    },
  );

  it('shrinks an address too long for the label, never cutting a word, and keeps every line inside the page', async () => {
    const { apiKey } = await ctx.createAccount('Long Address Co');
    const warehouseId = await createWarehouse(ctx, apiKey);
    const words = Array.from({ length: 60 }, (_, i) => `गली${i + 1}`);
    const address = `${words.join(' ')} Sector 62 Noida Extension Greater Noida West`;
    const booking = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, {
        billing_customer_name: 'श्रीमती प्रिया क्षत्रिय',
        billing_last_name: 'Ramanathan-Venkataraghavan-Subramaniam-Krishnamurthy',
        billing_address: address.slice(0, 500),
        billing_address_2: 'Tower B, Flat 1204, Supertech Capetown, Near Gaur City Mall, Opposite Metro Pillar 731'
          .repeat(5)
          .slice(0, 500),
        order_items: Array.from({ length: 6 }, (_, i) => ({
          name: `ಮೈಸೂರು ರೇಷ್ಮೆ ಸೀರೆ with a long description of the weave, colour and border, piece ${i + 1}`,
          sku: `SAREE-${i + 1}`,
          units: 1,
          selling_price: 100,
        })),
        sub_total: 600,
      }),
    );
    const file = save(await labelOf(booking));
    const text = Buffer.from(run('pdftotext', [file, '-']), 'latin1').toString('utf8');
    for (const word of [
      ...words,
      'Ramanathan-Venkataraghavan-Subramaniam-Krishnamurthy',
      'Pillar',
      'SAREE-6',
      'Mumbai,',
      '400001',
    ]) {
      expect(text.replace(/\s+/g, ' ')).toContain(word);
    }
    expect(text).toContain('IF UNDELIVERED, RETURN TO');
    expectInsideMargins(file);
  });

  it("prints the warehouse's GSTIN under the return address when it has one, and none when not", async () => {
    const { apiKey } = await ctx.createAccount('GST Holder');
    const withGst = await orchestrate(
      ctx,
      apiKey,
      orderBody(await createWarehouse(ctx, apiKey, { gst_no: '07AABCU9603R1ZP' })),
    );
    const lines = Buffer.from(run('pdftotext', [save(await labelOf(withGst)), '-']), 'latin1')
      .toString('utf8')
      .split('\n');
    const from = lines.indexOf('IF UNDELIVERED, RETURN TO');
    expect(
      lines
        .slice(from, from + 10)
        .filter(Boolean)
        .slice(0, 6),
    ).toEqual([
      'IF UNDELIVERED, RETURN TO',
      'Okhla Fulfilment Centre',
      'Plot 14, Okhla Phase III',
      'New Delhi, Delhi 110001',
      'GSTIN: 07AABCU9603R1ZP',
      'Phone: 9876543210',
    ]);
    const without = await orchestrate(ctx, apiKey, orderBody(await createWarehouse(ctx, apiKey)));
    expect(Buffer.from(run('pdftotext', [save(await labelOf(without)), '-']), 'latin1').toString('utf8')).not.toContain(
      'GSTIN',
    );
  });
});

/** How many image objects the PDF holds (the barcode, with its alpha mask, and any logo). */
const imageCount = (pdf: Buffer) => pdf.toString('latin1').split('/Subtype /Image').length - 1;

describe('store logos on labels', () => {
  const image = (format: 'webp' | 'gif' | 'png' | 'jpeg') =>
    sharp({ create: { width: 120, height: 60, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .toFormat(format)
      .toBuffer();

  async function labelWithLogo(logo: Buffer) {
    const { apiKey } = await ctx.createAccount('Logo Shop');
    const store = await createStore(ctx, apiKey, {
      store_name: 'Logo-Shop',
      brand_name: 'Nila Textiles',
      logo: logo.toString('base64'),
    });
    const warehouseId = await createWarehouse(ctx, apiKey);
    const plain = await labelOf(await orchestrate(ctx, apiKey, orderBody(warehouseId)));
    const booking = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'Logo-Shop' }));
    return { store, plain, booking };
  }

  /** The logo drawn: more images than a label without a logo, its blue visible in the top-left corner. */
  async function expectLogoDrawn(booking: OrderPayload, plain: Buffer) {
    const pdf = await labelOf(booking);
    // (A logo with transparency adds its mask as an image of its own.)
    expect(imageCount(pdf)).toBeGreaterThan(imageCount(plain));
    const { width, pixels } = raster(save(pdf));
    // The logo fits 48 x 32 points at the top-left margin: its middle is the fill's grey level.
    expect(Math.abs(pixels[25 * width + 36]! - Math.round(0.299 * 20 + 0.587 * 90 + 0.114 * 200))).toBeLessThan(12);
  }

  it.each(['webp', 'gif'] as const)('draws a %s logo, converted to PNG once when uploaded', async (format) => {
    const { store, plain, booking } = await labelWithLogo(await image(format));
    const [row] = await queryRows<{ content_type: string; png: boolean }>(
      ctx.database.db,
      sql`select content_type, substring(label_png from 1 for 4) = '\\x89504e47'::bytea as png from store_logos where store_id = ${store.id}`,
    );
    expect(row).toEqual({ content_type: `image/${format}`, png: true });
    await expectLogoDrawn(booking, plain);
  });

  it('draws a WebP logo stored before labels drew them (no PNG kept), converting it on the first draw only', async () => {
    const logo = await image('webp');
    const { store, plain, booking } = await labelWithLogo(logo);
    const [uploaded] = await queryRows<{ label_png: Uint8Array }>(
      ctx.database.db,
      sql`select label_png from store_logos where store_id = ${store.id}`,
    );
    await queryRows(ctx.database.db, sql`update store_logos set label_png = null where store_id = ${store.id}`);
    await expectLogoDrawn(booking, plain);
    // The first draw kept the PNG it made (the one an upload makes), for the draws after it.
    const [kept] = await queryRows<{ label_png: Uint8Array }>(
      ctx.database.db,
      sql`select label_png from store_logos where store_id = ${store.id}`,
    );
    expect(Buffer.from(kept!.label_png)).toEqual(Buffer.from(uploaded!.label_png));
    await expectLogoDrawn(booking, plain);
  });

  it.each(['png', 'jpeg'] as const)(
    'draws a %s logo through the PNG copy made when uploaded, like any other',
    async (format) => {
      const { store, plain, booking } = await labelWithLogo(await image(format));
      const [row] = await queryRows<{ png: boolean }>(
        ctx.database.db,
        sql`select substring(label_png from 1 for 4) = '\\x89504e47'::bytea as png from store_logos where store_id = ${store.id}`,
      );
      expect(row).toEqual({ png: true });
      await expectLogoDrawn(booking, plain);
    },
  );
});
