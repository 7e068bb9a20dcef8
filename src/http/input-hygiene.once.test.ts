import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { admin, authed, FORWARD_ORDER, post, REVERSE_ORDER, STORES, WAREHOUSE } from '../../test/kit/http.js';
import { orderBody } from '../../test/kit/orders.js';
import { returnBody } from '../../test/kit/returns.js';
import { createStore } from '../../test/kit/stores.js';
import { multipart } from '../../test/kit/uploads.js';
import { createWarehouse, warehouseBody } from '../../test/kit/warehouses.js';

// Issue 24, point 9: names took line breaks and e-mail fields took `javascript:…@x` and
// `"><script>…@x` (which became malformed Reply-To headers). Names are on one line; addresses are
// a practical addr-spec, on every route that takes one.

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
useTestApp(async (made) => {
  ctx = made;
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey);
});

const refusal = (field: string, message: string) => ({
  code: 'invalid_request',
  message,
  errors: [message],
  details: [{ field, message }],
});
const ONE_LINE_NAMES = [
  'Acme\r\nBcc: victim@example.com',
  'Acme\nApparel',
  'Acme\tApparel',
  'Acme\u0007',
  'Acme\u2028Apparel',
  '\u001b[31mAcme',
];
const BAD_EMAILS = [
  'javascript:alert(1)@x.in',
  '"><script>alert(1)</script>@x.in',
  '"quoted"@x.in',
  '<help@x.in>',
  'help@x',
  'help@x.in\r\nBcc: victim@example.com',
  'help me@x.in',
  'help?cc=victim@example.com',
  'a..b@x.in',
  '.help@x.in',
  `${'l'.repeat(65)}@x.in`,
  'help@-x.in',
];
const GOOD_EMAILS = ['help@acmeapparel.in', "o'brien+orders@mail.acme.co.in", 'A.B-C_D@X9.IN'];

describe('names are on one line', () => {
  it.each(ONE_LINE_NAMES)(
    'brand_name %j: 400 naming brand_name, in JSON and in a form, on create and update',
    async (name) => {
      const message =
        'brand_name must be 1 to 100 characters on one line, not blank, without bidirectional controls or zero-width characters';
      const json = await post(ctx, apiKey, STORES, { store_name: 'one-line', brand_name: name });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toEqual(refusal('brand_name', message));
      const posted = await ctx.app.inject({
        method: 'POST',
        url: STORES,
        ...multipart(apiKey, [
          { name: 'store_name', value: 'one-line' },
          { name: 'brand_name', value: name },
        ]),
      });
      expect(posted.statusCode).toBe(400);
      expect(posted.json()).toEqual(refusal('brand_name', message));
      const store = await createStore(ctx, apiKey, {
        store_name: `one-line-${ONE_LINE_NAMES.indexOf(name)}`,
        brand_name: 'Acme Apparel',
      });
      const put = await ctx.app.inject({
        method: 'PUT',
        url: `${STORES}/${store.id}`,
        headers: authed(apiKey),
        payload: { brand_name: name },
      });
      expect(put.statusCode).toBe(400);
      expect(put.json()).toEqual(refusal('brand_name', message));
    },
  );

  it('store_name with a line break: 400 naming store_name', async () => {
    const response = await post(ctx, apiKey, STORES, { store_name: 'acme\r\n' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      refusal('store_name', 'store_name must be 1 to 64 characters of letters, digits and hyphens only'),
    );
  });

  it.each(['name', 'contact_person'] as const)('warehouse %s with a line break: 400 naming it', async (field) => {
    const response = await post(ctx, apiKey, WAREHOUSE, warehouseBody({ [field]: 'Okhla\r\nHub' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusal(field, `${field} must be 1 to 200 characters on one line, not blank`));
  });

  it('an account name with a line break: 400 naming name', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: admin,
      payload: { name: 'Acme\nRetail' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      refusal(
        'name',
        'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
      ),
    );
  });

  it.each([
    ['billing_customer_name', 'billing_customer_name must be 1 to 200 characters on one line, not blank'],
    ['shipping_customer_name', 'shipping_customer_name must be 1 to 200 characters on one line, not blank'],
    ['billing_last_name', 'billing_last_name must be at most 200 characters on one line'],
    ['shipping_last_name', 'shipping_last_name must be at most 200 characters on one line'],
    ['company_name', 'company_name must be at most 200 characters on one line'],
  ])('an order %s with a line break: 400 naming it', async (field, message) => {
    const response = await post(
      ctx,
      apiKey,
      FORWARD_ORDER,
      orderBody(warehouseId, { shipping_is_billing: false, [field]: 'Asha\r\nRao' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ field, message });
  });

  it('a return pickup_customer_name with a line break: 400 naming it', async () => {
    const response = await post(ctx, apiKey, REVERSE_ORDER, {
      ...returnBody(warehouseId),
      pickup_customer_name: 'Asha\nRao',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      refusal('pickup_customer_name', 'pickup_customer_name must be 1 to 200 characters on one line, not blank'),
    );
  });

  it('keeps names in any script, with inner spaces', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'hindi-brand', brand_name: ' कुर्ता  कार्ट ' });
    expect(store.brand_name).toBe('कुर्ता  कार्ट');
  });
});

describe('e-mail addresses are addresses', () => {
  it.each(BAD_EMAILS)('support_email %j: 400 naming support_email, in JSON and in a form', async (email) => {
    const message = 'support_email must be an e-mail address';
    const json = await post(ctx, apiKey, STORES, { store_name: 'mail-check', support_email: email });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(refusal('support_email', message));
    const posted = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [
        { name: 'store_name', value: 'mail-check' },
        { name: 'support_email', value: email },
      ]),
    });
    expect(posted.statusCode).toBe(400);
    expect(posted.json()).toEqual(refusal('support_email', message));
  });

  it.each(BAD_EMAILS)(
    '%j: 400 on the warehouse email, the order and vendor e-mails and the return pickup e-mail',
    async (email) => {
      const warehouse = await post(ctx, apiKey, WAREHOUSE, warehouseBody({ email }));
      expect(warehouse.statusCode).toBe(400);
      expect(warehouse.json()).toEqual(refusal('email', 'email must be an email address'));
      const order = await post(ctx, apiKey, FORWARD_ORDER, {
        ...orderBody(warehouseId, { shipping_is_billing: false, billing_email: email, shipping_email: email }),
        vendor_details: { name: 'Seller', email },
      });
      expect(order.statusCode).toBe(400);
      expect(order.json().details).toEqual(
        expect.arrayContaining(
          ['billing_email', 'shipping_email', 'vendor_details.email'].map((field) => ({
            field,
            message: `${field} must be an email address`,
          })),
        ),
      );
      const back = await post(ctx, apiKey, REVERSE_ORDER, { ...returnBody(warehouseId), pickup_email: email });
      expect(back.statusCode).toBe(400);
      expect(back.json()).toEqual(refusal('pickup_email', 'pickup_email must be an email address'));
    },
  );

  it.each(GOOD_EMAILS)('%j is taken everywhere', async (email) => {
    const store = await createStore(ctx, apiKey, {
      store_name: `mail-${GOOD_EMAILS.indexOf(email)}`,
      support_email: email,
    });
    expect(store.support_email).toBe(email);
    expect((await post(ctx, apiKey, WAREHOUSE, warehouseBody({ email }))).statusCode).toBe(201);
    expect((await post(ctx, apiKey, FORWARD_ORDER, orderBody(warehouseId, { billing_email: email }))).statusCode).toBe(
      200,
    );
  });
});
