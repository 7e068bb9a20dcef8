import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { expectThrottledThenBookedOnce, ratesWith, SHADOWFAX } from '../../test/kit/couriers.js';
import { CANCEL, ORCHESTRATE, post, REVERSE_ORCHESTRATE, V1 } from '../../test/kit/http.js';
import { labelPath, pdfText } from '../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody } from '../../test/kit/orders.js';
import { bookReturn, IMAGE, returnBody } from '../../test/kit/returns.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import {
  SHADOWFAX_TOKEN,
  type ShadowfaxSimulator,
  startShadowfaxSimulator,
} from '../demo/simulators/shadowfax-simulator.js';

const CREATE = '/api/v3/clients/orders/';
const REVERSE = '/api/v3/clients/requests';
const CANCEL_PATH = '/api/v3/clients/orders/cancel/';
const MARK_CANCEL = '/api/v2/clients/requests/mark_cancel';
const BULK = '/api/v4/clients/bulk_track/';
const UPDATE = '/api/v3/clients/order_update/';
const SERVICEABILITY = '/api/v1/clients/serviceability/';
const TRACK = (awb: string) => `/api/v4/clients/orders/${awb}/track/`;
/** COURIER_TIMEOUT_MS here: one case waits out a simulated time-out; the simulator answers the rest within milliseconds. */
const TIMEOUT_MS = 500;

async function start(sim: ShadowfaxSimulator, token = SHADOWFAX_TOKEN) {
  const ctx = await createTestApp({
    rates: ratesWith({ [SHADOWFAX]: 'shadowfax' }),
    settings: {
      couriers: {
        shadowfax: { token, baseUrl: sim.baseUrl, orderType: 'warehouse' },
        timeoutMs: TIMEOUT_MS,
        pollSeconds: 60,
      },
    },
  });
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey);
  return { ctx, apiKey, warehouseId };
}

async function status(ctx: TestContext, apiKey: string, awb: string) {
  const response = await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] });
  return response.json().result[awb].tracking_data;
}

const shipmentTotal = async (ctx: TestContext, apiKey: string) =>
  (await post(ctx, apiKey, `${V1}/shipments`, {})).json().meta.total as number;
const body = (call: { body: string } | undefined) => JSON.parse(call!.body) as Record<string, unknown>;

describe('shadowfax connector against a local simulator of its API', () => {
  let sim: ShadowfaxSimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    sim = await startShadowfaxSimulator();
    ({ ctx, apiKey, warehouseId } = await start(sim));
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('books with POST /api/v3/clients/orders/, our shipment id as client_order_id, and labels the parcel with its AWB', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const [call] = sim.callsTo(CREATE);
    expect(call).toMatchObject({ method: 'POST', authorization: `Token ${SHADOWFAX_TOKEN}` });
    expect(payload).toMatchObject({
      courier_company_id: SHADOWFAX,
      courier_name: 'Shadowfax Standard',
      awb_code: [...sim.orders.keys()][0],
      routing_code: 'BOM/ANR',
      awb_generated: 1,
    });
    const warehouse = {
      name: expect.any(String),
      contact: expect.stringMatching(/^\d{10}$/),
      address_line_1: expect.any(String),
      city: expect.any(String),
      state: expect.any(String),
      pincode: expect.any(Number),
      unique_code: 'Okhla Fulfilment Centre',
    };
    expect(body(call)).toEqual({
      order_type: 'warehouse',
      order_details: {
        client_order_id: payload.shipment_id,
        actual_weight: 500,
        volumetric_weight: 200,
        product_value: 998,
        payment_mode: 'Prepaid',
        cod_amount: 0,
        total_amount: 998,
      },
      customer_details: {
        name: 'Asha Menon',
        contact: '9123456780',
        address_line_1: '12 Marine Drive',
        city: 'Mumbai',
        state: 'Maharashtra',
        pincode: 400001,
      },
      pickup_details: warehouse,
      rto_details: warehouse,
      product_details: [
        { sku_name: 'Cotton Kurta', price: 998, invoice_no: expect.any(String), additional_details: { quantity: 2 } },
      ],
    });
    const label = await ctx.app.inject({ method: 'GET', url: labelPath(payload.label_url!) });
    expect(label.statusCode).toBe(200);
    const words = await pdfText(label.rawPayload);
    expect(words).toContain(`AWB ${payload.awb_code}`);
    expect(words).not.toContain('NOT A COURIER LABEL');
  });

  it('sends COD with its amount', async () => {
    await orchestrate(ctx, apiKey, codOrderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(body(sim.callsTo(CREATE).at(-1)).order_details).toMatchObject({ payment_mode: 'COD', cod_amount: 998 });
  });

  it("sends the order's e-way bill number as order_details.eway_bill (docs/paperwork.md), and none when it has none", async () => {
    const details = (ewaybill: Record<string, unknown>, shipmentId: string | undefined) => ({
      client_order_id: shipmentId,
      actual_weight: 500,
      volumetric_weight: 200,
      product_value: 998,
      payment_mode: 'Prepaid',
      cod_amount: 0,
      total_amount: 998,
      ...ewaybill,
    });
    const withBill = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, { carrier_id: SHADOWFAX, ewaybill_no: 331009876543, ewaybill_date: '2026-11-20' }),
    );
    expect(body(sim.callsTo(CREATE).at(-1)).order_details).toEqual(
      details({ eway_bill: '331009876543' }, withBill.shipment_id),
    );
    expect(sim.orders.get(withBill.awb_code!)).toMatchObject({ awb: withBill.awb_code });
    const plain = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(body(sim.callsTo(CREATE).at(-1)).order_details).toEqual(details({}, plain.shipment_id));
  });

  it('books a QC return as a reverse pickup with qc_required and the rules the rider checks', async () => {
    const booked = await bookReturn(ctx, apiKey, warehouseId, { carrierId: SHADOWFAX, qc: true, sku: 'KURTA-QC' });
    expect(booked).toMatchObject({
      courier_company_id: SHADOWFAX,
      qc_enabled: 1,
      awb_code: expect.stringMatching(/^R\d+SFX$/),
    });
    expect(body(sim.callsTo(REVERSE).at(-1))).toEqual({
      client_order_number: booked.shipment_id,
      total_amount: 499,
      price: 499,
      address_attributes: {
        name: 'Asha Menon',
        phone_number: '9123456780',
        address_line: '12 Marine Drive',
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
        pincode: 400001,
      },
      seller_attributes: {
        name: 'Okhla Fulfilment Centre',
        phone: expect.stringMatching(/^\d{10}$/),
        address_line: expect.any(String),
        city: expect.any(String),
        state: expect.any(String),
        pincode: expect.any(Number),
      },
      skus_attributes: [
        {
          name: 'Cotton Kurta',
          client_sku_id: 'KURTA-QC',
          price: 499,
          quantity: 1,
          return_reason: 'Customer return',
          qc_required: true,
          image_url: IMAGE,
          qc_rules: [
            { question: 'Does the product match the image?', value: IMAGE, is_mandatory: true },
            { question: 'Is the product the one named?', value: 'Cotton Kurta', is_mandatory: true },
          ],
        },
      ],
    });
  });

  it('books a return without QC with qc_required false and no rules', async () => {
    const booked = await bookReturn(ctx, apiKey, warehouseId, { carrierId: SHADOWFAX, sku: 'KURTA-PLAIN' });
    expect(booked).toMatchObject({ courier_company_id: SHADOWFAX, qc_enabled: 0 });
    expect(body(sim.callsTo(REVERSE).at(-1)).skus_attributes).toEqual([
      {
        name: 'Cotton Kurta',
        client_sku_id: 'KURTA-PLAIN',
        price: 499,
        quantity: 1,
        return_reason: 'Customer return',
        qc_required: false,
      },
    ]);
  });

  it('maps Shadowfax’s refusals to 422 with its words, and its failures to 502/503, writing nothing', async () => {
    const total = await shipmentTotal(ctx, apiKey);
    const creates = sim.callsTo(CREATE).length;
    const refused = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      orderBody(warehouseId, {
        carrier_id: SHADOWFAX,
        billing_city: 'Shillong',
        billing_pincode: '793001',
        billing_state: 'Meghalaya',
      }),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Shadowfax refused: pincode 793001 is not serviceable for delivery');
    expect(refused.json().details).toEqual([
      { field: 'billing_pincode', message: 'Shadowfax refused: pincode 793001 is not serviceable for delivery' },
    ]);
    // Asked before the create, which is then not sent.
    expect(sim.callsTo(SERVICEABILITY).at(-1)).toMatchObject({
      method: 'GET',
      authorization: `Token ${SHADOWFAX_TOKEN}`,
    });
    expect(Object.fromEntries(sim.callsTo(SERVICEABILITY).at(-1)!.query)).toEqual({
      service: 'customer_delivery',
      pincodes: '793001',
      page: '1',
      count: '1',
    });
    expect(sim.callsTo(CREATE).length).toBe(creates);

    const cases = [
      ['500', 502, 'Shadowfax could not be reached (HTTP 500); nothing was changed, try again'],
      [
        'malformed',
        502,
        'Shadowfax could not be reached (its answer could not be read); nothing was changed, try again',
      ],
      [
        'timeout',
        502,
        `Shadowfax could not be reached (no answer within ${TIMEOUT_MS} ms); nothing was changed, try again`,
      ],
      ['429', 503, 'Shadowfax could not be reached (it is limiting our requests); nothing was changed, try again'],
    ] as const;
    for (const [failure, code, message] of cases) {
      sim.failNext(CREATE, failure);
      const creates = sim.callsTo(CREATE).length;
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
      expect(response.statusCode).toBe(code);
      expect(response.json().message).toBe(message);
      if (failure === '429') expect(response.headers['retry-after']).toBe('7');
      // Sent once: Shadowfax has no look-up by client_order_id, so a second create could book twice.
      expect(sim.callsTo(CREATE).length - creates).toBe(1);
    }
    expect(await shipmentTotal(ctx, apiKey)).toBe(total);
    // The 429 paused calls for its Retry-After.
    ctx.clock.advance(8000);
    expect((await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }))).statusCode).toBe(
      200,
    );
  });

  it('asks serviceability for a return’s pickup from the customer, and books nothing where Shadowfax cannot collect', async () => {
    const reverses = sim.callsTo(REVERSE).length;
    const total = await shipmentTotal(ctx, apiKey);
    const body = {
      ...returnBody(warehouseId, { carrierId: SHADOWFAX }),
      pickup_city: 'Shillong',
      pickup_state: 'Meghalaya',
      pickup_pincode: '793001',
    };
    const refused = await post(ctx, apiKey, REVERSE_ORCHESTRATE, body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details).toEqual([
      { field: 'pickup_pincode', message: 'Shadowfax refused: pincode 793001 is not serviceable for a pickup' },
    ]);
    expect(Object.fromEntries(sim.callsTo(SERVICEABILITY).at(-1)!.query)).toMatchObject({
      service: 'customer_pickup',
      pincodes: '793001',
    });
    expect(sim.callsTo(REVERSE).length).toBe(reverses);
    expect(await shipmentTotal(ctx, apiKey)).toBe(total);
  });

  it('retries a failed serviceability read once, and answers 502 without booking when it fails again or cannot be read', async () => {
    const creates = sim.callsTo(CREATE).length;
    const total = await shipmentTotal(ctx, apiKey);
    sim.failNext(SERVICEABILITY, '500');
    const asks = sim.callsTo(SERVICEABILITY).length;
    const retried = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(sim.callsTo(SERVICEABILITY).length - asks).toBe(2);
    expect(sim.callsTo(CREATE).length - creates).toBe(1);
    for (const [failure, message] of [
      ['500', 'Shadowfax could not be reached (HTTP 500); nothing was changed, try again'],
      ['malformed', 'Shadowfax could not be reached (its answer could not be read); nothing was changed, try again'],
    ] as const) {
      sim.failNext(SERVICEABILITY, failure, 2);
      const failed = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toBe(message);
    }
    expect(sim.callsTo(CREATE).length - creates).toBe(1);
    expect(await shipmentTotal(ctx, apiKey)).toBe(total + 1);
  });

  it('answers 422 with the fields Shadowfax named when it refuses a COD amount', async () => {
    const response = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      codOrderBody(warehouseId, {
        carrier_id: SHADOWFAX,
        sub_total: 45_000,
        cod_collectible: 45_000,
        order_items: [{ name: 'Sofa', sku: 'SOFA', units: 1, selling_price: 45_000, discount: 0 }],
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'Shadowfax refused: order_details.cod_amount: COD amount cannot be more than 40000.',
    );
  });

  it('answers the same AWB to a retried booking with the same Idempotency-Key, without a second create', async () => {
    const order = orderBody(warehouseId, { carrier_id: SHADOWFAX });
    const headers = { 'idempotency-key': `shadowfax-${Date.now()}` };
    const first = await post(ctx, apiKey, ORCHESTRATE, order, headers);
    const creates = sim.callsTo(CREATE).length;
    const again = await post(ctx, apiKey, ORCHESTRATE, order, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().payload.awb_code).toBe(first.json().payload.awb_code);
    expect(sim.callsTo(CREATE).length).toBe(creates);
    expect(new Set([...sim.orders.keys()]).size).toBe(sim.orders.size);
  });

  it('cancels with POST /api/v3/clients/orders/cancel/, retries a 5xx once, and says why when Shadowfax will not', async () => {
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    sim.scan(second.awb_code!, {
      status_id: 'delivered',
      status: 'Delivered',
      remarks: 'Item Delivered at Mumbai',
      created: '2026-11-20T14:00:00+05:30',
    });
    sim.failNext(CANCEL_PATH, '500');
    const response = await post(ctx, apiKey, CANCEL, { awbs: [first.awb_code, second.awb_code] });
    expect(response.json().results).toEqual([
      { awb: first.awb_code, cancelled: true, message: 'Shipment cancelled' },
      {
        awb: second.awb_code,
        cancelled: false,
        // Shadowfax's HTTP 400 once delivered (index id 54543910210).
        message: 'Shadowfax refused: could not cancel it: Order cannot be cancelled. Invalid state.',
      },
    ]);
    expect(body(sim.callsTo(CANCEL_PATH)[0])).toEqual({
      request_id: first.awb_code,
      cancel_remarks: 'Cancelled by the merchant',
    });
    expect(sim.callsTo(CANCEL_PATH).filter((c) => body(c).request_id === first.awb_code)).toHaveLength(2);
    expect(sim.orders.get(first.awb_code!)!.cancelled).toBe(true);
  });

  it('answers a cancellation Shadowfax queues while the rider is out (304) as queued, not refused', async () => {
    const moving = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    sim.scan(moving.awb_code!, {
      status_id: 'ofp',
      status: 'Out For Pickup',
      remarks: 'Item Out For Pickup at Okhla',
      created: '2026-11-20T14:00:00+05:30',
    });
    const response = await post(ctx, apiKey, CANCEL, { awbs: [moving.awb_code] });
    expect(response.json().results).toEqual([
      {
        awb: moving.awb_code,
        cancelled: false,
        message:
          'Shadowfax Standard has queued the cancellation (Cancellation queued: the order will be cancelled at its next scan): the parcel is moving, and the shipment is cancelled when its tracking confirms it',
      },
    ]);
    expect(sim.orders.get(moving.awb_code!)).toMatchObject({ cancelled: true, cancelQueued: true });
  });

  it("calls a cancelled return's pickup off at mark_cancel, and keeps a collected one as it is", async () => {
    const booked = await bookReturn(ctx, apiKey, warehouseId, { carrierId: SHADOWFAX, sku: 'KURTA-CANCEL' });
    const collected = await bookReturn(ctx, apiKey, warehouseId, { carrierId: SHADOWFAX, sku: 'KURTA-KEPT' });
    sim.state(collected.awb_code!, { state: 'Picked', comment: 'Picked', created_at: '2026-11-20T14:00:00+05:30' });
    const response = await post(ctx, apiKey, CANCEL, { awbs: [booked.awb_code, collected.awb_code] });
    expect(response.json().results).toEqual([
      { awb: booked.awb_code, cancelled: true, message: 'Return cancelled' },
      {
        awb: collected.awb_code,
        cancelled: false,
        message: 'Shadowfax refused: could not cancel the pickup: Request cannot be cancelled once picked up',
      },
    ]);
    const calls = sim.callsTo(MARK_CANCEL).map(body);
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(
      expect.arrayContaining([
        { request_id: booked.awb_code, cancel_remarks: 'Cancelled By Customer' },
        { request_id: collected.awb_code, cancel_remarks: 'Cancelled By Customer' },
      ]),
    );
    expect(sim.callsTo(CANCEL_PATH).some((c) => body(c).request_id === booked.awb_code)).toBe(false);
  });

  it('pulls tracking in bulk, maps every status, hands reattempts over as reopen_ndr, and brings a warehouse RTO to rto_delivered', async () => {
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const booked = ctx.clock.now().getTime();
    const at = (minutes: number) => new Date(booked + minutes * 60_000).toISOString();
    // The warehouse lifecycle (index id 54543910210): handed over at the warehouse, bagged, delivered.
    sim.scan(
      delivered.awb_code!,
      {
        status_id: 'received_from_client_warehouse',
        status: 'Received from Client Warehouse',
        remarks: 'Item Received from Client Warehouse at Okhla',
        location: 'Okhla',
        created: at(10),
      },
      { status_id: 'not_a_status', status: 'Informational', remarks: 'Ignored', created: at(11) },
      {
        status_id: 'bag_in_transit',
        status: 'Bag In Transit',
        remarks: 'Bag in transit from Okhla',
        location: 'Okhla',
        created: at(12),
      },
      {
        status_id: 'recd_at_fwd_hub',
        status: 'Received At Forward Hub',
        remarks: 'Item Received at hub at Mumbai',
        location: 'Mumbai',
        created: at(15),
      },
      {
        status_id: 'ofd',
        status: 'Out For Delivery',
        remarks: 'Item OFD at Mumbai',
        location: 'Mumbai',
        created: at(20),
      },
      {
        status_id: 'delivered',
        status: 'Delivered',
        remarks: 'Item Delivered at Mumbai',
        location: 'Mumbai',
        created: at(25),
      },
    );
    sim.scan(
      failed.awb_code!,
      {
        status_id: 'received_from_client_warehouse',
        status: 'Received from Client Warehouse',
        remarks: 'Item Received from Client Warehouse at Okhla',
        created: at(10),
      },
      { status_id: 'ofd', status: 'Out For Delivery', remarks: 'Item OFD at Mumbai', created: at(20) },
      { status_id: 'nc', status: 'Not Contactable', remarks: 'Customer phone switched off', created: at(26) },
    );
    ctx.clock.advance(60 * 60_000);
    const bulk = sim.callsTo(BULK).length;
    await ctx.app.courierPoller.runOnce();
    expect(sim.callsTo(BULK).length - bulk).toBe(1);
    expect(JSON.parse(sim.callsTo(BULK).at(-1)!.body).awb_numbers).toEqual(
      expect.arrayContaining([delivered.awb_code, failed.awb_code]),
    );

    const done = await status(ctx, apiKey, delivered.awb_code!);
    expect(done).toMatchObject({ shipment_status: 'delivered', shipment_sub_status: 'delivered' });
    expect(done.shipment_track_activities).toHaveLength(5);
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'ndr_raised',
      shipment_sub_status: 'contact_unreachable',
    });

    const reattempt = await post(ctx, apiKey, `${V1}/reattempt`, {
      awb: failed.awb_code,
      updated_phone_number: '9876543210',
      updated_address: { address_line: 'Flat 4, 12 Marine Drive', landmark: 'Opposite the Oval' },
      comments: 'Call before coming',
    });
    expect(reattempt.statusCode, reattempt.body).toBe(200);
    ctx.clock.advance(10 * 60_000);
    await ctx.app.courierPoller.runOnce();
    // order_update as documented (index ids 54543910210, 17374548919): the status forced to
    // reopen_ndr, with the delivery details that changed; the NDR route's address never dropped.
    expect(sim.updates).toEqual([
      {
        awb_number: failed.awb_code,
        status_update: { status: 'reopen_ndr' },
        delivery_details: { customer_address: 'Flat 4, 12 Marine Drive, Opposite the Oval', contact: '9876543210' },
      },
    ]);
    expect(sim.callsTo(UPDATE).at(-1)!.authorization).toBe(`Token ${SHADOWFAX_TOKEN}`);
    const [action] = (await status(ctx, apiKey, failed.awb_code!)).ndr_actions;
    expect(action).toMatchObject({ action: 'reattempt', acknowledged_at: ctx.clock.now().toISOString() });

    sim.scan(failed.awb_code!, {
      status_id: 'reopen_ndr',
      status: 'Require Delivery - NDR',
      remarks: 'Require Delivery As Per NDR Instructions',
      created: at(75),
    });
    ctx.clock.advance(20 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'in_transit',
      shipment_sub_status: 'reached_destination_hub',
    });

    expect((await post(ctx, apiKey, `${V1}/initiate-rto`, { awb: failed.awb_code })).statusCode).toBe(200);
    await ctx.app.courierPoller.runOnce();
    expect(body(sim.callsTo(CANCEL_PATH).at(-1))).toEqual({
      request_id: failed.awb_code,
      cancel_remarks: 'Return to seller requested by the merchant',
    });
    // Cancelled at rest after pickup: Shadowfax starts the return to origin (`rto`, the simulator a
    // minute after the last scan); then the warehouse way back to "Returned to Client" (rto_d).
    expect(sim.orders.get(failed.awb_code!)!.scans.at(-1)!.status_id).toBe('rto');
    sim.scan(
      failed.awb_code!,
      {
        status_id: 'rto_in_process',
        status: 'In RTO/RTS Process',
        remarks: 'Item RTO In Progress at Mumbai',
        created: at(90),
      },
      {
        status_id: 'rto_d',
        status: 'Returned to Client',
        remarks: 'Item Return To Origin Delivered at Okhla',
        created: at(120),
      },
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, failed.awb_code!)).toMatchObject({
      shipment_status: 'rto_delivered',
      shipment_sub_status: 'rto_delivered',
    });
  });

  it('pulls a return at GET /api/v4/clients/requests/{awb}, reading its states as return statuses', async () => {
    const booked = await bookReturn(ctx, apiKey, warehouseId, { carrierId: SHADOWFAX, sku: 'KURTA-PULL' });
    const awb = booked.awb_code!;
    const start = ctx.clock.now().getTime();
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    sim.state(
      awb,
      {
        state: 'Out For Pickup',
        comment: 'Item Out For Pickup at Mumbai',
        current_location: 'Mumbai',
        created_at: at(10),
      },
      { state: 'Received', comment: 'Received at hub Successfully', current_location: 'Mumbai', created_at: at(30) },
    );
    ctx.clock.advance(60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(sim.callsTo(`/api/v4/clients/requests/${awb}`)).toMatchObject([
      { method: 'GET', authorization: `Token ${SHADOWFAX_TOKEN}` },
    ]);
    expect(await status(ctx, apiKey, awb)).toMatchObject({ shipment_status: 'return_in_transit' });
    sim.state(
      awb,
      {
        state: 'Return Shipment Out for Delivery',
        comment: 'Item out for delivery to seller at Okhla',
        current_location: 'Okhla',
        created_at: at(70),
      },
      {
        state: 'Returned To Client',
        comment: 'Item Return To Seller Delivered at Okhla',
        current_location: 'Okhla',
        created_at: at(80),
      },
    );
    ctx.clock.advance(24 * 60 * 60_000);
    await ctx.app.courierPoller.runOnce();
    expect(await status(ctx, apiKey, awb)).toMatchObject({
      shipment_status: 'return_delivered',
      dakiya_status: 'return_delivered',
    });
  });

  it('answers 503 with Retry-After once Shadowfax throttles our token, calls it no more until then, and books the retried order once', async () => {
    sim.limitRate({ requests: 3, windowMs: 60_000, now: () => ctx.clock.now().getTime() });
    try {
      await expectThrottledThenBookedOnce(ctx, apiKey, {
        name: 'Shadowfax',
        order: () => orderBody(warehouseId, { carrier_id: SHADOWFAX }),
        requests: () => sim.requests.length,
        awbsAtCourier: (shipmentId) =>
          [...sim.orders.values()]
            .filter(
              (o) => (o.body.order_details as { client_order_id?: string } | undefined)?.client_order_id === shipmentId,
            )
            .map((o) => o.awb),
        onRefused: () =>
          expect(sim.requests.at(-1)!.path).toMatch(/^\/api\/(v1\/clients\/serviceability|v3\/clients\/orders)\/$/),
      });
    } finally {
      sim.limitRate();
    }
  });

  it('keeps other accounts’ Shadowfax shipments out of an account’s tracking', async () => {
    const mine = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const other = await ctx.createAccount();
    const response = await post(ctx, other.apiKey, `${V1}/order-tracking`, { awbs: [mine.awb_code] });
    expect(response.json().result[mine.awb_code!]).toEqual({
      tracking_data: { track_status: 0, error: `AWB ${mine.awb_code} not found` },
    });
  });

  it('shows the connector’s health on the courier connections view', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/courier-connections`,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const row = (response.json().data as { carrier_id: string }[]).find((r) => r.carrier_id === SHADOWFAX);
    expect(row).toMatchObject({
      connector: 'shadowfax',
      credentials: 'configured',
      test_bookings: false,
      health: {
        last_success_at: expect.any(String),
        last_error_at: expect.any(String),
        last_error: expect.any(String),
        token_expires_at: null,
      },
    });
  });
});

describe('shadowfax connector polling a single shipment', () => {
  it('asks GET /api/v4/clients/orders/{awb}/track/ for the one AWB due, and leaves it as it was once Shadowfax no longer knows it', async () => {
    const sim = await startShadowfaxSimulator();
    const { ctx, apiKey, warehouseId } = await start(sim);
    try {
      const { awb_code: awb } = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
      sim.scan(awb!, {
        status_id: 'picked',
        status: 'Picked',
        remarks: 'Picked up',
        location: 'Okhla',
        created: '2026-11-20T13:00:00+05:30',
      });
      ctx.clock.advance(60 * 60_000);
      await ctx.app.courierPoller.runOnce();
      expect(sim.callsTo(BULK)).toEqual([]);
      expect(sim.callsTo(TRACK(awb!))).toMatchObject([{ method: 'GET', authorization: `Token ${SHADOWFAX_TOKEN}` }]);
      const picked = await status(ctx, apiKey, awb!);
      expect(picked).toMatchObject({ shipment_status: 'in_transit', shipment_sub_status: 'picked_up' });
      expect(picked.shipment_track_activities).toMatchObject([
        { date: '2026-11-20 13:00:00', activity: 'PICKED UP', location: 'Okhla' },
      ]);

      // An AWB Shadowfax answers 404 for is left out of the round, not an error: nothing changes.
      sim.orders.delete(awb!);
      ctx.clock.advance(24 * 60 * 60_000);
      await ctx.app.courierPoller.runOnce();
      expect(sim.callsTo(TRACK(awb!))).toHaveLength(2);
      // The label link is signed afresh on every read; the rest stands.
      expect(await status(ctx, apiKey, awb!)).toEqual({ ...picked, label_url: expect.any(String) });
    } finally {
      await ctx.close();
      await sim.close();
    }
  });
});

describe('shadowfax connector with a wrong token', () => {
  it('answers 502 naming the setting to check, and never the token', async () => {
    const sim = await startShadowfaxSimulator();
    const { ctx, apiKey, warehouseId } = await start(sim, 'sfx-not-the-key');
    try {
      const response = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        'Shadowfax could not be reached (it refused our credentials (HTTP 401); the operator must check SHADOWFAX_TOKEN); nothing was changed, try again',
      );
      expect(response.body).not.toContain('sfx-not-the-key');
      expect(sim.orders.size).toBe(0);
    } finally {
      await ctx.close();
      await sim.close();
    }
  });
});
