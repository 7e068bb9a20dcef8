import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { awbPrefixOf } from '../../../test/kit/couriers.js';
import { ORCHESTRATE, post, UUID } from '../../../test/kit/http.js';
import { LABEL_URL } from '../../../test/kit/labels.js';
import {
  bookedCharges,
  BOOKING_MILESTONES,
  codOrderBody,
  NOW_IN_INDIA,
  orchestrate,
  orderBody,
  ratesFor,
  TRACK_URL,
} from '../../../test/kit/orders.js';
import { expectNothingWritten, milestoneNames, orderCounts, shipmentRow } from '../../../test/kit/rows.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { NO_ROUTING } from '../../http/examples.js';

const DAY_SECONDS = 24 * 60 * 60;

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('POST /custom/api/v1/forward-order-orchestration', () => {
  it('creates, books and answers every field of the payload', async () => {
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'Orchestra-Shop', brand_name: 'Orchestra' });
    const body = orderBody(m.warehouseId, { store_name: 'orchestra-shop' });
    const rates = await ratesFor(ctx, m.apiKey, body);
    const [cheapest] = rates;
    const before = await orderCounts(ctx.database);
    const response = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(Object.keys(payload)).toEqual([
      'order_id',
      'channel_order_id',
      'shipment_id',
      'status',
      'store_name',
      'zone',
      'applied_weight',
      'cod',
      'awb_code',
      'courier_company_id',
      'courier_name',
      'label_url',
      'track_url',
      'test_mode',
      'charges',
      'pickup_location_added',
      'order_created',
      'awb_generated',
      'label_generated',
      'pickup_generated',
      'manifest_generated',
      'pickup_scheduled_date',
      'pickup_booked_date',
      'expected_delivery_date',
      'assigned_date_time',
      'manifest_url',
      'allocation',
      'routing_code',
      'rto_routing_code',
      'pickup_token_number',
      'address_validity',
      'address_reasons',
      'rto_risk',
      'rto_risk_score',
      'rto_risk_reasons',
    ]);
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        order_id: expect.stringMatching(UUID),
        channel_order_id: body.order_id,
        shipment_id: expect.stringMatching(UUID),
        status: 'pending',
        store_name: 'Orchestra-Shop',
        zone: 'zone_c',
        applied_weight: 0.5,
        cod: 0,
        awb_code: expect.stringMatching(new RegExp(`^${awbPrefixOf(cheapest!.carrier_id)}\\d{10}$`)),
        courier_company_id: cheapest!.carrier_id,
        courier_name: cheapest!.carrier_name,
        label_url: expect.stringMatching(LABEL_URL),
        track_url: expect.stringMatching(TRACK_URL),
        test_mode: false,
        charges: bookedCharges(cheapest!.charges),
        pickup_location_added: 1,
        order_created: 1,
        awb_generated: 1,
        label_generated: 1,
        pickup_generated: 1,
        manifest_generated: 0,
        pickup_scheduled_date: cheapest!.expected_delivery.pickup,
        pickup_booked_date: '2026-11-20 12:00:00',
        expected_delivery_date: cheapest!.expected_delivery.delivery,
        assigned_date_time: NOW_IN_INDIA,
        manifest_url: null,
        allocation: {
          rule_id: null,
          rule: null,
          strategy: 'cheapest',
          reason: `the account has no active rules: ${cheapest!.carrier_name}, the cheapest of ${rates.length} serviceable at ₹${cheapest!.charges.total_forward_charges.toFixed(2)}`,
        },
        ...NO_ROUTING,
        // A prepaid order to a full address, and a buyer and area with no history yet.
        address_validity: 'valid',
        address_reasons: [],
        rto_risk: 'low',
        rto_risk_score: 0,
        rto_risk_reasons: [],
      },
    });
    expect(payload.charges.total_forward_charges).toBe(
      payload.charges.forward_freight_charges + payload.charges.cod_charges,
    );

    const [, shipmentId, expires] = LABEL_URL.exec(payload.label_url)!;
    expect(payload.label_url.startsWith(`${PUBLIC_BASE_URL}/`)).toBe(true);
    expect(shipmentId).toBe(payload.shipment_id);
    expect(Number(expires)).toBe(ctx.clock.now().getTime() / 1000 + DAY_SECONDS);

    expect(await orderCounts(ctx.database)).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      shipments: before.shipments + 1,
      shipment_milestones: before.shipment_milestones + 4,
      awb_counters_total: before.awb_counters_total + 1,
    });
    expect(await shipmentRow(ctx.database, payload.shipment_id)).toMatchObject({
      status: 'pending',
      carrier_id: cheapest!.carrier_id,
      awb: payload.awb_code,
      store_id: store.id,
      assigned_at: ctx.clock.now().toISOString(),
    });
    expect(await milestoneNames(ctx.database, payload.shipment_id)).toEqual(BOOKING_MILESTONES);
  });

  it.each([
    [{ weight: 0.5, length: 10, breadth: 10, height: 10 }, 0.5],
    [{ weight: 2.35, length: 10, breadth: 10, height: 10 }, 2.35],
    [{ weight: 0.5, length: 20, breadth: 20, height: 20 }, 1.6],
    [{ weight: 0.25, length: 30, breadth: 20, height: 12.5 }, 1.5],
  ])('answers applied_weight in kg, the larger of dead and volumetric (%j → %s kg)', async (parcel, kg) => {
    const m = await merchant(ctx);
    const payload = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, parcel));
    expect(payload.applied_weight).toBe(kg);
    expect((await shipmentRow(ctx.database, payload.shipment_id)).applied_weight_grams).toBe(kg * 1000);
  });

  it('books COD with its COD charge and prepaid without one, each matching POST /rates', async () => {
    const m = await merchant(ctx);
    const cod = codOrderBody(m.warehouseId);
    const prepaid = orderBody(m.warehouseId);
    const [codQuote] = await ratesFor(ctx, m.apiKey, cod);
    const [prepaidQuote] = await ratesFor(ctx, m.apiKey, prepaid);

    const codBooking = await orchestrate(ctx, m.apiKey, cod);
    expect(codBooking.cod).toBe(1);
    expect(codBooking.courier_company_id).toBe(codQuote!.carrier_id);
    expect(codBooking.charges).toEqual(bookedCharges(codQuote!.charges));
    expect(codBooking.charges!.cod_charges).toBeGreaterThan(0);
    expect(await shipmentRow(ctx.database, codBooking.shipment_id)).toMatchObject({ is_cod: true, cod_amount: 99800 });

    const prepaidBooking = await orchestrate(ctx, m.apiKey, prepaid);
    expect(prepaidBooking.cod).toBe(0);
    expect(prepaidBooking.courier_company_id).toBe(prepaidQuote!.carrier_id);
    expect(prepaidBooking.charges).toEqual(bookedCharges(prepaidQuote!.charges));
    expect(prepaidBooking.charges!.cod_charges).toBe(0);
    expect(await shipmentRow(ctx.database, prepaidBooking.shipment_id)).toMatchObject({ is_cod: false, cod_amount: 0 });
  });

  it('books the named carrier_id, and refuses one that cannot carry the shipment writing nothing', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: 'CARBLDTAIR001' }));
    expect(booked.courier_company_id).toBe('CARBLDTAIR001');
    expect(booked.courier_name).toBe('Blue Dart Air');
    expect(booked.awb_code).toMatch(/^BDA\d{10}$/);

    const message = 'Delhivery Air cannot carry this shipment: it does not serve Ladakh';
    const refused = await expectNothingWritten(ctx.database, () =>
      post(
        ctx,
        m.apiKey,
        ORCHESTRATE,
        orderBody(m.warehouseId, { billing_pincode: '194101', carrier_id: 'CARDELHAIR001' }),
      ),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'courier_cannot_carry',
      message,
      errors: [message],
      details: [{ field: 'carrier_id', message }],
    });

    const unknown = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ORCHESTRATE, orderBody(m.warehouseId, { carrier_id: 'CARNOSUCH0001' })),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual(["carrier_id 'CARNOSUCH0001' is not a known courier service"]);
  });

  it('ships to the shipping_* address when shipping_is_billing is false', async () => {
    const m = await merchant(ctx);
    const body = codOrderBody(m.warehouseId, {
      shipping_is_billing: false,
      shipping_customer_name: 'Meera',
      shipping_address: '22 Park Street',
      shipping_city: 'Kolkata',
      shipping_pincode: '700016',
      shipping_state: 'West Bengal',
      shipping_country: 'India',
      shipping_phone: '09830012345',
    });
    const [cheapest] = await ratesFor(ctx, m.apiKey, body);
    const payload = await orchestrate(ctx, m.apiKey, body);
    expect(payload.zone).toBe('zone_c');
    expect(payload.courier_company_id).toBe(cheapest!.carrier_id);
    expect(payload.charges).toEqual(bookedCharges(cheapest!.charges));
    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select shipping_name, shipping_city, shipping_pincode, shipping_phone, billing_city from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      shipping_name: 'Meera',
      shipping_city: 'Kolkata',
      shipping_pincode: '700016',
      shipping_phone: '9830012345',
      billing_city: 'Mumbai',
    });
  });
});
