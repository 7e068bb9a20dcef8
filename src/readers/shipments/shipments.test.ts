import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { ASSIGN, authed, MINUTE, post, SHIPMENTS, UUID } from '../../../test/kit/http.js';
import { labelUrlNow } from '../../../test/kit/labels.js';
import { book, seedShipments } from '../../../test/kit/orders.js';
import { list, listIds, type ShipmentElement } from '../../../test/kit/shipments.js';
import { createStore } from '../../../test/kit/stores.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('a shipment as the listing shows it (SPEC 2.3)', () => {
  it('has every attribute, with its type and value', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await createStore(ctx, apiKey, { store_name: 'Fashion-Hub' });
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const b = await book(ctx, apiKey, warehouseId, {
      orderId: 'WEB-1001',
      orderDate: '2026-11-19 18:00',
      storeName: 'fashion-hub',
      customer: 'Asha',
      lastName: 'Menon',
      phone: '+91 91234-56780',
      cod: true,
      value: 1499.5,
      weight: 1.2,
      items: [
        { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499.75 },
        { name: 'Silk Dupatta', sku: 'DUP-RED', units: 1, selling_price: 500 },
      ],
      tags: ['gift'],
      carrierId: SHADOWFAX,
    });
    const { data, meta } = await list(ctx, apiKey);
    expect(meta).toEqual({ current_page: 1, per_page: 20, total: 1, next_search_after: null });
    expect(data).toHaveLength(1);
    const element = data[0]!;
    expect(element).toEqual({
      id: b.shipment_id,
      type: 'shipment',
      attributes: {
        tracking_number: b.awb_code,
        test_mode: false,
        track_url: b.track_url,
        label_url: await labelUrlNow(ctx, b.shipment_id),
        status: 'pending',
        sub_status: null,
        granular_status: 'ready_for_pickup',
        created_at: '2026-11-20T06:30:00.000Z',
        expected_delivery_date: '2026-11-25',
        warehouse_id: warehouseId,
        total_price: 1499.5,
        cod_amount: 1499.5,
        is_cod: true,
        zone: 'zone_c',
        applied_weight: { value: 1200, metric_unit: 'g' },
        attempt_count: 0,
        ndr_reason: null,
        rto_reason: null,
        address_validity: 'valid',
        address_reasons: [],
        rto_risk: 'low',
        rto_risk_score: 20,
        rto_risk_reasons: [{ reason: 'cod', points: 20 }],
        ndr_all_outcomes: [],
        rto_awb: null,
        manifested: false,
        pickup_id: null,
        fare_breakup: { forward_charges: 122, cod_charges: 29, rto_charges: 0, total_charges: 151 },
        return: null,
        is_exchange: 0,
        exchange: null,
        carrier: { id: SHADOWFAX, name: 'Shadowfax Standard' },
        order: {
          id: b.order_id,
          order_date: '2026-11-19T12:30:00.000Z',
          channel: 'manual_order',
          display_id: 'WEB-1001',
          external_id: 'WEB-1001',
          store_name: 'Fashion-Hub',
          channel_id: null,
          channel_order_id: null,
          channel_order_name: null,
          vendor_details: null,
        },
        items: [
          { id: expect.stringMatching(UUID), quantity: 2, price: 499.75, name: 'Cotton Kurta', sku: 'KURTA-M-BLUE' },
          { id: expect.stringMatching(UUID), quantity: 1, price: 500, name: 'Silk Dupatta', sku: 'DUP-RED' },
        ],
        shipping_address: {
          name: 'Asha Menon',
          phone: '9123456780',
          alternate_phone: null,
          address: '12 Marine Drive',
          address_2: null,
          city: 'Mumbai',
          state: 'Maharashtra',
          zip: '400001',
        },
        shipment_milestones: [
          { milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' },
          { milestone: 'courier_assigned', milestone_at: '2026-11-20T06:30:00.000Z' },
          { milestone: 'expected_delivery_date', milestone_at: '2026-11-24T18:30:00.000Z' },
          { milestone: 'original_expected_delivery_date', milestone_at: '2026-11-24T18:30:00.000Z' },
        ],
        ndr_actions: [],
        order_confirmation: null,
        tracking_details: [],
        box_count: 1,
        boxes: null,
      },
    });
    // The charges the booking answered; the RTO's are added once an RTO begins (shipments-velocity-filters.test.ts).
    expect((b as typeof b & { charges: unknown }).charges).toMatchObject({
      forward_freight_charges: 122,
      cod_charges: 29,
      total_forward_charges: 151,
    });
    expect(b.awb_code).toMatch(/^SFX\d{10}$/);
    expect(b.shipment_id).toMatch(UUID);
    // Every attribute of SPEC 2.3, Velocity's expected_delivery_date and Dakiya's label_url, no more, with its JSON type.
    const a = element.attributes;
    const types = Object.fromEntries(
      Object.entries(a).map(([k, v]) => [k, Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v]),
    );
    expect(types).toEqual({
      tracking_number: 'string',
      test_mode: 'boolean',
      track_url: 'string',
      label_url: 'string',
      status: 'string',
      sub_status: 'null',
      granular_status: 'string',
      created_at: 'string',
      expected_delivery_date: 'string',
      warehouse_id: 'string',
      total_price: 'number',
      cod_amount: 'number',
      is_cod: 'boolean',
      zone: 'string',
      applied_weight: 'object',
      attempt_count: 'number',
      ndr_reason: 'null',
      rto_reason: 'null',
      address_validity: 'string',
      address_reasons: 'array',
      rto_risk: 'string',
      rto_risk_score: 'number',
      rto_risk_reasons: 'array',
      ndr_all_outcomes: 'array',
      rto_awb: 'null',
      manifested: 'boolean',
      pickup_id: 'null',
      fare_breakup: 'object',
      return: 'null',
      is_exchange: 'number',
      exchange: 'null',
      carrier: 'object',
      order: 'object',
      items: 'array',
      shipping_address: 'object',
      shipment_milestones: 'array',
      ndr_actions: 'array',
      order_confirmation: 'null',
      tracking_details: 'array',
      box_count: 'number',
      boxes: 'null',
    });
    expect(Number.isInteger(a.attempt_count)).toBe(true);
    expect(Number.isInteger(a.items[0]!.quantity)).toBe(true);
  });

  it('shows tracking_details and sub_status once events arrive', async () => {
    const { apiKey, booked } = await seedShipments(ctx, 1, () => ({ carrierId: DELHIVERY_SURFACE }));
    ctx.clock.set('2026-11-22T00:00:00.000Z');
    await sendEvents(ctx, await issueCarrierToken(ctx, DELHIVERY_SURFACE), [
      {
        awb: booked[0]!.awb_code!,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-21T10:00:00+05:30',
        location: 'Okhla',
        description: 'Picked up',
      },
    ]);
    const a = (await list(ctx, apiKey)).data[0]!.attributes;
    expect(a.status).toBe('in_transit');
    expect(a.sub_status).toBe('picked_up');
    expect(a.tracking_details).toEqual([
      {
        id: expect.stringMatching(UUID),
        status: 'in_transit',
        last_location: 'Okhla',
        event_date_time: '2026-11-21T04:30:00.000Z',
        description: 'Picked up',
      },
    ]);
    expect(a.shipment_milestones.map((m) => m.milestone)).toEqual([
      'order_created',
      'courier_assigned',
      'picked_up',
      'expected_delivery_date',
      'original_expected_delivery_date',
    ]);
  });

  it('an unassigned shipment has tracking_number and carrier null; a prepaid one cod_amount 0; no store, store_name null', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const b = await book(ctx, apiKey, warehouseId, { orderId: 'NOCOURIER-1', value: 998 }, false);
    const { data } = await list(ctx, apiKey);
    expect(data.map((s) => s.id)).toEqual([b.shipment_id]);
    const a = data[0]!.attributes;
    expect(a.tracking_number).toBeNull();
    expect(a.carrier).toBeNull();
    expect(a.status).toBe('pending');
    expect(a.is_cod).toBe(false);
    expect(a.cod_amount).toBe(0);
    expect(a.total_price).toBe(998);
    expect(a.order.store_name).toBeNull();
    expect(a).toMatchObject({ expected_delivery_date: null, order: { channel_id: null, vendor_details: null } });
    expect(a.shipment_milestones).toEqual([{ milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' }]);
  });

  it('a courier booked later shows up in the element, the carrier filter and its count, and the AWB search', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const b = await book(ctx, apiKey, warehouseId, {}, false);
    expect((await list(ctx, apiKey, { 'carrier_id[]': [DELHIVERY_SURFACE] })).meta.total).toBe(0);
    ctx.clock.set('2026-11-20T07:00:00.000Z');
    const assigned = await post(ctx, apiKey, ASSIGN, { shipment_id: b.shipment_id, carrier_id: DELHIVERY_SURFACE });
    expect(assigned.statusCode).toBe(200);
    const awb = assigned.json().payload.awb_code as string;
    const byCarrier = await list(ctx, apiKey, { 'carrier_id[]': [DELHIVERY_SURFACE] });
    expect(byCarrier.meta.total).toBe(1);
    expect(byCarrier.data[0]!.attributes).toMatchObject({
      tracking_number: awb,
      carrier: { id: DELHIVERY_SURFACE, name: 'Delhivery Surface' },
    });
    expect(byCarrier.data[0]!.attributes.shipment_milestones).toEqual([
      { milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' },
      { milestone: 'courier_assigned', milestone_at: '2026-11-20T07:00:00.000Z' },
      { milestone: 'expected_delivery_date', milestone_at: '2026-11-25T18:30:00.000Z' },
      { milestone: 'original_expected_delivery_date', milestone_at: '2026-11-25T18:30:00.000Z' },
    ]);
    expect(byCarrier.data[0]!.attributes).toMatchObject({ expected_delivery_date: '2026-11-26' });
    expect(await listIds(ctx, apiKey, { search: awb })).toEqual([b.shipment_id]);
  });

  it('an empty body, no body and {} are the same first page', async () => {
    const { apiKey } = await seedShipments(ctx, 2);
    const withBody = await list(ctx, apiKey, {});
    const noBody = await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: authed(apiKey) });
    expect(noBody.statusCode).toBe(200);
    expect(noBody.json()).toEqual(withBody);
    expect(withBody.meta.total).toBe(2);
  });
});

describe('tenant isolation', () => {
  it('shows another account nothing of this one, whatever the filter, search or cursor', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const a = await ctx.createAccount();
    const aWarehouse = await createCityWarehouse(ctx, a.apiKey);
    await createStore(ctx, a.apiKey, { store_name: 'Shared-Name' });
    const aShipments = [];
    for (let i = 0; i < 3; i++) {
      aShipments.push(
        await book(ctx, a.apiKey, aWarehouse, {
          orderId: `SAME-${i}`,
          storeName: 'Shared-Name',
          phone: '9000000001',
          customer: 'Alpha',
          items: [{ name: 'Common', sku: 'COMMON-SKU', units: 1, selling_price: 100 }],
          tags: ['shared-tag'],
          value: 100,
        }),
      );
      ctx.clock.advance(MINUTE);
    }
    const b = await ctx.createAccount();
    const bWarehouse = await createCityWarehouse(ctx, b.apiKey);
    await createStore(ctx, b.apiKey, { store_name: 'Shared-Name' });
    const bShipment = await book(ctx, b.apiKey, bWarehouse, {
      orderId: 'SAME-9',
      storeName: 'shared-name',
      phone: '9000000002',
      customer: 'Beta',
      items: [{ name: 'Common', sku: 'COMMON-SKU', units: 1, selling_price: 100 }],
      tags: ['shared-tag'],
      value: 100,
    });
    const aFirst = await list(ctx, a.apiKey, { per_page: 1 });
    const mine = [bShipment.shipment_id];
    // [body, what B sees]: B's own row where the filter also matches it, never one of A's.
    const cases: [Record<string, unknown>, string[], number?][] = [
      [{}, mine],
      [{ search: aShipments[0]!.awb_code! }, []],
      [{ search: aShipments[0]!.order_id }, []],
      [{ search: 'same-' }, mine],
      [{ search: '9000000001' }, []],
      [{ search: '900000000' }, mine],
      [{ search: 'alpha' }, []],
      [{ 'warehouse_ids[]': [aWarehouse] }, []],
      [{ 'warehouse_ids[]': [aWarehouse, bWarehouse] }, mine],
      [{ 'store_name[]': ['Shared-Name'] }, mine],
      [{ 'sku[]': ['COMMON-SKU'] }, mine],
      [{ 'tags[]': ['shared-tag'] }, mine],
      [{ status: 'pending' }, mine],
      [{ 'carrier_id[]': [SHADOWFAX] }, mine],
      // B's shipment is newer than A's newest: nothing of B's is after A's cursor, and A's rows never
      // are; the total still counts B's one matching row (it ignores the cursor).
      [{ search_after: aFirst.meta.next_search_after }, [], 1],
      [{ search_after: ['99999999999999', aShipments[0]!.shipment_id] }, mine],
      [{ date_field: 'created_at', start_time: 0 }, mine],
      [{ is_cod: false, 'zone[]': ['zone_c'] }, mine],
    ];
    for (const [body, expected, total = expected.length] of cases) {
      const listing = await list(ctx, b.apiKey, { per_page: 100, ...body });
      expect({ body, ids: listing.data.map((s: ShipmentElement) => s.id), total: listing.meta.total }).toEqual({
        body,
        ids: expected,
        total,
      });
    }
    // And the other way round.
    expect(await listIds(ctx, a.apiKey, { search: bShipment.awb_code! })).toEqual([]);
    expect((await list(ctx, a.apiKey, {})).meta.total).toBe(3);
  });

  it('needs a credential: 401 without one', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: SHIPMENTS, payload: {} });
    expect(response.statusCode).toBe(401);
  });
});
