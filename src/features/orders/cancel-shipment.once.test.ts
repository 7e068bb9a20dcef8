import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { withRealIds } from '../../../test/kit/examples.js';
import {
  CANCEL,
  FORWARD_ORDER,
  ORCHESTRATE,
  post,
  REVERSE_ORCHESTRATE,
  REVERSE_ORDER,
  UNKNOWN_ID,
} from '../../../test/kit/http.js';
import { nextOrderId } from '../../../test/kit/orders.js';
import { expectNothingWritten, shipmentRow } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { EXAMPLE } from '../../http/examples.js';
import { RETURN_REQUESTS } from '../returns/returns.examples.js';
import { ORDER_REQUESTS } from './orders.examples.js';

// cancel-order's other form, as Velocity integrations send it: {shipment_id, shipment_awb}, one
// shipment, possibly one without an AWB yet (VELOCITY.md, "More from Velocity's API document").

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** The documented order example, in this merchant's warehouse, through `url`; returns the payload. */
async function order(m: Merchant, url: string, example: object) {
  const response = await post(
    ctx,
    m.apiKey,
    url,
    withRealIds(example, { warehouseId: m.warehouseId }, { store_name: undefined, order_id: nextOrderId() }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json().payload as { shipment_id: string; awb_code: string | null; return_id?: string };
}

const cancel = (m: Merchant, payload: unknown) => post(ctx, m.apiKey, CANCEL, payload);

describe('POST /custom/api/v1/cancel-order {shipment_id, shipment_awb}', () => {
  it('cancels a booked shipment named by the documented pair, then reports it already cancelled', async () => {
    const m = await merchant(ctx);
    const booked = await order(m, ORCHESTRATE, ORDER_REQUESTS.orchestration);
    ctx.clock.advance(60_000);
    const pair = withRealIds(ORDER_REQUESTS.cancelShipment, {
      bookedShipmentId: booked.shipment_id,
      awb: booked.awb_code!,
    });
    expect(pair).toEqual({ shipment_id: booked.shipment_id, shipment_awb: booked.awb_code });
    const first = await cancel(m, pair);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [
        { shipment_id: booked.shipment_id, awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' },
      ],
    });
    expect(await shipmentRow(ctx.database, booked.shipment_id)).toMatchObject({
      status: 'cancelled',
      sub_status: 'cancelled_by_merchant',
      cancelled_at: ctx.clock.now().toISOString(),
    });
    const again = await expectNothingWritten(ctx.database, () => cancel(m, { shipment_id: booked.shipment_id }));
    expect(again.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [
        {
          shipment_id: booked.shipment_id,
          awb: booked.awb_code,
          cancelled: false,
          message: 'Shipment is already cancelled',
        },
      ],
    });
  });

  // Clients without an AWB repeat the draft's id in shipment_awb (issue 46): that names it too.
  const REPEATED_ID = Symbol('the shipment_id repeated');
  it.each([
    ['empty', ''],
    ['null', null],
    ['absent', undefined],
    ['the shipment_id repeated', REPEATED_ID],
  ])('cancels a draft of forward-order (no AWB yet) with shipment_awb %s', async (_label, sent) => {
    const m = await merchant(ctx);
    const draft = await order(m, FORWARD_ORDER, ORDER_REQUESTS.forwardOrder);
    expect(draft.awb_code).toBeNull();
    const shipmentAwb = sent === REPEATED_ID ? draft.shipment_id : sent;
    const response = await cancel(m, { shipment_id: draft.shipment_id, shipment_awb: shipmentAwb });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [{ shipment_id: draft.shipment_id, awb: null, cancelled: true, message: 'Shipment cancelled' }],
    });
    expect(await shipmentRow(ctx.database, draft.shipment_id)).toMatchObject({
      status: 'cancelled',
      sub_status: 'cancelled_by_merchant',
      awb: null,
    });
  });

  it("answers an unknown shipment_id, another account's and one that is not a UUID as not found, per item, leaving the other's pending", async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aBooked = await order(a, ORCHESTRATE, ORDER_REQUESTS.orchestration);
    for (const [shipmentId, shipmentAwb] of [
      [aBooked.shipment_id, aBooked.awb_code],
      [aBooked.shipment_id, undefined],
      [UNKNOWN_ID, 'SFX0000009999'],
      ['12345', ''],
    ] as const) {
      const response = await expectNothingWritten(ctx.database, () =>
        cancel(b, { shipment_id: shipmentId, shipment_awb: shipmentAwb }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        message: '0 of 1 shipment cancelled',
        results: [
          { shipment_id: shipmentId, awb: shipmentAwb || null, cancelled: false, message: 'Shipment not found' },
        ],
      });
    }
    expect((await shipmentRow(ctx.database, aBooked.shipment_id)).status).toBe('pending');
  });

  it('refuses a mismatched pair with a 422 naming shipment_awb and shipment_id, cancelling nothing', async () => {
    const m = await merchant(ctx);
    const booked = await order(m, ORCHESTRATE, ORDER_REQUESTS.orchestration);
    const draft = await order(m, FORWARD_ORDER, ORDER_REQUESTS.forwardOrder);
    const cases = [
      [booked.shipment_id, 'SFX0000009999', `its AWB is ${booked.awb_code}`],
      [draft.shipment_id, booked.awb_code!, 'it has no AWB yet'],
      // Its id stands for the AWB only while there is none: a booked shipment's pair is stale.
      [booked.shipment_id, booked.shipment_id, `its AWB is ${booked.awb_code}`],
    ] as const;
    for (const [shipmentId, shipmentAwb, actual] of cases) {
      const response = await expectNothingWritten(ctx.database, () =>
        cancel(m, { shipment_id: shipmentId, shipment_awb: shipmentAwb }),
      );
      expect(response.statusCode).toBe(422);
      const message = `shipment_awb '${shipmentAwb}' is not the AWB of shipment_id '${shipmentId}' (${actual}): send the pair as booked, or shipment_id alone`;
      expect(response.json()).toEqual({
        code: 'awb_mismatch',
        message,
        errors: [message],
        details: [
          { field: 'shipment_awb', message },
          { field: 'shipment_id', message: `shipment_id '${shipmentId}': ${actual}` },
        ],
      });
    }
    expect((await shipmentRow(ctx.database, booked.shipment_id)).status).toBe('pending');
    expect((await shipmentRow(ctx.database, draft.shipment_id)).status).toBe('pending');
  });

  it('cancels a return by its shipment_id: one not yet booked (its id repeated as shipment_awb), and a booked one with its AWB', async () => {
    const m = await merchant(ctx);
    const draft = await order(m, REVERSE_ORDER, RETURN_REQUESTS.reverseOrder);
    const booked = await order(m, REVERSE_ORCHESTRATE, RETURN_REQUESTS.orchestration);
    const first = await cancel(m, { shipment_id: draft.shipment_id, shipment_awb: draft.shipment_id });
    expect(first.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [{ shipment_id: draft.shipment_id, awb: null, cancelled: true, message: 'Return cancelled' }],
    });
    const second = await cancel(m, { shipment_id: booked.shipment_id, shipment_awb: booked.awb_code });
    expect(second.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [
        { shipment_id: booked.shipment_id, awb: booked.awb_code, cancelled: true, message: 'Return cancelled' },
      ],
    });
    const wrong = await cancel(m, { shipment_id: booked.shipment_id, shipment_awb: EXAMPLE.awb });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details.map((d: { field: string }) => d.field)).toEqual(['shipment_awb', 'shipment_id']);
  });

  it('refuses both forms at once, shipment_awb alone and an empty shipment_id (400 naming the field)', async () => {
    const m = await merchant(ctx);
    const booked = await order(m, ORCHESTRATE, ORDER_REQUESTS.orchestration);
    const cases: [unknown, string, string][] = [
      [
        { awbs: [booked.awb_code], shipment_id: booked.shipment_id },
        'shipment_id',
        'Send awbs, or shipment_id (with shipment_awb), not both',
      ],
      [{ shipment_awb: booked.awb_code }, 'awbs', 'awbs is required, or shipment_id (with shipment_awb)'],
      [{}, 'awbs', 'awbs is required, or shipment_id (with shipment_awb)'],
      [{ shipment_id: '' }, 'shipment_id', 'shipment_id must be at least 1 character long'],
      [
        { shipment_id: booked.shipment_id, shipment_awb: ['x'] },
        'shipment_awb',
        'shipment_awb must be of type string or null',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const response = await expectNothingWritten(ctx.database, () => cancel(m, payload));
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({
        code: 'invalid_request',
        message,
        errors: [message],
        details: [{ field, message }],
      });
    }
    expect((await shipmentRow(ctx.database, booked.shipment_id)).status).toBe('pending');
  });
});
