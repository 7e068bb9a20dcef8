import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestContext } from '../../../test/app.js';
import { authed, STORES } from '../../../test/kit/http.js';

// Issue 46: brand_name accepted U+202E (right-to-left override) and U+200B (zero width space). A
// brand, or an account's name where a store has none, is the sender's name of customers' e-mails:
// a bidirectional control or a hidden character in it makes a From line read as someone else's.

const HIDDEN: [string, string][] = [
  ['U+202E right-to-left override', '\u202E'],
  ['U+202A left-to-right embedding', '\u202A'],
  ['U+202D left-to-right override', '\u202D'],
  ['U+2066 left-to-right isolate', '\u2066'],
  ['U+2069 pop directional isolate', '\u2069'],
  ['U+200E left-to-right mark', '\u200E'],
  ['U+200F right-to-left mark', '\u200F'],
  ['U+061C Arabic letter mark', '\u061C'],
  ['U+200B zero width space', '\u200B'],
  ['U+200C zero width non-joiner', '\u200C'],
  ['U+200D zero width joiner', '\u200D'],
  ['U+2060 word joiner', '\u2060'],
  ['U+FEFF zero width no-break space', '\uFEFF'],
];
const BRAND_ERROR =
  'brand_name must be 1 to 100 characters on one line, not blank, without bidirectional controls or zero-width characters';

let ctx: TestContext;
let apiKey: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await ctx.createAccount());
});
afterAll(async () => {
  await ctx.close();
});

const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), payload });

describe('a name customers see as the sender of their e-mails', () => {
  it('brand_name with a bidirectional control or a zero-width character: 400 naming brand_name, on create and update', async () => {
    const store = await send('POST', STORES, { store_name: 'sender-names', brand_name: 'Acme Apparel' });
    expect(store.statusCode, store.body).toBe(201);
    const id = store.json().data.id;
    for (const [name, character] of HIDDEN) {
      // The audit's form: a name that reads reversed from the override on ("Acme" then "lapyaP").
      const brand = `Acme${character}Paypal`;
      const created = await send('POST', STORES, { store_name: 'sender-names-2', brand_name: brand });
      expect([created.statusCode, created.json().details], name).toEqual([
        400,
        [{ field: 'brand_name', message: BRAND_ERROR }],
      ]);
      const updated = await send('PUT', `${STORES}/${id}`, { brand_name: brand });
      expect([updated.statusCode, updated.json().details], name).toEqual([
        400,
        [{ field: 'brand_name', message: BRAND_ERROR }],
      ]);
    }
    const read = await ctx.app.inject({ method: 'GET', url: `${STORES}/${id}`, headers: authed(apiKey) });
    expect(read.json().data.brand_name).toBe('Acme Apparel');
  });

  it('a brand in any script, with its own marks, is kept', async () => {
    for (const [i, brand] of ['कुर्ता कार्ट', 'চা ঘর', 'Chai & Co.', 'ಕನ್ನಡ ಸ್ಟೋರ್'].entries()) {
      const created = await send('POST', STORES, { store_name: `script-${i}`, brand_name: brand });
      expect(created.statusCode, `${brand}: ${created.body}`).toBe(201);
      expect(created.json().data.brand_name).toBe(brand);
    }
  });

  it("an account's name, the sender where a store has no brand: the same refusal, naming name", async () => {
    for (const [name, character] of HIDDEN) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: `Acme${character} Retail` },
      });
      expect([response.statusCode, response.json().details], name).toEqual([
        400,
        [
          {
            field: 'name',
            message:
              'name must be 1 to 200 characters on one line, not blank, without bidirectional controls or zero-width characters',
          },
        ],
      ]);
    }
  });
});
