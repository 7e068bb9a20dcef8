import { LABEL_URL } from '../../../test/kit/labels.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { DTDC, QC_CAPABLE, SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  post,
  REVERSE_ASSIGN,
  REVERSE_ORCHESTRATE,
  REVERSE_ORDER,
  UNKNOWN_ID,
  UUID,
  V1,
} from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import {
  deliveredForward,
  detailedQcItem,
  detailedReturnBody,
  plainItem,
  returnQuotes,
  WAREHOUSE_SHIPPING_FIELDS,
} from '../../../test/kit/returns.js';
import { expectReturnRefused, returnCounts } from '../../../test/kit/rows.js';
import { listed } from '../../../test/kit/shipments.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { NO_ROUTING } from '../../http/examples.js';
import { NO_QC_COURIER } from './return-courier-choice.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('POST /reverse-order-orchestration', () => {
  it("books a QC return with the cheapest QC-capable courier, at /rates' price, in Velocity's answer", async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const { status, payload } = response.json();
    const [cheapest] = await returnQuotes(ctx, m.apiKey, body, true);
    expect(status).toBe(1);
    expect(QC_CAPABLE).toContain(cheapest!.carrier_id);
    expect(payload).toEqual({
      order_created: 1,
      awb_generated: 1,
      pickup_generated: 1,
      pickup_scheduled_date: '2026-11-20',
      order_id: body.order_id,
      return_id: expect.stringMatching(UUID),
      shipment_id: expect.stringMatching(UUID),
      status: 'return_pickup_scheduled',
      zone: 'zone_c',
      awb_code: expect.stringMatching(/^[A-Z][A-Z0-9]{1,4}\d{10}$/),
      courier_company_id: cheapest!.carrier_id,
      courier_name: expect.any(String),
      assigned_date_time: { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' },
      applied_weight: 0.5,
      cod: 0,
      is_return: 1,
      ...NO_ROUTING,
      expected_delivery_date: expect.stringMatching(/^2026-11-\d{2}$/),
      charges: {
        reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2),
        qc: cheapest!.charges.qc_charges.toFixed(2),
        qc_leeway: '0.00',
        dead_weight_billing: true,
        platform_fee: 0,
        total_return_charges: cheapest!.charges.total_return_charges,
      },
      qc_enabled: 1,
      qc_message: null,
      forward_shipment: null,
      label_url: expect.stringMatching(LABEL_URL),
      track_url: expect.stringMatching(/^https:\/\/dakiya\.test\/t\/r[0-9a-f]{32}[A-Za-z0-9_-]{22}$/),
      // The test app's couriers book from series they allotted: real bookings.
      test_mode: false,
    });
    expect(Number(payload.charges.qc)).toBeGreaterThan(0);
    expect(payload.return_id).not.toBe(payload.shipment_id);
  });

  it('a non-QC return to a shipping_* address costs what /rates quotes without QC (volumetric weight billed)', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(undefined, {
      ...WAREHOUSE_SHIPPING_FIELDS,
      order_items: [plainItem()],
      length: 40,
      breadth: 30,
      height: 20,
    });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await returnQuotes(ctx, m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.applied_weight).toBe(4.8);
    expect(payload.charges).toEqual({
      reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2),
      qc: '0.00',
      qc_leeway: '0.00',
      dead_weight_billing: false,
      platform_fee: 0,
      total_return_charges: cheapest!.charges.total_return_charges,
    });
    expect(payload.qc_enabled).toBe(0);
    expect(payload.qc_message).toBeNull();
  });

  it('books the named QC-capable courier at its /rates price', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId, { carrier_id: 'CARDELHAIR001' });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const quoted = (await returnQuotes(ctx, m.apiKey, body, true)).find((c) => c.carrier_id === 'CARDELHAIR001')!;
    expect(payload.courier_company_id).toBe('CARDELHAIR001');
    expect(payload.awb_code).toMatch(/^DLA\d{10}$|^[A-Z][A-Z0-9]{1,4}\d{10}$/);
    expect(payload.charges.reverse_charges).toBe(quoted.charges.return_freight_charges.toFixed(2));
    expect(payload.charges.qc).toBe(quoted.charges.qc_charges.toFixed(2));
    expect(payload.charges.platform_fee).toBe(2);
  });

  it('more than 2 QC SKUs: booked as non-QC with the cheapest courier, and the answer says so', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId, {
      order_items: [detailedQcItem('A'), detailedQcItem('B'), detailedQcItem('C')],
    });
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await returnQuotes(ctx, m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.qc_enabled).toBe(0);
    expect(payload.charges.qc).toBe('0.00');
    expect(payload.qc_message).toBe('QC covers at most 2 SKUs and 3 asked for it: booked as a non-QC return');
  });

  it('two QC items of the same SKU count as one SKU: QC applies', async () => {
    const m = await merchant(ctx);
    const response = await post(
      ctx,
      m.apiKey,
      REVERSE_ORCHESTRATE,
      detailedReturnBody(m.warehouseId, {
        order_items: [detailedQcItem('A'), detailedQcItem('A'), detailedQcItem('B')],
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.qc_enabled).toBe(1);
  });

  it('no QC-capable courier serves the lane (25 kg): falls back to a non-QC courier and says so', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId, { weight: 25 });
    expect(await returnQuotes(ctx, m.apiKey, body, true)).toEqual([]);
    const response = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    const [cheapest] = await returnQuotes(ctx, m.apiKey, body, false);
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(QC_CAPABLE).not.toContain(payload.courier_company_id);
    expect(payload.qc_enabled).toBe(0);
    expect(payload.qc_message).toBe(NO_QC_COURIER);
    expect(payload.charges.reverse_charges).toBe(cheapest!.charges.return_freight_charges.toFixed(2));
  });

  it('replays the first answer for a repeated Idempotency-Key and books once', async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId);
    const headers = { 'idempotency-key': `ret-${body.order_id}` };
    const first = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body, headers);
    const before = await returnCounts(ctx.database);
    const again = await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await returnCounts(ctx.database)).toEqual(before);
  });
});

describe('POST /reverse-order, then /reverse-order-shipment', () => {
  it("creates the return without a courier, in Velocity's answer, then books the cheapest for carrier_id ''", async () => {
    const m = await merchant(ctx);
    const body = detailedReturnBody(m.warehouseId, { order_date: '2026-11-19 18:05' });
    const created = await post(ctx, m.apiKey, REVERSE_ORDER, body);
    expect(created.statusCode).toBe(200);
    const payload = created.json().payload;
    expect(created.json().status).toBe(1);
    expect(payload).toMatchObject({
      order_created: 1,
      awb_generated: 0,
      pickup_generated: 0,
      pickup_scheduled_date: null,
      order_id: body.order_id,
      status: 'return_requested',
      awb_code: null,
      courier_company_id: null,
      charges: null,
      cod: 0,
      is_return: 1,
      qc_enabled: 0,
      assigned_date_time: { date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' },
    });
    expect(payload.return_id).toMatch(UUID);
    expect(payload.shipment_id).toMatch(UUID);

    const booked = await post(ctx, m.apiKey, REVERSE_ASSIGN, {
      return_id: payload.return_id,
      warehouse_id: m.warehouseId,
      carrier_id: '',
    });
    expect(booked.statusCode).toBe(200);
    const done = booked.json().payload;
    const [cheapest] = await returnQuotes(ctx, m.apiKey, body, true);
    expect(done).toMatchObject({
      return_id: payload.return_id,
      shipment_id: payload.shipment_id,
      awb_generated: 1,
      status: 'return_pickup_scheduled',
      courier_company_id: cheapest!.carrier_id,
      qc_enabled: 1,
      charges: {
        reverse_charges: cheapest!.charges.return_freight_charges.toFixed(2),
        qc: cheapest!.charges.qc_charges.toFixed(2),
      },
    });

    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: payload.return_id }),
      422,
      'A courier is already assigned to this return',
      'return_id',
      'return_courier_already_assigned',
    );
  });

  it('a return created with shipping_* takes the warehouse named at booking as its destination', async () => {
    const m = await merchant(ctx);
    const created = await post(
      ctx,
      m.apiKey,
      REVERSE_ORDER,
      detailedReturnBody(undefined, { ...WAREHOUSE_SHIPPING_FIELDS, order_items: [plainItem()] }),
    );
    expect(created.statusCode).toBe(200);
    const booked = await post(ctx, m.apiKey, REVERSE_ASSIGN, {
      return_id: created.json().payload.return_id,
      warehouse_id: m.warehouseId,
      carrier_id: DTDC,
    });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().payload).toMatchObject({ courier_company_id: DTDC, zone: 'zone_c', qc_enabled: 0 });
  });

  it('refuses: unknown return, another account’s return, a different warehouse, a non-QC courier for a QC return', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const created = await post(ctx, m.apiKey, REVERSE_ORDER, detailedReturnBody(m.warehouseId));
    const returnId = created.json().payload.return_id;
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: UNKNOWN_ID }),
      422,
      `Return '${UNKNOWN_ID}' not found`,
      'return_id',
    );
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, other.apiKey, REVERSE_ASSIGN, { return_id: returnId }),
      422,
      `Return '${returnId}' not found`,
      'return_id',
    );
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, warehouse_id: other.warehouseId }),
      422,
      `warehouse_id is not this return's destination warehouse (${m.warehouseId})`,
      'warehouse_id',
    );
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, carrier_id: DTDC }),
      422,
      'DTDC Standard does not carry QC returns: omit carrier_id, or name a QC-capable courier',
      'carrier_id',
    );
    await expectReturnRefused(
      ctx.database,
      () => post(ctx, m.apiKey, REVERSE_ASSIGN, { return_id: returnId, carrier_id: 'CARNOSUCH0001' }),
      422,
      "carrier_id 'CARNOSUCH0001' is not a known courier service",
      'carrier_id',
    );
  });
});

describe('cancel-order with return AWBs', () => {
  const CANCEL = `${V1}/cancel-order`;

  it('cancels a booked return once, beside forward AWBs; another account’s return AWB is not found', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const ret = (await post(ctx, m.apiKey, REVERSE_ORCHESTRATE, detailedReturnBody(m.warehouseId))).json().payload;
    const forward = await book(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    const theirs = (await post(ctx, other.apiKey, REVERSE_ORCHESTRATE, detailedReturnBody(other.warehouseId))).json()
      .payload;

    const response = await post(ctx, m.apiKey, CANCEL, {
      awbs: [ret.awb_code, forward.awb_code, theirs.awb_code, ret.awb_code],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '2 of 4 shipments cancelled',
      results: [
        { awb: ret.awb_code, cancelled: true, message: 'Return cancelled' },
        { awb: forward.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: theirs.awb_code, cancelled: false, message: 'AWB not found' },
        { awb: ret.awb_code, cancelled: false, message: 'Shipment is already cancelled' },
      ],
    });
    const again = await post(ctx, m.apiKey, CANCEL, { awbs: [ret.awb_code] });
    expect(again.json().results).toEqual([
      { awb: ret.awb_code, cancelled: false, message: 'Return is already cancelled' },
    ]);
    const [row] = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from returns where id = ${theirs.return_id}`,
    );
    expect(row!.status).toBe('return_pickup_scheduled');
  });

  it('a cancelled return frees its forward shipment for a new return; the listing shows the live one', async () => {
    const m = await merchant(ctx);
    const forward = await deliveredForward(ctx, m);
    const first = (
      await post(
        ctx,
        m.apiKey,
        REVERSE_ORCHESTRATE,
        detailedReturnBody(m.warehouseId, { forward_awb: forward.awb_code }),
      )
    ).json().payload;
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [first.awb_code] })).json().results[0].cancelled).toBe(true);
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: first.return_id, status: 'return_cancelled' },
    });
    const second = await post(
      ctx,
      m.apiKey,
      REVERSE_ORCHESTRATE,
      detailedReturnBody(m.warehouseId, { forward_awb: forward.awb_code }),
    );
    expect(second.statusCode).toBe(200);
    expect((await listed(ctx, m.apiKey, forward.shipment_id)).attributes).toMatchObject({
      return: { return_id: second.json().payload.return_id, status: 'return_pickup_scheduled' },
    });
  });
});
