import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from './app.js';
import { UUID, V1 } from './kit/http.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';

/**
 * An integration written for Velocity, pointed at Dakiya: the requests are the ones VELOCITY.md
 * documents, with Velocity's own habits (numbers as strings, strings as numbers, bare tokens,
 * fields of its own), and only ids substituted. Every field of Velocity's documented answers is
 * asserted, so a client parsing them finds what it expects.
 */

const USERNAME = '+919866340090';
const PASSWORD = 'velocity-pass-1';
/** The test clock's start, 2026-11-20T06:30:00Z, is 12:00 in India. */
const NOW_IN_INDIA = '2026-11-20T12:00:00.000+05:30';
const VELOCITY_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TWO_DECIMALS = /^\d+\.\d{2}$/;

let ctx: TestContext;
/** The 24-hour token, sent bare as Velocity's samples do. */
let token: string;
let warehouseId: string;

const send = (method: 'POST' | 'GET', path: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `${V1}${path}`,
    headers: { authorization: token },
    ...(payload !== undefined && { payload: payload as object }),
  });

async function ok(method: 'POST' | 'GET', path: string, payload?: unknown, status = 200) {
  const response = await send(method, path, payload);
  expect(response.statusCode, response.body).toBe(status);
  return response;
}

/** Velocity's forward order body (VELOCITY.md, "Forward order with courier"), with its loose types. */
function forwardOrder(orderId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: orderId,
    order_date: '2026-11-20 11:45',
    channel_id: '27202',
    carrier_id: '',
    store_name: 'acme-apparel',
    billing_customer_name: 'Arun',
    billing_last_name: 'Nayak',
    billing_address: '12 Marine Drive',
    billing_address_2: 'Near Churchgate',
    billing_city: 'Mumbai',
    billing_pincode: '400001',
    billing_state: 'Maharashtra',
    billing_country: 'India',
    billing_email: 'arun@example.com',
    billing_phone: '9123456780',
    shipping_is_billing: false,
    shipping_customer_name: 'Arun',
    shipping_last_name: 'Nayak',
    shipping_address: '4 Hill Road',
    shipping_address_2: '',
    shipping_city: 'Mumbai',
    shipping_pincode: 400050,
    shipping_state: 'Maharashtra',
    shipping_country: 'India',
    shipping_email: '',
    shipping_phone: 8888888888,
    print_label: true,
    order_items: [
      { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: '499', discount: '', tax: '5', hsn: 6211 },
    ],
    payment_method: 'COD',
    sub_total: 998,
    total_discount: '0',
    cod_collectible: '998',
    length: 10,
    breadth: 10,
    height: '10',
    weight: '0.5',
    pickup_location: 'okhla fulfilment centre',
    warehouse_id: warehouseId,
    vendor_details: {
      email: 'seller@example.com',
      phone: '9811122233',
      name: 'Kurta House',
      address: '7 Karol Bagh',
      address_2: '',
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
      pin_code: '110005',
      pickup_location: 'Karol Bagh',
    },
    // An integrator's own field: ignored, and said so.
    idempotency_key: `${orderId}-key`,
    ...overrides,
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.createAccount('Acme Retail', { username: USERNAME, password: PASSWORD });
  const login = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/auth-token`,
    payload: { username: '9866340090', password: PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  token = login.json().token;
  const store = await ok('POST', '/client-stores', { store_name: 'Acme-Apparel', brand_name: 'Acme Apparel' }, 201);
  expect(store.json().data.store_name).toBe('Acme-Apparel');
});

afterAll(async () => {
  await ctx.close();
});

describe('an integration written for Velocity', () => {
  it('logs in with the mobile number, and gets {token, expires_at} in India time', async () => {
    for (const username of [USERNAME, '919866340090', '09866340090']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${V1}/auth-token`,
        payload: { username, password: PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.token).toMatch(/^dkt_/);
      expect(body.expires_at).toBe('2026-11-21T12:00:00');
    }
  });

  it('creates its warehouse as Velocity documents it (POST /warehouse), GSTIN included', async () => {
    const response = await ok(
      'POST',
      '/warehouse',
      {
        name: 'Okhla Fulfilment Centre',
        phone_number: 9876543210,
        email: 'ops@acme.example',
        contact_person: 'Ravi Kumar',
        gst_no: '07AAACA1234A1ZM',
        address_attributes: {
          street_address: 'Plot 14, Okhla Phase III',
          zip: 110001,
          city: 'New Delhi',
          state: 'Delhi',
          country: 'India',
        },
      },
      201,
    );
    expect(response.json()).toEqual({ status: 'SUCCESS', payload: { warehouse_id: expect.stringMatching(UUID) } });
    warehouseId = response.json().payload.warehouse_id;
    const stored = (await ok('GET', `/warehouses/${warehouseId}`)).json().data;
    expect(stored.gst_no).toBe('07AAACA1234A1ZM');
    expect(stored.phone_number).toBe('9876543210');
    expect(stored.address_attributes.zip).toBe('110001');
  });

  it('asks serviceability with a pincode as a number (POST /serviceability)', async () => {
    const response = await ok('POST', '/serviceability', {
      from: '110001',
      to: 400050,
      payment_mode: 'cod',
      shipment_type: 'forward',
    });
    const body = response.json();
    expect(body.status).toBe('SUCCESS');
    expect(body.result.zone).toBe('zone_c');
    expect(body.result.serviceability_results.length).toBeGreaterThan(0);
    for (const entry of body.result.serviceability_results) {
      expect(entry).toEqual({ carrier_id: expect.any(String), carrier_name: expect.any(String) });
    }
  });

  it('books with POST /forward-order-orchestration and reads every field of Velocity answer', async () => {
    const quote = (
      await ok('POST', '/rates', {
        journey_type: 'forward',
        origin_pincode: '110001',
        destination_pincode: '400050',
        dead_weight: 500,
        length: 10,
        width: 10,
        height: 10,
        payment_method: 'cod',
        shipment_value: 998,
      })
    ).json().result.serviceable_couriers[0];

    const response = await ok('POST', '/forward-order-orchestration', forwardOrder('VEL-1001'));
    expect(response.headers['dakiya-ignored-fields']).toBe('idempotency_key');
    const body = response.json();
    expect(body.status).toBe(1);
    const p = body.payload;
    expect(p).toMatchObject({
      pickup_location_added: 1,
      order_created: 1,
      awb_generated: 1,
      label_generated: 1,
      pickup_generated: 1,
      manifest_generated: 0,
      pickup_scheduled_date: quote.expected_delivery.pickup,
      order_id: expect.stringMatching(UUID),
      shipment_id: expect.stringMatching(UUID),
      awb_code: expect.stringMatching(/^[A-Z]{3}\d{10}$/),
      courier_company_id: quote.carrier_id,
      courier_name: quote.carrier_name,
      assigned_date_time: { date: NOW_IN_INDIA, timezone_type: 3, timezone: 'Asia/Kolkata' },
      applied_weight: 0.5,
      cod: 1,
      label_url: expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/public/v1/labels/${p.shipment_id}\\?`)),
      manifest_url: null,
      routing_code: null,
      rto_routing_code: null,
      pickup_token_number: null,
      charges: {
        frwd_charges: {
          shipping_charges: quote.charges.forward_freight_charges.toFixed(2),
          cod_charges: quote.charges.cod_charges.toFixed(2),
          dead_weight_billing: true,
        },
        rto_charges: { rto_charges: quote.charges.rto_charges.toFixed(2) },
      },
    });
    expect(p.pickup_scheduled_date).toMatch(DATE);
    expect(p.pickup_booked_date).toBe('2026-11-20 12:00:00');
    expect(p.charges.frwd_charges.shipping_charges).toMatch(TWO_DECIMALS);
    // Dakiya's own fields stay beside Velocity's.
    expect(p).toMatchObject({
      channel_order_id: 'VEL-1001',
      store_name: 'Acme-Apparel',
      status: 'pending',
      zone: 'zone_c',
    });
    expect(p.expected_delivery_date).toBe(quote.expected_delivery.delivery);
  });

  it('finds the warehouse by pickup_location alone, and books with the split flow and carrier_id ""', async () => {
    const created = await ok(
      'POST',
      '/forward-order',
      forwardOrder('VEL-1002', { warehouse_id: undefined, carrier_id: undefined }),
    );
    const order = created.json();
    expect(order.status).toBe(1);
    expect(order.payload).toMatchObject({
      pickup_location_added: 1,
      order_created: 1,
      awb_generated: 0,
      pickup_generated: 0,
      shipment_id: expect.stringMatching(UUID),
      order_id: expect.stringMatching(UUID),
      assigned_date_time: { date: NOW_IN_INDIA, timezone_type: 3, timezone: 'Asia/Kolkata' },
      cod: 1,
      label_url: null,
      manifest_url: null,
      routing_code: null,
      rto_routing_code: null,
      pickup_token_number: null,
      pickup_scheduled_date: null,
    });

    const assigned = await ok('POST', '/forward-order-shipment', {
      shipment_id: order.payload.shipment_id,
      carrier_id: '',
    });
    expect(assigned.json().payload).toMatchObject({
      shipment_id: order.payload.shipment_id,
      awb_generated: 1,
      label_generated: 1,
      pickup_generated: 1,
      manifest_generated: 0,
      awb_code: expect.stringMatching(/^[A-Z]{3}\d{10}$/),
      pickup_scheduled_date: expect.stringMatching(DATE),
      charges: {
        frwd_charges: { dead_weight_billing: true },
        rto_charges: { rto_charges: expect.stringMatching(TWO_DECIMALS) },
      },
    });
  });

  it('cancels with POST /cancel-order and reads the top-level message', async () => {
    const booked = (await ok('POST', '/forward-order-orchestration', forwardOrder('VEL-1003'))).json().payload;
    const response = await ok('POST', '/cancel-order', { awbs: [booked.awb_code, 'NOSUCHAWB'] });
    expect(response.json()).toEqual({
      message: '1 of 2 shipments cancelled',
      results: [
        { awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: 'NOSUCHAWB', cancelled: false, message: 'AWB not found' },
      ],
    });
  });

  it('tracks with POST /order-tracking: Velocity activity labels, India-time dates, every shipment_track field', async () => {
    const booked = (await ok('POST', '/forward-order-orchestration', forwardOrder('VEL-1004'))).json().payload;
    const courier = await issueCarrierToken(ctx, booked.courier_company_id);
    // The scans happen later that day; the courier reports them once they have.
    ctx.clock.set('2026-11-20T13:00:00Z');
    const results = await sendEvents(ctx, courier, [
      {
        awb: booked.awb_code,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T10:50:31Z',
        location: 'New Delhi',
      },
      { awb: booked.awb_code, status: 'out_for_delivery', event_time: '2026-11-20T12:08:18Z', location: 'Mumbai' },
      { awb: booked.awb_code, status: 'delivered', event_time: '2026-11-20T12:09:29Z', location: 'Mumbai' },
    ]);
    expect(results.every((r) => r.accepted)).toBe(true);

    const response = await ok('POST', '/order-tracking', { awbs: [booked.awb_code] });
    const data = response.json().result[booked.awb_code].tracking_data;
    expect(data.shipment_status).toBe('delivered');
    expect(data).toHaveProperty('track_status');
    expect(data).toHaveProperty('track_url');
    expect(data.shipment_track).toEqual([
      expect.objectContaining({
        id: expect.any(String),
        awb_code: booked.awb_code,
        courier_company_id: booked.courier_company_id,
        shipment_id: booked.shipment_id,
        order_id: expect.any(String),
        pickup_date: '2026-11-20 16:20:31',
        delivered_date: '2026-11-20 17:39:29',
        weight: 0.5,
        packages: 1,
        current_status: 'delivered',
        delivered_to: 'Mumbai',
        destination: 'Mumbai',
        consignee_name: 'Arun Nayak',
        origin: 'New Delhi',
        courier_agent_details: null,
      }),
    ]);
    expect(
      data.shipment_track_activities.map((a: { date: string; activity: string; location: string }) => [
        a.date,
        a.activity,
        a.location,
      ]),
    ).toEqual([
      ['2026-11-20 17:39:29', 'DELIVERED', 'Mumbai'],
      ['2026-11-20 17:38:18', 'OUT FOR DELIVERY', 'Mumbai'],
      ['2026-11-20 16:20:31', 'PICKED UP', 'New Delhi'],
    ]);
    for (const activity of data.shipment_track_activities) expect(activity.date).toMatch(VELOCITY_DATE_TIME);
  });

  it('lists with Velocity names and forms (POST /shipments): page {number}, "per_page" as text, carrier_ids[], display_id[]', async () => {
    const booked = (await ok('POST', '/forward-order-orchestration', forwardOrder('VEL-1005'))).json().payload;
    const response = await ok('POST', '/shipments', {
      page: { number: 1 },
      per_page: '5',
      sort_by: 'created_at',
      'carrier_ids[]': [booked.courier_company_id],
      'warehouse_id[]': [warehouseId],
      'display_id[]': ['VEL-1005'],
      'store_name[]': ['acme-apparel'],
    });
    const body = response.json();
    expect(body.meta).toEqual({ current_page: 1, per_page: 5, total: 1, next_search_after: null });
    expect(body.data).toHaveLength(1);
    const [shipment] = body.data;
    expect(shipment).toMatchObject({ id: booked.shipment_id, type: 'shipment' });
    expect(shipment.attributes).toMatchObject({
      tracking_number: booked.awb_code,
      status: 'pending',
      is_cod: true,
      zone: 'zone_c',
      expected_delivery_date: booked.expected_delivery_date,
      order: { display_id: 'VEL-1005', external_id: 'VEL-1005', store_name: 'Acme-Apparel', channel_id: '27202' },
    });
    expect(shipment.attributes.order.vendor_details).toEqual({
      email: 'seller@example.com',
      phone: '9811122233',
      name: 'Kurta House',
      address: '7 Karol Bagh',
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
      pin_code: '110005',
      pickup_location: 'Karol Bagh',
    });
    const milestones = shipment.attributes.shipment_milestones.map((m: { milestone: string }) => m.milestone);
    expect(milestones).toEqual(expect.arrayContaining(['expected_delivery_date', 'original_expected_delivery_date']));
  });

  it("takes Velocity's status words in the listing, and still refuses an unknown one naming it", async () => {
    const response = await ok('POST', '/shipments', { status: 'need_attention', per_page: 5 });
    expect(response.json().meta.total).toBe(0);
    const bad = await send('POST', '/shipments', { status: 'teleported' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^status must be one of /);
    expect(bad.json().details[0].field).toBe('status');
  });

  it('reads `message` on every error, first of `errors`', async () => {
    const response = await send(
      'POST',
      '/forward-order-orchestration',
      forwardOrder('VEL-1006', { pickup_location: 'Nowhere Depot', warehouse_id: '' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'pickup_location_unknown',
      message: "pickup_location 'Nowhere Depot' names no warehouse of this account: create it first",
      errors: ["pickup_location 'Nowhere Depot' names no warehouse of this account: create it first"],
      details: [
        {
          field: 'pickup_location',
          message: "pickup_location 'Nowhere Depot' names no warehouse of this account: create it first",
        },
      ],
    });
    const unauthenticated = await ctx.app.inject({ method: 'POST', url: `${V1}/shipments`, payload: {} });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json().message).toBe(unauthenticated.json().errors[0]);
  });
});
