import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { post, REVERSE_ORCHESTRATE, REVERSE_ORDER, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { deliveredForward, detailedReturnBody } from '../../../test/kit/returns.js';
import { expectReturnRefused } from '../../../test/kit/rows.js';
import { listed } from '../../../test/kit/shipments.js';
import { merchant } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('returns of forward shipments', () => {
  it('links a return to its forward shipment both ways (by forward_awb or forward_order_id)', async () => {
    const m = await merchant(ctx);
    const forward = await deliveredForward(ctx, m);
    const response = await post(
      ctx,
      m.apiKey,
      REVERSE_ORCHESTRATE,
      detailedReturnBody(m.warehouseId, { forward_awb: forward.awb_code }),
    );
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(payload.forward_shipment).toEqual({
      shipment_id: forward.shipment_id,
      order_id: forward.channel_order_id,
      awb_code: forward.awb_code,
    });
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: payload.return_id, awb_code: payload.awb_code, status: 'return_pickup_scheduled' },
    });

    const second = await deliveredForward(ctx, m);
    const byOrder = await post(
      ctx,
      m.apiKey,
      REVERSE_ORDER,
      detailedReturnBody(m.warehouseId, { forward_order_id: second.channel_order_id }),
    );
    expect(byOrder.statusCode).toBe(200);
    expect(byOrder.json().payload.forward_shipment).toEqual({
      shipment_id: second.shipment_id,
      order_id: second.channel_order_id,
      awb_code: second.awb_code,
    });
  });

  it('the forward listing lists forward shipments only, with exact totals, whatever returns exist', async () => {
    const m = await merchant(ctx);
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    for (let i = 0; i < 2; i++)
      expect((await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, detailedReturnBody(m.warehouseId))).statusCode).toBe(200);
    const listing = (await post(ctx, m.apiKey, `${V1}/shipments`, {})).json();
    expect(listing.meta.total).toBe(1);
    expect(listing.data.map((row: { id: string }) => row.id)).toEqual([forward.shipment_id]);
    expect(listing.data[0].attributes.return).toBeNull();
  });

  it('refuses: unknown, another account’s, undelivered, already returned, and both link fields', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const theirs = await deliveredForward(ctx, other);
    const undelivered = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const returned = await deliveredForward(ctx, m);
    expect(
      (await post(ctx, m.apiKey, REVERSE_ORDER, detailedReturnBody(m.warehouseId, { forward_awb: returned.awb_code })))
        .statusCode,
    ).toBe(200);

    const cases: [Record<string, unknown>, string, string][] = [
      [
        { forward_awb: 'SFX9999999999' },
        "forward_awb 'SFX9999999999' names no forward shipment of this account",
        'forward_awb',
      ],
      [
        { forward_awb: theirs.awb_code },
        `forward_awb '${theirs.awb_code}' names no forward shipment of this account`,
        'forward_awb',
      ],
      [
        { forward_order_id: theirs.channel_order_id },
        `forward_order_id '${theirs.channel_order_id}' names no forward shipment of this account`,
        'forward_order_id',
      ],
      [
        { forward_awb: undelivered.awb_code },
        `The forward shipment ${undelivered.awb_code} is pending; only a delivered shipment can be returned`,
        'forward_awb',
      ],
      [{ forward_awb: returned.awb_code }, 'The forward shipment already has a return', 'forward_awb'],
    ];
    for (const [overrides, message, field] of cases) {
      for (const url of [REVERSE_ORDER, REVERSE_ORCHESTRATE]) {
        await expectReturnRefused(
          ctx.database,
          () => post(ctx, m.apiKey, url, detailedReturnBody(m.warehouseId, overrides)),
          422,
          message,
          field,
        );
      }
    }
    await expectReturnRefused(
      ctx.database,
      () =>
        post(
          ctx,
          m.apiKey,
          REVERSE_ORDER,
          detailedReturnBody(m.warehouseId, {
            forward_awb: returned.awb_code,
            forward_order_id: returned.channel_order_id,
          }),
        ),
      400,
      'Send forward_awb or forward_order_id, not both',
      'forward_order_id',
    );
  });
});
