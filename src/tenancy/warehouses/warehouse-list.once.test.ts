import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { accessToken, authed, HOUR, UUID, WAREHOUSE, WAREHOUSES } from '../../../test/kit/http.js';
import { exampleOf } from '../../../test/kit/examples.js';
import { CreateWarehouseBody } from './warehouses.schemas.js';

// GET /custom/api/v1/warehouse: Velocity's listing, which integrations call (VELOCITY.md, "More from
// Velocity's API document"); before, the path took only POST and answered 405.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const listVelocity = (authorization: string) =>
  ctx.app.inject({ method: 'GET', url: WAREHOUSE, headers: authed(authorization) });

async function create(apiKey: string, body: Record<string, unknown>): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: WAREHOUSE, headers: authed(apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().payload.warehouse_id;
}

describe('GET /custom/api/v1/warehouse', () => {
  it('lists the warehouses made from the documented example, with address_attributes and the flat fields, oldest first', async () => {
    const { apiKey } = await ctx.createAccount();
    const example = exampleOf(CreateWarehouseBody) as { address_attributes: Record<string, string> } & Record<
      string,
      unknown
    >;
    const first = await create(apiKey, example);
    ctx.clock.advance(HOUR);
    // Velocity's habits: the phone and the zip as numbers, no gst_no.
    const second = await create(apiKey, {
      name: 'HomeNew',
      phone_number: 9866340090,
      email: 'home@acme.example',
      contact_person: 'Arun Nayak',
      address_attributes: {
        street_address: '12 Marine Drive',
        zip: 400001,
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
      },
    });

    const response = await listVelocity(apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      data: [
        {
          id: first,
          warehouse_id: first,
          name: 'Okhla Dispatch Centre',
          phone_number: '9876543210',
          email: 'okhla@acme.example',
          contact_person: 'Ravi Kumar',
          gst_no: '07AAACR5055K1Z9',
          address_attributes: {
            street_address: 'Plot 14, Okhla Industrial Estate Phase 3',
            zip: '110020',
            city: 'New Delhi',
            state: 'Delhi',
            country: 'India',
          },
          address: 'Plot 14, Okhla Industrial Estate Phase 3',
          city: 'New Delhi',
          state: 'Delhi',
          pincode: '110020',
          country: 'India',
          created_at: '2026-11-20T06:30:00.000Z',
        },
        {
          id: second,
          warehouse_id: second,
          name: 'HomeNew',
          phone_number: '9866340090',
          email: 'home@acme.example',
          contact_person: 'Arun Nayak',
          gst_no: null,
          address_attributes: {
            street_address: '12 Marine Drive',
            zip: '400001',
            city: 'Mumbai',
            state: 'Maharashtra',
            country: 'India',
          },
          address: '12 Marine Drive',
          city: 'Mumbai',
          state: 'Maharashtra',
          pincode: '400001',
          country: 'India',
          created_at: '2026-11-20T07:30:00.000Z',
        },
      ],
    });
    expect(response.json().data[0].id).toMatch(UUID);
    // Dakiya's own listing shows the same warehouses, in its own shape.
    const dakiya = (await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: authed(apiKey) })).json().data;
    expect(dakiya.map((w: { id: string }) => w.id)).toEqual([first, second]);
  });

  it("shows only the caller's account's warehouses: another account sees none of them", async () => {
    const a = await ctx.createAccount();
    const b = await ctx.createAccount();
    await create(a.apiKey, exampleOf(CreateWarehouseBody));
    // Oldest first: on a clock that stood still the two would tie, ordered by their random ids.
    ctx.clock.advance(1000);
    await create(a.apiKey, { ...exampleOf(CreateWarehouseBody), name: 'Second hub' });

    const other = await listVelocity(b.apiKey);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ status: 'SUCCESS', data: [] });
    expect((await listVelocity(a.apiKey)).json().data.map((w: { name: string }) => w.name)).toEqual([
      'Okhla Dispatch Centre',
      'Second hub',
    ]);
  });

  it('takes an access token sent as "Token <token>", and answers 401 without a credential', async () => {
    const account = await ctx.createAccount('Token merchant', {
      username: '+919866340091',
      password: 'velocity-pass-1',
    });
    const id = await create(account.apiKey, exampleOf(CreateWarehouseBody));
    const token = await accessToken(ctx, '9866340091', 'velocity-pass-1');
    for (const header of [`Token ${token}`, `token ${account.apiKey}`, token]) {
      const response = await listVelocity(header);
      expect(response.statusCode, header).toBe(200);
      expect(response.json().data.map((w: { id: string }) => w.id)).toEqual([id]);
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: WAREHOUSE });
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.stringify(anonymous.json())).not.toContain('Okhla');
  });
});
