import { describe, expect, it } from 'vitest';
import { unknownField } from '../../../test/lenient-input.js';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { authed, HOUR, ORCHESTRATE, post, UNKNOWN_ID, UUID, WAREHOUSE, WAREHOUSES } from '../../../test/kit/http.js';
import { orderBody } from '../../../test/kit/orders.js';
import { countRows } from '../../../test/kit/rows.js';
import { createWarehouse, warehouseBody } from '../../../test/kit/warehouses.js';

const NOT_FOUND = { code: 'warehouse_not_found', message: 'Warehouse not found', errors: ['Warehouse not found'] };

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const create = (apiKey: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: WAREHOUSE, headers: authed(apiKey), payload: payload as object });
const get = (apiKey: string, id: string) =>
  ctx.app.inject({ method: 'GET', url: `${WAREHOUSES}/${id}`, headers: authed(apiKey) });
const list = (apiKey: string) => ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers: authed(apiKey) });

/**
 * A request that must answer 400 with exactly these problems, in this order, writing no warehouse;
 * the fields it ignored (`ignored`, as the header names them) are named after them.
 */
async function expectProblems(
  apiKey: string,
  payload: unknown,
  details: { field: string; message: string }[],
  ignored?: string,
) {
  const before = await countRows(ctx.database, 'warehouses');
  const response = await create(apiKey, payload);
  expect(response.statusCode).toBe(400);
  const named = [...details, ...(ignored?.split(', ').map((name) => unknownField(name)) ?? [])];
  expect(response.json()).toEqual({
    code: 'invalid_request',
    message: details[0]!.message,
    errors: named.map((d) => d.message),
    details: named,
  });
  expect(response.headers['dakiya-ignored-fields']).toBe(ignored);
  expect(await countRows(ctx.database, 'warehouses')).toBe(before);
}

/** A request that must answer 400 with exactly this message for this field, writing no warehouse. */
const expectRefused = (apiKey: string, payload: unknown, field: string, message: string, ignored?: string) =>
  expectProblems(apiKey, payload, [{ field, message }], ignored);

/** The warehouse as GET shows it, without what differs between two creations (id). */
async function stored(apiKey: string, id: string) {
  const { id: _id, ...rest } = (await get(apiKey, id)).json().data;
  return rest;
}

describe('POST /custom/api/v1/warehouse', () => {
  it('answers 201 with exactly {status: "SUCCESS", payload: {warehouse_id}} and stores the warehouse', async () => {
    const { apiKey } = await ctx.createAccount();
    const before = await countRows(ctx.database, 'warehouses');
    const response = await create(apiKey, warehouseBody());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ status: 'SUCCESS', payload: { warehouse_id: expect.stringMatching(UUID) } });
    expect(await countRows(ctx.database, 'warehouses')).toBe(before + 1);

    const fetched = await get(apiKey, response.json().payload.warehouse_id);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({
      data: {
        id: response.json().payload.warehouse_id,
        name: 'Okhla Fulfilment Centre',
        phone_number: '9876543210',
        email: 'ops@acme.example',
        contact_person: 'Ravi Kumar',
        gst_no: null,
        address_attributes: {
          street_address: 'Plot 14, Okhla Phase III',
          zip: '110001',
          city: 'New Delhi',
          state: 'Delhi',
          country: 'India',
        },
        created_at: ctx.clock.now().toISOString(),
      },
    });
  });

  it('creates a second warehouse of a name the account already uses, warning that pickup_location by it becomes ambiguous', async () => {
    const { apiKey } = await ctx.createAccount();
    const first = await createWarehouse(ctx, apiKey, { name: 'Okhla Hub' });
    const before = await countRows(ctx.database, 'warehouses');
    const again = await create(apiKey, warehouseBody({ name: ' okhla HUB ' }));
    expect(again.statusCode, again.body).toBe(201);
    const second = again.json().payload.warehouse_id;
    expect(again.json()).toEqual({
      status: 'SUCCESS',
      payload: {
        warehouse_id: expect.stringMatching(UUID),
        warnings: [
          {
            field: 'name',
            message:
              `name 'okhla HUB' is already used by warehouse ${first} of this account: pickup_location 'okhla HUB' is now ` +
              'ambiguous, and an order that sends it without warehouse_id is refused; send warehouse_id',
          },
        ],
      },
    });
    expect(await countRows(ctx.database, 'warehouses')).toBe(before + 1);
    expect((await get(apiKey, second)).json().data.name).toBe('okhla HUB');
    // Another account's warehouse of that name is no namesake.
    const other = await ctx.createAccount();
    expect((await create(other.apiKey, warehouseBody({ name: 'Okhla Hub' }))).json()).toEqual({
      status: 'SUCCESS',
      payload: { warehouse_id: expect.stringMatching(UUID) },
    });

    const byName = await post(ctx, apiKey, ORCHESTRATE, {
      ...orderBody(first),
      warehouse_id: undefined,
      pickup_location: 'Okhla Hub',
    });
    expect(byName.statusCode, byName.body).toBe(422);
    expect(byName.json().details).toEqual([
      {
        field: 'pickup_location',
        message: "pickup_location 'Okhla Hub' names more than one warehouse: send warehouse_id",
      },
    ]);
  });

  it('keeps a GSTIN whose check character or State is wrong, and says what is wrong (docs/paperwork.md)', async () => {
    const { apiKey } = await ctx.createAccount();
    const right = await create(apiKey, warehouseBody({ gst_no: '07aaacr5055k1z9' }));
    expect(right.json()).toEqual({ status: 'SUCCESS', payload: { warehouse_id: expect.stringMatching(UUID) } });
    expect((await get(apiKey, right.json().payload.warehouse_id)).json().data.gst_no).toBe('07AAACR5055K1Z9');
    // Maharashtra's GSTIN, its check character mistyped, for a warehouse in Delhi.
    const wrong = await create(apiKey, warehouseBody({ name: 'Second', gst_no: '27AAPFU0939F1ZW' }));
    expect(wrong.statusCode).toBe(201);
    expect(wrong.json().payload.warnings).toEqual([
      {
        field: 'gst_no',
        message:
          'gst_no 27AAPFU0939F1ZW looks wrong: it is registered in Maharashtra (state code 27), not Delhi; ' +
          'its last character should be V, the check character of the first 14. It is kept and printed on labels as sent; check it',
      },
    ]);
    expect((await get(apiKey, wrong.json().payload.warehouse_id)).json().data.gst_no).toBe('27AAPFU0939F1ZW');
  });

  it('takes only the required fields, trims text, and accepts the zip as a JSON number', async () => {
    const { apiKey } = await ctx.createAccount();
    const id = await createWarehouse(ctx, apiKey, {
      name: '  Andheri Hub ',
      phone_number: '022 2345 6789',
      email: undefined,
      contact_person: undefined,
      address_attributes: {
        street_address: ' 7 SV Road ',
        zip: 400053,
        city: ' Mumbai ',
        state: 'Maharashtra',
        country: 'India',
      },
    });
    expect((await get(apiKey, id)).json().data).toEqual({
      id,
      name: 'Andheri Hub',
      phone_number: '2223456789',
      email: null,
      contact_person: null,
      gst_no: null,
      address_attributes: {
        street_address: '7 SV Road',
        zip: '400053',
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
      },
      created_at: ctx.clock.now().toISOString(),
    });
  });

  it.each([
    ['9876543210', '9876543210'],
    ['+919876543210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['+91-98765-43210', '9876543210'],
    ['919876543210', '9876543210'],
    ['09876543210', '9876543210'],
    ['0 98765 43210', '9876543210'],
    ['98765 43210', '9876543210'],
    ['(080) 4123 4567', '8041234567'],
  ])('accepts the phone %j, stored as %s', async (phone, stored) => {
    const { apiKey } = await ctx.createAccount();
    const id = await createWarehouse(ctx, apiKey, { phone_number: phone });
    expect((await get(apiKey, id)).json().data.phone_number).toBe(stored);
  });

  it.each([
    '',
    '12345',
    '987654321',
    '98765432101',
    '0123456789',
    '+1 415 555 0100',
    '+44 20 7946 0958',
    'call me',
    '98765O4321',
  ])('refuses the phone %j (400), writing nothing', async (phone) => {
    const { apiKey } = await ctx.createAccount();
    await expectRefused(
      apiKey,
      warehouseBody({ phone_number: phone }),
      'phone_number',
      'phone_number must be a valid Indian phone number (10 digits)',
    );
  });

  it('refuses a phone number longer than 20 characters', async () => {
    const { apiKey } = await ctx.createAccount();
    await expectRefused(
      apiKey,
      warehouseBody({ phone_number: '+91 98765 43210 98765' }),
      'phone_number',
      'phone_number must be at most 20 characters long',
    );
  });

  it.each([
    ['123456', 'address_attributes.zip 123456 is not a pincode in the directory'],
    ['999999', 'address_attributes.zip 999999 is not a pincode in the directory'],
    [123456, 'address_attributes.zip 123456 is not a pincode in the directory'],
    ['12345', 'address_attributes.zip must be a 6-digit Indian pincode'],
    ['011001', 'address_attributes.zip 011001 is not a pincode in the directory'],
    ['000000', 'address_attributes.zip 000000 is not a pincode in the directory'],
    ['1100011', 'address_attributes.zip must be a 6-digit Indian pincode'],
    ['11000A', 'address_attributes.zip must be a 6-digit Indian pincode'],
    [' 110001', 'address_attributes.zip must be a 6-digit Indian pincode'],
    [110001.5, 'address_attributes.zip must be of type string or integer'],
  ])('refuses the zip %j (400), writing nothing', async (zip, message) => {
    const { apiKey } = await ctx.createAccount();
    const body = warehouseBody();
    await expectRefused(
      apiKey,
      { ...body, address_attributes: { ...body.address_attributes, zip } },
      'address_attributes.zip',
      message,
    );
  });

  it('names a bad phone number and an unknown pincode together (issue 16)', async () => {
    const { apiKey } = await ctx.createAccount();
    const body = warehouseBody({ phone_number: '12345' });
    await expectProblems(apiKey, { ...body, address_attributes: { ...body.address_attributes, zip: '999999' } }, [
      { field: 'phone_number', message: 'phone_number must be a valid Indian phone number (10 digits)' },
      { field: 'address_attributes.zip', message: 'address_attributes.zip 999999 is not a pincode in the directory' },
    ]);
  });

  it.each(['name', 'phone_number', 'address_attributes'])('refuses a body without %s (400)', async (field) => {
    const { apiKey } = await ctx.createAccount();
    const body: Record<string, unknown> = { ...warehouseBody() };
    delete body[field];
    await expectRefused(apiKey, body, field, `${field} is required`);
  });

  it.each(['street_address', 'zip', 'city', 'state', 'country'])(
    'refuses an address without %s (400)',
    async (field) => {
      const { apiKey } = await ctx.createAccount();
      const body = warehouseBody();
      const address: Record<string, unknown> = { ...body.address_attributes };
      delete address[field];
      await expectRefused(
        apiKey,
        { ...body, address_attributes: address },
        `address_attributes.${field}`,
        `address_attributes.${field} is required`,
      );
    },
  );

  it('refuses blank text and a bad email (400), writing nothing', async () => {
    const { apiKey } = await ctx.createAccount();
    await expectRefused(
      apiKey,
      warehouseBody({ name: '   ' }),
      'name',
      'name must be 1 to 200 characters on one line, not blank',
    );
    await expectRefused(apiKey, warehouseBody({ email: 'not-an-email' }), 'email', 'email must be an email address');
    const body = warehouseBody();
    await expectRefused(
      apiKey,
      { ...body, name: true },
      'name',
      'name must be 1 to 200 characters on one line, not blank',
    );
    await expectRefused(
      apiKey,
      { ...body, name: null },
      'name',
      'name must be 1 to 200 characters on one line, not blank',
    );
  });

  it('ignores unknown fields, top-level and in the address, naming them; the warehouse is stored as without them', async () => {
    const { apiKey } = await ctx.createAccount();
    const plain = await createWarehouse(ctx, apiKey);
    const body = warehouseBody();
    const response = await create(apiKey, {
      ...body,
      pincode: '999999',
      address_attributes: { ...body.address_attributes, landmark: 'Near metro' },
    });
    expect(response.statusCode).toBe(201);
    // The same name again: a warning beside the id.
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      payload: {
        warehouse_id: expect.stringMatching(UUID),
        warnings: [{ field: 'name', message: expect.stringContaining(`is already used by warehouse ${plain}`) }],
      },
      warnings: [unknownField('address_attributes.landmark'), unknownField('pincode')],
    });
    expect(response.headers['dakiya-ignored-fields']).toBe('address_attributes.landmark, pincode');
    expect(await stored(apiKey, response.json().payload.warehouse_id)).toEqual(await stored(apiKey, plain));
  });

  it('names the ignored fields on a 400 caused by another field too', async () => {
    const { apiKey } = await ctx.createAccount();
    const body = warehouseBody();
    await expectRefused(
      apiKey,
      { ...body, email: 'not-an-email', address_attributes: { ...body.address_attributes, landmark: 'Near metro' } },
      'email',
      'email must be an email address',
      'address_attributes.landmark',
    );
  });

  it('reads a number where text is expected as its decimal text (name 42, phone_number 9876543210)', async () => {
    const { apiKey } = await ctx.createAccount();
    const id = await createWarehouse(ctx, apiKey, {
      name: 42 as unknown as string,
      phone_number: 9876543210 as unknown as string,
    });
    const data = (await get(apiKey, id)).json().data;
    expect([data.name, data.phone_number]).toEqual(['42', '9876543210']);
    // Read as text, a number must then be a valid value like any text.
    await expectRefused(
      apiKey,
      warehouseBody({ phone_number: 12345 as unknown as string }),
      'phone_number',
      'phone_number must be a valid Indian phone number (10 digits)',
    );
  });

  it('refuses a request without a credential (401), writing nothing', async () => {
    const before = await countRows(ctx.database, 'warehouses');
    const response = await ctx.app.inject({ method: 'POST', url: WAREHOUSE, payload: warehouseBody() });
    expect(response.statusCode).toBe(401);
    expect(response.json().errors).toHaveLength(1);
    expect(await countRows(ctx.database, 'warehouses')).toBe(before);
  });
});

describe('GET /custom/api/v1/warehouses and /warehouses/:id', () => {
  it("lists the account's warehouses, oldest first, each as GET :id shows it", async () => {
    const { apiKey } = await ctx.createAccount();
    expect((await list(apiKey)).json()).toEqual({ data: [] });
    const first = await createWarehouse(ctx, apiKey, { name: 'First' });
    ctx.clock.advance(HOUR);
    const second = await createWarehouse(ctx, apiKey, { name: 'Second' });
    const response = await list(apiKey);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.map((w: { id: string; name: string }) => [w.id, w.name])).toEqual([
      [first, 'First'],
      [second, 'Second'],
    ]);
    expect(data[0]).toEqual((await get(apiKey, first)).json().data);
    expect(data[1]).toEqual((await get(apiKey, second)).json().data);
  });

  it('answers 404 for an unknown id and for one that is not a UUID', async () => {
    const { apiKey } = await ctx.createAccount();
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '123']) {
      const response = await get(apiKey, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it("keeps accounts apart: B neither lists nor gets A's warehouse (404)", async () => {
    const a = await ctx.createAccount();
    const b = await ctx.createAccount();
    const aWarehouse = await createWarehouse(ctx, a.apiKey, { name: 'A only' });
    const bWarehouse = await createWarehouse(ctx, b.apiKey, { name: 'B only' });

    const foreign = await get(b.apiKey, aWarehouse);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await get(a.apiKey, bWarehouse)).statusCode).toBe(404);

    expect((await list(b.apiKey)).json().data.map((w: { id: string }) => w.id)).toEqual([bWarehouse]);
    expect((await list(a.apiKey)).json().data.map((w: { id: string }) => w.id)).toEqual([aWarehouse]);
  });

  it('answers 401 without a credential', async () => {
    const { apiKey } = await ctx.createAccount();
    const id = await createWarehouse(ctx, apiKey);
    for (const url of [WAREHOUSES, `${WAREHOUSES}/${id}`]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(JSON.stringify(response.json())).not.toContain('Okhla');
    }
  });
});
