import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { DTDC } from '../../../test/kit/couriers.js';
import { post, REVERSE_ORCHESTRATE, REVERSE_ORDER } from '../../../test/kit/http.js';
import { detailedQcItem, detailedReturnBody, plainItem } from '../../../test/kit/returns.js';
import { expectReturnProblems, expectReturnRefused, returnCounts } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('refused returns write nothing', () => {
  const badRequests: [string, (warehouseId: string) => Record<string, unknown>, string, string][] = [
    [
      'QC item without an image',
      (w) => detailedReturnBody(w, { order_items: [detailedQcItem('A', { qc_product_image: undefined })] }),
      'order_items[0].qc_product_image is required when qc_enable is true',
      'order_items[0].qc_product_image',
    ],
    [
      'QC image not a URL',
      (w) =>
        detailedReturnBody(w, { order_items: [plainItem(), detailedQcItem('A', { qc_product_image: 'kurta.jpg' })] }),
      'order_items[1].qc_product_image must be an http(s) URL',
      'order_items[1].qc_product_image',
    ],
    [
      'QC image over ftp',
      (w) =>
        detailedReturnBody(w, {
          order_items: [detailedQcItem('A', { qc_product_image: 'ftp://cdn.acme.example/k.jpg' })],
        }),
      'order_items[0].qc_product_image must be an http(s) URL',
      'order_items[0].qc_product_image',
    ],
    [
      'no pickup phone',
      (w) => detailedReturnBody(w, { pickup_phone: undefined }),
      'pickup_phone is required',
      'pickup_phone',
    ],
    [
      'bad pickup phone',
      (w) => detailedReturnBody(w, { pickup_phone: '12345' }),
      'pickup_phone must be a valid Indian phone number (10 digits)',
      'pickup_phone',
    ],
    [
      'bad pickup pincode',
      (w) => detailedReturnBody(w, { pickup_pincode: '999999' }),
      'pickup_pincode 999999 is not a pincode in the directory',
      'pickup_pincode',
    ],
    [
      'pickup pincode 000000',
      (w) => detailedReturnBody(w, { pickup_pincode: '000000' }),
      'pickup_pincode 000000 is not a pincode in the directory',
      'pickup_pincode',
    ],
    [
      'malformed pickup pincode',
      (w) => detailedReturnBody(w, { pickup_pincode: '56003' }),
      'pickup_pincode must be a 6-digit Indian pincode',
      'pickup_pincode',
    ],
    [
      'bad order date',
      (w) => detailedReturnBody(w, { order_date: '2026-02-30' }),
      'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp',
      'order_date',
    ],
    [
      'discount over value',
      (w) => detailedReturnBody(w, { total_discount: 500 }),
      'total_discount must not exceed the order value (sub_total)',
      'total_discount',
    ],
    [
      'carrier on reverse-order',
      (w) => detailedReturnBody(w, { carrier_id: DTDC }),
      'carrier_id belongs to reverse-order-shipment or reverse-order-orchestration',
      'carrier_id',
    ],
  ];
  it.each(badRequests)('400: %s', async (_name, body, message, field) => {
    const m = await merchant(ctx);
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ORDER, body(m.warehouseId)),
      400,
      message,
      field,
    );
  });

  it('400: every independent problem together: date, phone, pincode, discount, each QC item, carrier_id (issue 16)', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId, {
      order_date: '2026-02-30',
      pickup_phone: '12345',
      pickup_pincode: '999999',
      total_discount: 500,
      order_items: [
        detailedQcItem('A', { qc_product_image: undefined }),
        plainItem(),
        detailedQcItem('B', { qc_product_image: 'kurta.jpg' }),
      ],
      carrier_id: DTDC,
    });
    await expectReturnProblems(ctx.database, () => post(ctx, m.apiKey, REVERSE_ORDER, body), [
      { field: 'order_date', message: 'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp' },
      { field: 'pickup_phone', message: 'pickup_phone must be a valid Indian phone number (10 digits)' },
      { field: 'pickup_pincode', message: 'pickup_pincode 999999 is not a pincode in the directory' },
      { field: 'total_discount', message: 'total_discount must not exceed the order value (sub_total)' },
      {
        field: 'order_items[0].qc_product_image',
        message: 'order_items[0].qc_product_image is required when qc_enable is true',
      },
      { field: 'order_items[2].qc_product_image', message: 'order_items[2].qc_product_image must be an http(s) URL' },
      { field: 'carrier_id', message: 'carrier_id belongs to reverse-order-shipment or reverse-order-orchestration' },
    ]);
  });

  it('400: without warehouse_id, every missing destination field, after the pickup address’s problems', async () => {
    const m = await merchant(ctx);
    const missing = ['customer_name', 'address', 'city', 'state', 'country', 'pincode', 'phone'].map((name) => ({
      field: `shipping_${name}`,
      message: `shipping_${name} is required unless warehouse_id is given`,
    }));
    await expectReturnProblems(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ORCHESTRATE, detailedReturnBody(undefined, { pickup_phone: '12345' })),
      [{ field: 'pickup_phone', message: 'pickup_phone must be a valid Indian phone number (10 digits)' }, ...missing],
    );
  });

  it('400: a COD return (a return is never cash on delivery)', async () => {
    const m = await merchant(ctx);
    const before = await returnCounts(ctx.database);
    const response = await post(
      ctx,
      m.apiKey,
      REVERSE_ORCHESTRATE,
      detailedReturnBody(m.warehouseId, { payment_method: 'COD' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { field: 'payment_method', message: 'payment_method must be PREPAID: a return is never cash on delivery' },
    ]);
    expect(await returnCounts(ctx.database)).toEqual(before);
  });

  it('422: unknown warehouse, duplicate order_id, no courier, unknown or unserviceable carrier', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ORDER, detailedReturnBody(other.warehouseId)),
      422,
      `Warehouse '${other.warehouseId}' not found: create it first`,
      'warehouse_id',
    );
    const body = detailedReturnBody(m.warehouseId);
    expect((await post(ctx, m.apiKey, REVERSE_ORDER, body)).statusCode).toBe(200);
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ORDER, { ...body }),
      422,
      `Return '${body.order_id}' already exists`,
      'order_id',
      'return_id_taken',
    );
    for (const overrides of [{ pickup_pincode: '900056' }, { weight: 100 }]) {
      await expectReturnRefused(
        ctx.database,
        () => post(ctx, m.apiKey, REVERSE_ORDER, detailedReturnBody(m.warehouseId, overrides)),
        422,
        'No courier service can carry this return: check the pincodes and weight',
      );
    }
    await expectReturnRefused(
      ctx.database,
      () =>
        post(ctx, m.apiKey, REVERSE_ORCHESTRATE, detailedReturnBody(m.warehouseId, { carrier_id: 'CARNOSUCH0001' })),
      422,
      "carrier_id 'CARNOSUCH0001' is not a known courier service",
      'carrier_id',
      'courier_service_unknown',
    );
    await expectReturnRefused(
      ctx.database,
      () =>
        post(
          ctx,
          m.apiKey,
          REVERSE_ORCHESTRATE,
          detailedReturnBody(m.warehouseId, { carrier_id: 'CARXPBS250G01', order_items: [plainItem()], weight: 5 }),
        ),
      422,
      'Xpressbees 250 g cannot carry this return: the applicable weight 5000 g is above its maximum of 2000 g',
      'carrier_id',
    );
  });
});
