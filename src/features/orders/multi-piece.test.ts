import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { authed, FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { BOXED_ITEMS, BOXES, boxedOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// A multi-piece order's packages (Dakiya's addition; docs/paperwork.md, "Multi-piece shipments"):
// taken with the order's loose typing, each rule a 400 naming its field, stored in grams and
// answered as boxes; PUT /order replaces them before booking and refuses a change after.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const ORDER = '/custom/api/v1/order';
const put = (apiKey: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PUT', url: ORDER, headers: authed(apiKey), payload });

const multiPiece = (warehouseId: string, overrides: Record<string, unknown> = {}) =>
  boxedOrderBody(warehouseId, { length: 30, breadth: 20, height: 25, ...overrides });

async function storedPackages(orderId: string) {
  const [row] = await queryRows<{ packages: unknown; weight_grams: number }>(
    ctx.database.db,
    sql`select packages, weight_grams from orders where id = ${orderId}`,
  );
  return row!;
}

describe('forward-order with packages', () => {
  it('stores the boxes in grams, prices each box and answers them (no AWB yet); strings as numbers, as for weight', async () => {
    const m = await merchant(ctx);
    const body = multiPiece(m.warehouseId, {
      weight: '2',
      packages: [
        { weight: '1.2', length: '30', breadth: 20, height: 15, items: [{ sku: ' KURTA-M-BLUE ', units: '2' }] },
        BOXES[1],
      ],
    });
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    // Each box's chargeable weight (its volumetric here) summed: 1.8 + 1 kg, not the order's 30x20x25 (3 kg).
    expect(payload.applied_weight).toBe(2.8);
    expect(payload.awb_code).toBeNull();
    expect(payload.boxes).toEqual([
      {
        box_no: 1,
        awb: null,
        weight: 1.2,
        dimensions: { length: 30, breadth: 20, height: 15 },
        items: [{ sku: 'KURTA-M-BLUE', units: 2 }],
        status: 'pending',
      },
      {
        box_no: 2,
        awb: null,
        weight: 0.8,
        dimensions: { length: 25, breadth: 20, height: 10 },
        items: [{ sku: 'SCARF-RED', units: 1 }],
        status: 'pending',
      },
    ]);
    expect(await storedPackages(payload.order_id)).toEqual({
      weight_grams: 2000,
      packages: [
        { weightGrams: 1200, lengthCm: 30, breadthCm: 20, heightCm: 15, items: [{ sku: 'KURTA-M-BLUE', units: 2 }] },
        { weightGrams: 800, lengthCm: 25, breadthCm: 20, heightCm: 10, items: [{ sku: 'SCARF-RED', units: 1 }] },
      ],
    });
  });

  it('takes boxes without items, and answers an order in one box without boxes; [] is one box', async () => {
    const m = await merchant(ctx);
    const bare = BOXES.map(({ items: _, ...box }) => box);
    const response = await post(ctx, m.apiKey, FORWARD_ORDER, multiPiece(m.warehouseId, { packages: bare }));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.boxes.map((box: { items: unknown }) => box.items)).toEqual([[], []]);
    for (const body of [orderBody(m.warehouseId), orderBody(m.warehouseId, { packages: [] })]) {
      const one = await post(ctx, m.apiKey, FORWARD_ORDER, body);
      expect(one.statusCode).toBe(200);
      expect(one.json().payload).not.toHaveProperty('boxes');
      expect((await storedPackages(one.json().payload.order_id)).packages).toBeNull();
    }
  });
});

describe('the routes that check an order without booking it', () => {
  it('/forward-order/check and /allocation/preview price the boxes and refuse them as a booking would', async () => {
    const m = await merchant(ctx);
    const checked = await post(ctx, m.apiKey, '/custom/api/v1/forward-order/check', multiPiece(m.warehouseId));
    expect(checked.statusCode).toBe(200);
    expect(checked.json().data.carrier_id).toMatch(/^CAR/);
    const preview = await post(ctx, m.apiKey, '/custom/api/v1/allocation/preview', multiPiece(m.warehouseId));
    expect(preview.statusCode).toBe(200);
    for (const url of ['/custom/api/v1/forward-order/check', '/custom/api/v1/allocation/preview']) {
      const refused = await post(ctx, m.apiKey, url, multiPiece(m.warehouseId, { weight: 3 }));
      expect([refused.statusCode, refused.json().details]).toEqual([
        400,
        [{ field: 'weight', message: "weight must be the boxes' total weight when packages are sent: 2 kg, not 3 kg" }],
      ]);
    }
  });
});

describe('packages refused with 400 naming the field, nothing written', () => {
  const box = (overrides: Record<string, unknown> = {}) => ({ ...BOXES[1], ...overrides });
  const cases: [string, (warehouseId: string) => Record<string, unknown>, { field: string; message: string }[]][] = [
    [
      'one box',
      (w) => multiPiece(w, { weight: 1.2, packages: [BOXES[0]] }),
      [
        {
          field: 'packages',
          message:
            "packages must list 2 to 20 boxes: an order in one box sends no packages (its weight and size are the order's own)",
        },
      ],
    ],
    [
      '21 boxes',
      (w) =>
        multiPiece(w, {
          weight: 2.1,
          packages: Array.from({ length: 21 }, () => ({ ...box(), weight: 0.1, items: [] })),
        }),
      [{ field: 'packages', message: 'packages must list 2 to 20 boxes, or none' }],
    ],
    [
      'a box weighing nothing',
      (w) => multiPiece(w, { packages: [BOXES[0], box({ weight: 0 })] }),
      [{ field: 'packages.1.weight', message: 'packages.1.weight must be greater than 0 and at most 500 kg' }],
    ],
    [
      'a box of negative length',
      (w) => multiPiece(w, { packages: [{ ...BOXES[0], length: -30 }, BOXES[1]] }),
      [{ field: 'packages.0.length', message: 'packages.0.length must be greater than 0 and at most 500 cm' }],
    ],
    [
      'a box without its height',
      (w) => multiPiece(w, { packages: [BOXES[0], { weight: 0.8, length: 25, breadth: 20 }] }),
      [{ field: 'packages.1.height', message: 'packages.1.height is required' }],
    ],
    [
      "a weight that is not the boxes' total",
      (w) => multiPiece(w, { weight: 2.5 }),
      [{ field: 'weight', message: "weight must be the boxes' total weight when packages are sent: 2 kg, not 2.5 kg" }],
    ],
    [
      'an SKU the order does not have',
      (w) => multiPiece(w, { packages: [BOXES[0], box({ items: [{ sku: 'SCARF-BLUE', units: 1 }] })] }),
      [
        { field: 'packages.1.items.0.sku', message: 'packages.1.items.0.sku SCARF-BLUE is not an SKU of order_items' },
        {
          field: 'packages',
          message:
            "packages hold 0 of the order's 1 units of SCARF-RED: when boxes list their items, every unit is in one",
        },
      ],
    ],
    [
      'more units than the order has',
      (w) =>
        multiPiece(w, {
          packages: [
            BOXES[0],
            box({
              items: [
                { sku: 'SCARF-RED', units: 1 },
                { sku: 'KURTA-M-BLUE', units: 1 },
              ],
            }),
          ],
        }),
      [
        {
          field: 'packages.1.items.1.units',
          message: 'packages.1.items.1.units puts 3 units of KURTA-M-BLUE in the boxes up to box 2: the order has 2',
        },
      ],
    ],
    [
      'fewer units than the order has',
      (w) => multiPiece(w, { packages: [{ ...BOXES[0], items: [{ sku: 'KURTA-M-BLUE', units: 1 }] }, BOXES[1]] }),
      [
        {
          field: 'packages',
          message:
            "packages hold 1 of the order's 2 units of KURTA-M-BLUE: when boxes list their items, every unit is in one",
        },
      ],
    ],
    [
      'a box without items when another lists its own',
      (w) =>
        multiPiece(w, {
          packages: [
            { ...BOXES[0], items: [...BOXES[0]!.items, { sku: 'SCARF-RED', units: 1 }] },
            box({ items: undefined }),
          ],
        }),
      [
        {
          field: 'packages.1.items',
          message: 'packages.1.items must list what box 2 holds: when one box lists its items, every box does',
        },
      ],
    ],
  ];

  it.each(cases)('%s', async (_name, bodyOf, details) => {
    const m = await merchant(ctx);
    for (const url of [FORWARD_ORDER, ORCHESTRATE]) {
      const response = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, bodyOf(m.warehouseId)));
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual(details);
    }
  });
});

describe('PUT /order and packages', () => {
  it('replaces them before booking: packages alone take their total as the weight; a whole body without them, or [], is one box', async () => {
    const m = await merchant(ctx);
    const created = await post(ctx, m.apiKey, FORWARD_ORDER, multiPiece(m.warehouseId));
    const { order_id: orderId, channel_order_id: merchantOrderId } = created.json().payload;
    const three = [BOXES[0]!, { ...BOXES[1]!, weight: 0.5 }, { ...BOXES[1]!, weight: 0.5 }].map(
      ({ items: _, ...rest }) => rest,
    );
    const changed = await put(m.apiKey, { order_id: merchantOrderId, packages: three });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().payload.boxes.map((b: { weight: number }) => b.weight)).toEqual([1.2, 0.5, 0.5]);
    expect((await storedPackages(orderId)).weight_grams).toBe(2200);

    const cleared = await put(m.apiKey, { order_id: merchantOrderId, packages: [] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().payload).not.toHaveProperty('boxes');
    expect(await storedPackages(orderId)).toEqual({ packages: null, weight_grams: 2200 });

    await put(m.apiKey, { order_id: merchantOrderId, packages: BOXES, weight: 2 });
    const whole = multiPiece(m.warehouseId, { order_id: merchantOrderId });
    delete whole.packages;
    const replaced = await put(m.apiKey, whole);
    expect(replaced.statusCode).toBe(200);
    expect((await storedPackages(orderId)).packages).toBeNull();
  });

  it('refuses to change the boxes once an AWB is assigned (422 naming packages)', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { order_items: BOXED_ITEMS, weight: 2 }));
    const response = await put(m.apiKey, { order_id: booked.channel_order_id, packages: BOXES });
    expect(response.statusCode).toBe(422);
    expect(response.json().details).toEqual([
      {
        field: 'packages',
        message:
          'packages cannot change once an AWB is assigned (it would change the price or the courier): cancel the shipment and book it again',
      },
    ]);
  });
});
