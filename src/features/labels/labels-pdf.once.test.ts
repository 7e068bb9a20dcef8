import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { authed, STORES } from '../../../test/kit/http.js';
import { labelPath, pdfText } from '../../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody, type OrderPayload } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { gif, jpeg, realPng, webp } from '../../../test/kit/uploads.js';
import { merchant } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** Fetches a label through its link, with no credential, as a printer would. */
const fetchLabel = (pathAndQuery: string) => ctx.app.inject({ method: 'GET', url: pathAndQuery });

async function labelLines(booking: OrderPayload): Promise<string[]> {
  const response = await fetchLabel(labelPath(booking.label_url!));
  expect(response.statusCode).toBe(200);
  const text = await pdfText(response.rawPayload);
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^-- \d+ of \d+ --$/.test(line));
}

/** How many image objects the PDF holds (the barcode, with its alpha mask, and any logo). */
const imageCount = (pdf: Buffer) => pdf.toString('latin1').split('/Subtype /Image').length - 1;

/** The image count of a label without a logo, for comparison. */
async function imagesWithoutLogo(apiKey: string, warehouseId: string): Promise<number> {
  const plain = await orchestrate(ctx, apiKey, orderBody(warehouseId));
  return imageCount((await fetchLabel(labelPath(plain.label_url!))).rawPayload);
}

describe('GET /public/v1/labels/:id (the label_url)', () => {
  it('serves a 4x6 inch PDF with the AWB, courier, store brand, both addresses, order, declared value, items, COD amount, weight and size', async () => {
    const m = await merchant(ctx, 'Acme Traders Pvt Ltd');
    await createStore(ctx, m.apiKey, { store_name: 'Acme-Apparel', brand_name: 'Acme Apparel' });
    const booking = await orchestrate(
      ctx,
      m.apiKey,
      codOrderBody(m.warehouseId, {
        store_name: 'acme-apparel',
        order_items: [
          { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 449 },
          { name: 'Silk Scarf', sku: 'SCARF-RED', units: 1, selling_price: 100 },
        ],
        length: 30,
        breadth: 20,
        height: 5,
        weight: 0.75,
      }),
    );
    const response = await fetchLabel(labelPath(booking.label_url!));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="label-${booking.awb_code}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(response.rawPayload.toString('latin1')).toContain('/MediaBox [0 0 288 432]');

    expect(await labelLines(booking)).toEqual([
      'Acme Apparel',
      `${booking.courier_name} · ZONE C`,
      `AWB ${booking.awb_code}`,
      'COD: collect ₹998.00',
      'SHIP TO',
      'Asha Menon',
      '12 Marine Drive',
      'Mumbai, Maharashtra 400001',
      'Phone: 9123456780',
      'IF UNDELIVERED, RETURN TO',
      'Okhla Fulfilment Centre',
      'Plot 14, Okhla Phase III',
      'New Delhi, Delhi 110001',
      'Phone: 9876543210',
      `Order ${booking.channel_order_id} · 2026-11-20 14:30 IST`,
      'Declared value ₹998.00',
      'Weight 0.75 kg · 30 x 20 x 5 cm',
      '2 x Cotton Kurta (KURTA-M-BLUE)',
      '1 x Silk Scarf (SCARF-RED)',
    ]);
  });

  it('prints PREPAID, and the account name when the order has no store', async () => {
    const m = await merchant(ctx, 'Plain Goods Co');
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const lines = await labelLines(booking);
    expect(lines[0]).toBe('Plain Goods Co');
    expect(lines[3]).toBe('PREPAID');
    expect(lines.join('\n')).not.toContain('COD');
  });

  it('prints the account name when the store has no brand name', async () => {
    const m = await merchant(ctx, 'Brandless Holdings');
    await createStore(ctx, m.apiKey, { store_name: 'No-Brand' });
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: 'No-Brand' }));
    expect((await labelLines(booking))[0]).toBe('Brandless Holdings');
  });

  it("draws the label when fetched, so it shows the store's current brand", async () => {
    const m = await merchant(ctx, 'Rebrand Ltd');
    const store = await createStore(ctx, m.apiKey, { store_name: 'Old-Name', brand_name: 'Old Brand' });
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: 'Old-Name' }));
    expect((await labelLines(booking))[0]).toBe('Old Brand');
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      headers: authed(m.apiKey),
      payload: { brand_name: 'New Brand' },
    });
    expect(updated.statusCode).toBe(200);
    expect((await labelLines(booking))[0]).toBe('New Brand');
  });

  it('ships to the shipping address when it differs from billing, with a COD amount in Indian grouping and its e-way bill', async () => {
    const m = await merchant(ctx, 'Ship Elsewhere');
    const booking = await orchestrate(
      ctx,
      m.apiKey,
      codOrderBody(m.warehouseId, {
        sub_total: 125000,
        cod_collectible: 123456.5,
        shipping_is_billing: false,
        shipping_customer_name: 'Meera',
        shipping_last_name: 'Iyer',
        shipping_address: '22 Park Street',
        shipping_address_2: 'Flat 3B',
        shipping_city: 'Kolkata',
        shipping_pincode: '700016',
        shipping_state: 'West Bengal',
        shipping_country: 'India',
        shipping_phone: '09830012345',
        // ₹1,25,000 from Delhi to Kolkata needs an e-way bill (rule 138): its number is printed.
        ewaybill_no: '331009876543',
        ewaybill_date: '2026-11-20',
      }),
    );
    const lines = await labelLines(booking);
    expect(lines.slice(3, 10)).toEqual([
      'COD: collect ₹1,23,456.50',
      'SHIP TO',
      'Meera Iyer',
      '22 Park Street',
      'Flat 3B',
      'Kolkata, West Bengal 700016',
      'Phone: 9830012345',
    ]);
    expect(lines.join('\n')).not.toContain('Marine Drive');
    expect(lines).toContain('E-way bill 331009876543 of 2026-11-20');
  });

  it('lists six item lines and counts the rest', async () => {
    const m = await merchant(ctx, 'Many Items');
    const items = Array.from({ length: 8 }, (_, i) => ({
      name: `Item ${i + 1}`,
      sku: `SKU-${i + 1}`,
      units: i + 1,
      selling_price: 10,
    }));
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { order_items: items, sub_total: 360 }));
    const lines = await labelLines(booking);
    expect(lines.slice(-7)).toEqual([
      '1 x Item 1 (SKU-1)',
      '2 x Item 2 (SKU-2)',
      '3 x Item 3 (SKU-3)',
      '4 x Item 4 (SKU-4)',
      '5 x Item 5 (SKU-5)',
      '6 x Item 6 (SKU-6)',
      '+ 2 more items',
    ]);
  });

  it("draws the store's PNG logo beside the brand", async () => {
    const m = await merchant(ctx, 'Logo Works');
    await createStore(ctx, m.apiKey, {
      store_name: 'With-Logo',
      brand_name: 'Logo Brand',
      logo: realPng(40, 20).toString('base64'),
    });
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: 'With-Logo' }));
    const response = await fetchLabel(labelPath(booking.label_url!));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(imageCount(response.rawPayload)).toBe((await imagesWithoutLogo(m.apiKey, m.warehouseId)) + 1);
    expect((await pdfText(response.rawPayload)).split('\n')[0]).toBe('Logo Brand');
  });

  it.each([
    ['WebP', webp(64, 1)],
    ['GIF', gif(64, 1)],
    ['JPEG', jpeg(300, 1)],
  ])('draws a %s logo, through the PNG copy made when it was uploaded', async (_kind, logo) => {
    const m = await merchant(ctx, 'Other Formats');
    await createStore(ctx, m.apiKey, {
      store_name: 'Any-Format',
      brand_name: 'Any Brand',
      logo: logo.toString('base64'),
    });
    const booking = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: 'Any-Format' }));
    const response = await fetchLabel(labelPath(booking.label_url!));
    expect(response.statusCode).toBe(200);
    expect(imageCount(response.rawPayload)).toBe((await imagesWithoutLogo(m.apiKey, m.warehouseId)) + 1);
    expect((await pdfText(response.rawPayload)).split('\n')[0]).toBe('Any Brand');
  });
});
