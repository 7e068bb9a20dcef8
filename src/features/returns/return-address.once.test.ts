import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../../demo/simulators/delhivery-simulator.js';
import { DELHIVERY_SURFACE, ratesWith } from '../../../test/kit/couriers.js';
import { withRealIds } from '../../../test/kit/examples.js';
import { post, RATES, RETURNS, REVERSE_ASSIGN, REVERSE_ORCHESTRATE, REVERSE_ORDER } from '../../../test/kit/http.js';
import { nextOrderId } from '../../../test/kit/orders.js';
import { WAREHOUSE_SHIPPING_FIELDS } from '../../../test/kit/returns.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { RETURN_REQUESTS } from './returns.examples.js';

// On a reverse order, shipping_* is where the return travels. Integrations send their own return
// address there beside their warehouse_id (VELOCITY.md, "More from Velocity's API document"), and
// it need not be in the warehouse's pincode: it is accepted (before: 422 "is not the pincode of
// warehouse_id"), priced from the customer's pincode to it, and booked with the courier to it.
// Delhivery (here its simulator) prints the return address it is given on the reverse label.

/** A Mumbai return address (Bandra, 400050), in Velocity's shipping_* fields with its loose types. */
const RETURN_ADDRESS = {
  shipping_customer_name: 'Acme Returns Desk',
  shipping_last_name: '',
  shipping_address: '4 Hill Road, Bandra West',
  shipping_address_2: 'Gate 2',
  shipping_city: 'Mumbai',
  shipping_state: 'Maharashtra',
  shipping_country: 'India',
  shipping_pincode: 400050,
  shipping_email: 'returns@acme.example',
  shipping_isd_code: '91',
  shipping_phone: 8888888888,
};

let ctx: TestContext;
let sim: DelhiverySimulator;
let apiKey: string;
let warehouseId: string;

beforeAll(async () => {
  sim = await startDelhiverySimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
    settings: {
      couriers: {
        delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
        timeoutMs: 2000,
        pollSeconds: 60,
      },
    },
  });
  ({ apiKey } = await ctx.createAccount());
  // The Okhla Fulfilment Centre, New Delhi 110001.
  warehouseId = await createWarehouse(ctx, apiKey);
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

/** /rates' return quote of one service, customer's pincode to `destination`, for the example's parcel (0.5 kg, 10 cm cube). */
async function quoteOf(carrierId: string, origin: string, destination: string, qc: boolean) {
  const response = await post(ctx, apiKey, RATES, {
    journey_type: 'return',
    origin_pincode: origin,
    destination_pincode: destination,
    dead_weight: 500,
    length: 10,
    width: 10,
    height: 10,
    qc_applicable: qc,
  });
  expect(response.statusCode).toBe(200);
  const { result } = response.json();
  const courier = result.serviceable_couriers.find((c: { carrier_id: string }) => c.carrier_id === carrierId);
  return { zone: `zone_${String(result.shipment_details.zone).toLowerCase()}`, charges: courier.charges };
}

describe('reverse orders to a return address that is not the warehouse', () => {
  it('reverse-order-orchestration: the documented example with a Mumbai return address is priced, booked and listed to it', async () => {
    const body = withRealIds(
      RETURN_REQUESTS.orchestration,
      { warehouseId },
      { ...RETURN_ADDRESS, order_id: nextOrderId('RET'), carrier_id: DELHIVERY_SURFACE },
    );
    const response = await post(ctx, apiKey, REVERSE_ORCHESTRATE, body);
    expect(response.statusCode, response.body).toBe(200);
    const payload = response.json().payload;

    // Mumbai customer (400001) to Bandra (400050): within the city, not to the warehouse's New Delhi.
    const toAddress = await quoteOf(DELHIVERY_SURFACE, '400001', '400050', true);
    const toWarehouse = await quoteOf(DELHIVERY_SURFACE, '400001', '110001', true);
    expect(toAddress.zone).toBe('zone_a');
    expect(toWarehouse.zone).toBe('zone_c');
    expect(toAddress.charges.return_freight_charges).toBeLessThan(toWarehouse.charges.return_freight_charges);
    expect(payload).toMatchObject({
      status: 'return_pickup_scheduled',
      courier_company_id: DELHIVERY_SURFACE,
      zone: toAddress.zone,
      qc_enabled: 1,
      charges: {
        reverse_charges: toAddress.charges.return_freight_charges.toFixed(2),
        qc: toAddress.charges.qc_charges.toFixed(2),
        total_return_charges: toAddress.charges.total_return_charges,
      },
    });

    // The courier is told to bring it to the return address, under the warehouse's pickup location.
    const pkg = sim.packages.get(payload.awb_code)!;
    expect(pkg.pickupLocation).toBe('Okhla Fulfilment Centre');
    expect(pkg.shipment).toMatchObject({
      name: 'Asha Menon',
      pin: '400001',
      return_name: 'Acme Returns Desk',
      return_add: '4 Hill Road, Bandra West, Gate 2',
      return_pin: '400050',
      return_city: 'Mumbai',
      return_state: 'Maharashtra',
      return_phone: '8888888888',
    });

    // Listed with that address, and still filed under the warehouse.
    const listed = await post(ctx, apiKey, RETURNS, {
      'warehouse_ids[]': [warehouseId],
      search: String(body.order_id),
    });
    expect(listed.statusCode).toBe(200);
    const [element] = listed.json().data;
    expect(element.attributes.shipping_address).toEqual({
      name: 'Acme Returns Desk',
      phone: '8888888888',
      city: 'Mumbai',
      state: 'Maharashtra',
      zip: '400050',
    });
  });

  it('reverse-order then reverse-order-shipment: the return keeps its address and is priced to it', async () => {
    const body = withRealIds(
      RETURN_REQUESTS.reverseOrder,
      { warehouseId },
      { ...RETURN_ADDRESS, order_id: nextOrderId('RET') },
    );
    const created = await post(ctx, apiKey, REVERSE_ORDER, body);
    expect(created.statusCode, created.body).toBe(200);
    const toAddress = await quoteOf(DELHIVERY_SURFACE, '400001', '400050', true);
    expect(created.json().payload).toMatchObject({ status: 'return_requested', zone: toAddress.zone, awb_code: null });

    const booked = await post(ctx, apiKey, REVERSE_ASSIGN, {
      return_id: created.json().payload.return_id,
      warehouse_id: warehouseId,
      carrier_id: DELHIVERY_SURFACE,
    });
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().payload.charges.reverse_charges).toBe(toAddress.charges.return_freight_charges.toFixed(2));
    expect(sim.packages.get(booked.json().payload.awb_code)!.shipment).toMatchObject({
      return_pin: '400050',
      return_city: 'Mumbai',
    });
  });

  it("without shipping_*, or with the warehouse's own address, the return still goes to the warehouse", async () => {
    for (const extra of [{}, WAREHOUSE_SHIPPING_FIELDS]) {
      const body = withRealIds(
        RETURN_REQUESTS.orchestration,
        { warehouseId },
        { ...extra, order_id: nextOrderId('RET'), carrier_id: DELHIVERY_SURFACE },
      );
      const response = await post(ctx, apiKey, REVERSE_ORCHESTRATE, body);
      expect(response.statusCode, response.body).toBe(200);
      const toWarehouse = await quoteOf(DELHIVERY_SURFACE, '400001', '110001', true);
      expect(response.json().payload.charges.reverse_charges).toBe(
        toWarehouse.charges.return_freight_charges.toFixed(2),
      );
      expect(sim.packages.get(response.json().payload.awb_code)!.shipment).toMatchObject({
        return_pin: '110001',
        return_city: 'New Delhi',
      });
    }
  });

  it('a partial return address is still a 400 naming each missing field', async () => {
    const body = withRealIds(
      RETURN_REQUESTS.reverseOrder,
      { warehouseId },
      { order_id: nextOrderId('RET'), shipping_pincode: '400050', shipping_city: 'Mumbai' },
    );
    const response = await post(ctx, apiKey, REVERSE_ORDER, body);
    expect(response.statusCode).toBe(400);
    const fields = ['customer_name', 'address', 'state', 'country', 'phone'];
    expect(response.json().details).toEqual(
      fields.map((name) => ({
        field: `shipping_${name}`,
        message: `shipping_${name} is required when a shipping address is sent`,
      })),
    );
  });
});

describe('a return whose booking cannot be stored', () => {
  it('reverse-order-orchestration of an order id already taken: 422, and the second parcel is called off at Delhivery', async () => {
    const body = withRealIds(
      RETURN_REQUESTS.orchestration,
      { warehouseId },
      { order_id: nextOrderId('RET'), carrier_id: DELHIVERY_SURFACE },
    );
    const first = await post(ctx, apiKey, REVERSE_ORCHESTRATE, body);
    expect(first.statusCode, first.body).toBe(200);
    const before = new Set(sim.packages.keys());

    const again = await post(ctx, apiKey, REVERSE_ORCHESTRATE, body);
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json().errors).toEqual([`Return '${body.order_id}' already exists`]);
    // The courier had booked a second pickup before our write failed: it is cancelled, the first stands.
    const orphans = [...sim.packages.entries()].filter(([awb]) => !before.has(awb));
    expect(orphans.map(([, pkg]) => pkg.cancelled)).toEqual([true]);
    expect(sim.packages.get(first.json().payload.awb_code)!.cancelled).toBe(false);
  });
});
