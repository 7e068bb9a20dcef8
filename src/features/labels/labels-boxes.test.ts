import bwipjs from 'bwip-js';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { authed, post } from '../../../test/kit/http.js';
import { type GreyPage, labelPath, pdfGreyPages, popplerRead } from '../../../test/kit/labels.js';
import { codOrderBody, orchestrate, type OrderPayload } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';

// A multi-piece shipment's label (docs/paperwork.md, "Multi-piece shipments"): a page per box, each
// with "Box n of N", the master AWB, that box's own AWB as its barcode (read back from the drawn
// page's bars), its weight, size and contents, and the cash to collect once, on box 1.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 449 },
  { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, selling_price: 100 },
];
const BOXES = [
  { weight: 0.8, length: 30, breadth: 20, height: 5, items: [{ sku: 'KURTA-M-BLUE', units: 1 }] },
  { weight: 0.7, length: 30, breadth: 20, height: 5, items: [{ sku: 'KURTA-M-BLUE', units: 1 }] },
  { weight: 0.5, length: 25, breadth: 20, height: 10, items: [{ sku: 'SCARF-RED', units: 1 }] },
];

type Booked = OrderPayload & { boxes: { box_no: number; awb: string }[] };

const bookThreeBoxes = async (apiKey: string, warehouseId: string) =>
  (await orchestrate(
    ctx,
    apiKey,
    codOrderBody(warehouseId, { order_items: ITEMS, weight: 2, length: 30, breadth: 20, height: 20, packages: BOXES }),
  )) as Booked;

const linesOf = (page: string) =>
  page
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The Code 128 symbol of the bars a page's barcode draws: a row across the barcode's bars read as
 * runs of dark and light, each run's width in modules (the narrowest module is the barcode's
 * width over its modules), compared with bwip-js's own encoding of `text`. Rows from the barcode's
 * top down, the first that reads as `text` wins: a test label's band covers its lower part.
 */
function barsRead(page: GreyPage, text: string): boolean {
  const expected = (bwipjs.raw({ bcid: 'code128', text })[0] as { sbs: number[] }).sbs;
  const modules = expected.reduce((sum, width) => sum + width, 0);
  const scale = page.dpi / 72;
  for (let y = 50; y < 70; y += 0.5) {
    const row = Math.round(y * scale) * page.width;
    const dark = (x: number) => page.pixels[row + x]! < 128;
    let first = 0;
    while (first < page.width && !dark(first)) first++;
    let last = page.width - 1;
    while (last > first && !dark(last)) last--;
    if (last <= first) continue;
    const runs: number[] = [];
    let run = 1;
    for (let x = first + 1; x <= last; x++) {
      if (dark(x) === dark(x - 1)) run++;
      else {
        runs.push(run);
        run = 1;
      }
    }
    runs.push(run);
    const module = (last - first + 1) / modules;
    const widths = runs.map((width) => Math.round(width / module));
    if (widths.length === expected.length && widths.every((width, i) => width === expected[i])) return true;
  }
  return false;
}

async function labelPdf(booking: Booked): Promise<Buffer> {
  const response = await ctx.app.inject({ method: 'GET', url: labelPath(booking.label_url!) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

describe('the label of a multi-piece shipment', () => {
  it('has a page per box: Box n of 3, the master AWB, the box AWB as text and as its barcode, its own weight and contents', async () => {
    const m = await merchant(ctx, 'Boxes Ltd');
    const booking = await bookThreeBoxes(m.apiKey, m.warehouseId);
    const awbs = booking.boxes.map((box) => box.awb);
    expect(awbs[0]).toBe(booking.awb_code);
    expect(new Set(awbs).size).toBe(3);

    const pdf = await labelPdf(booking);
    const { pages, pageSize, pageTexts } = await popplerRead(pdf);
    expect(pages).toBe(3);
    expect(pageSize).toBe('288 x 432 pts');
    const master = booking.awb_code!;
    const expected = [
      ['COD: collect ₹998.00 for all 3 boxes', 'Weight 0.8 kg · 30 x 20 x 5 cm', '1 x Cotton Kurta (KURTA-M-BLUE)'],
      ['COD: collected with box 1', 'Weight 0.7 kg · 30 x 20 x 5 cm', '1 x Cotton Kurta (KURTA-M-BLUE)'],
      ['COD: collected with box 1', 'Weight 0.5 kg · 25 x 20 x 10 cm', '1 x Silk Scarf (SCARF-RED)'],
    ];
    pageTexts.forEach((text, i) => {
      const lines = linesOf(text);
      expect(lines.slice(2, 5)).toEqual([
        `AWB ${awbs[i]}`,
        `Box ${i + 1} of 3 · Master AWB ${master}`,
        expected[i]![0],
      ]);
      expect(lines).toContain(expected[i]![1]);
      expect(lines.at(-1)).toBe(expected[i]![2]);
      expect(lines.filter((line) => line.startsWith('COD: collect ₹'))).toHaveLength(i === 0 ? 1 : 0);
    });

    const drawn = await pdfGreyPages(pdf);
    expect(drawn.map((page, i) => barsRead(page, awbs[i]!))).toEqual([true, true, true]);
    // And not another box's: the reading tells the AWBs apart.
    expect(barsRead(drawn[1]!, awbs[2]!)).toBe(false);
  });

  it("prints every box in the account's label route and in a bulk print asked by the master AWB", async () => {
    const m = await merchant(ctx, 'Bulk Boxes');
    const booking = await bookThreeBoxes(m.apiKey, m.warehouseId);
    const single = await ctx.app.inject({
      method: 'GET',
      url: `/custom/api/v1/shipments/${booking.shipment_id}/label?format=pdf`,
      headers: authed(m.apiKey),
    });
    expect(single.statusCode).toBe(200);
    expect((await popplerRead(single.rawPayload)).pages).toBe(3);

    const bulk = await post(ctx, m.apiKey, '/custom/api/v1/labels', { awbs: [booking.awb_code] });
    expect(bulk.statusCode).toBe(200);
    const read = await popplerRead(bulk.rawPayload);
    expect(read.pages).toBe(3);
    expect(read.pageTexts.map((text) => linesOf(text)[3])).toEqual(
      [1, 2, 3].map((n) => `Box ${n} of 3 · Master AWB ${booking.awb_code}`),
    );
  });
});
