import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

const CHECK = `${V1}/forward-order/check`;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const check = (apiKey: string, body: unknown) =>
  ctx.app.inject({ method: 'POST', url: CHECK, headers: authed(apiKey), payload: body as object });
const shipmentCount = async (apiKey: string) =>
  (await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: authed(apiKey), payload: {} })).json().data
    .length as number;

describe('POST /custom/api/v1/forward-order/check', () => {
  it('answers the courier orchestration would book for a good order, and writes nothing', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const body = orderBody(m.warehouseId);
    const response = await check(m.apiKey, body);
    expect(response.statusCode).toBe(200);
    const checked = response.json().data;
    expect(Object.keys(checked)).toEqual(['carrier_id', 'courier_name']);
    expect(await shipmentCount(m.apiKey)).toBe(0);

    const booked = await orchestrate(ctx, m.apiKey, body);
    expect(booked.courier_company_id).toBe(checked.carrier_id);
    expect(booked.courier_name).toBe(checked.courier_name);
  });

  it('refuses what orchestration refuses: every bad field at once, an unknown warehouse, an order id already used', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const bad = await check(m.apiKey, orderBody(m.warehouseId, { height: -1, weight: -1 }));
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['height', 'weight']);

    const unknown = await check(m.apiKey, orderBody(UNKNOWN_ID));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details[0].field).toBe('warehouse_id');

    const body = orderBody(m.warehouseId);
    await orchestrate(ctx, m.apiKey, body);
    const taken = await check(m.apiKey, body);
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({
      code: 'order_id_taken',
      message: `Order '${body.order_id}' already exists`,
      errors: [`Order '${body.order_id}' already exists`],
      details: [{ field: 'order_id', message: `Order '${body.order_id}' already exists` }],
    });
    expect(await shipmentCount(m.apiKey)).toBe(1);
  });

  it('does not see another account’s order ids or warehouses', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const other = await merchantWithCityWarehouse(ctx);
    const body = orderBody(owner.warehouseId);
    await orchestrate(ctx, owner.apiKey, body);
    expect((await check(other.apiKey, { ...body, warehouse_id: other.warehouseId })).statusCode).toBe(200);
    expect((await check(other.apiKey, body)).statusCode).toBe(422);
  });

  it('answers 401 without a credential', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: CHECK, payload: {} })).statusCode).toBe(401);
  });
});
