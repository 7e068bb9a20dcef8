import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { authed, STORES } from '../../../test/kit/http.js';
import { expectUnchanged } from '../../../test/kit/rows.js';
import { createStore, getStore } from '../../../test/kit/stores.js';
import { multipart } from '../../../test/kit/uploads.js';

// The store's customer-facing settings (issue 14): support contact and which e-mails customers get.

const ALL = [
  'shipped',
  'out_for_delivery',
  'delivered',
  'ndr_raised',
  'rto_delivered',
  'return_requested',
  'return_approved',
  'return_rejected',
];

let ctx: TestContext;
let apiKey: string;
beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Contact Tester')).apiKey;
});
afterAll(async () => {
  await ctx.close();
});

const put = (id: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: `${STORES}/${id}`, headers: authed(apiKey), payload });
const post = (payload: object) => ctx.app.inject({ method: 'POST', url: STORES, headers: authed(apiKey), payload });
const fieldError = (field: string, message: string, code = 'invalid_request') => ({
  code,
  message,
  errors: [message],
  details: [{ field, message }],
});

describe('support_email, support_phone and notify_events on the store routes', () => {
  it('creates a store with them in JSON, trimmed, and shows them in every store answer', async () => {
    const response = await post({
      store_name: 'contact-json',
      support_email: ' help@acmeapparel.in ',
      support_phone: '1800-123-4567',
      notify_events: ['delivered', 'shipped'],
    });
    expect(response.statusCode).toBe(201);
    const store = response.json().data;
    expect(store).toMatchObject({
      support_email: 'help@acmeapparel.in',
      support_phone: '1800-123-4567',
      notify_events: ['shipped', 'delivered'],
    });
    expect((await getStore(ctx, apiKey, store.id)).json().data).toEqual(store);
    const listed = (await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) })).json().data;
    expect(listed.find((s: { id: string }) => s.id === store.id)).toEqual(store);
  });

  it('defaults to no contact and every e-mail', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'contact-default' });
    expect(store).toMatchObject({ support_email: null, support_phone: null, notify_events: ALL });
  });

  it('takes them as multipart text fields, notify_events comma-separated; an empty list turns e-mails off', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [
        { name: 'store_name', value: 'contact-form' },
        { name: 'support_email', value: 'care@kurtakart.in' },
        { name: 'support_phone', value: '+91 98765 43210' },
        { name: 'notify_events', value: 'ndr_raised, shipped' },
      ]),
    });
    expect(created.statusCode).toBe(201);
    const store = created.json().data;
    expect(store).toMatchObject({
      support_email: 'care@kurtakart.in',
      support_phone: '+91 98765 43210',
      notify_events: ['shipped', 'ndr_raised'],
    });
    const off = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}`,
      ...multipart(apiKey, [{ name: 'notify_events', value: '' }]),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ support_email: 'care@kurtakart.in', notify_events: [] });
  });

  it('updates each on its own; null clears a contact field; other fields stay', async () => {
    const store = await createStore(ctx, apiKey, {
      store_name: 'contact-update',
      brand_name: 'Kurta Kart',
      support_email: 'a@kurtakart.in',
    });
    ctx.clock.advance(60_000);
    const phone = await put(store.id, { support_phone: '022 2345 6789' });
    expect(phone.statusCode).toBe(200);
    expect(phone.json().data).toEqual({
      ...store,
      support_phone: '022 2345 6789',
      updated_at: ctx.clock.now().toISOString(),
    });
    const cleared = await put(store.id, { support_email: null, notify_events: [] });
    expect(cleared.json().data).toMatchObject({
      brand_name: 'Kurta Kart',
      support_email: null,
      support_phone: '022 2345 6789',
      notify_events: [],
    });
    const again = await put(store.id, { notify_events: ALL });
    expect(again.json().data.notify_events).toEqual(ALL);
  });

  it.each([
    [{ support_email: 'not-an-email' }, 'support_email', 'support_email must be an e-mail address'],
    [{ support_email: 'a b@x.in' }, 'support_email', 'support_email must be an e-mail address'],
    [
      { support_phone: 'call us' },
      'support_phone',
      'support_phone must be a phone number: 8 to 15 digits, with spaces, hyphens, brackets or a leading + allowed',
    ],
    [{ support_phone: '12-34-56' }, 'support_phone', 'support_phone must have 8 to 15 digits'],
    [{ support_phone: '1234567890123456' }, 'support_phone', 'support_phone must have 8 to 15 digits'],
    [{ notify_events: ['shipped', 'birthday'] }, 'notify_events.1', `notify_events.1 must name only ${ALL.join(', ')}`],
    [
      { notify_events: ['shipped', 'shipped'] },
      'notify_events',
      `notify_events must list distinct values among ${ALL.join(', ')}`,
    ],
  ])(
    'refuses %j with a 400 naming the field, on create and update, writing nothing',
    async (fields, field, message) => {
      const store = await createStore(ctx, apiKey, { store_name: `bad-${Math.random().toString(36).slice(2, 10)}` });
      const created = await expectUnchanged(ctx.database, () => post({ store_name: 'never-made', ...fields }));
      expect(created.statusCode).toBe(400);
      expect(created.json()).toEqual(fieldError(field, message));
      const updated = await expectUnchanged(ctx.database, () => put(store.id, fields));
      expect(updated.statusCode).toBe(400);
      expect(updated.json()).toEqual(fieldError(field, message));
    },
  );

  it('refuses a malformed notify_events form field with a 400 naming it', async () => {
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({
        method: 'POST',
        url: STORES,
        ...multipart(apiKey, [
          { name: 'store_name', value: 'contact-bad-form' },
          { name: 'notify_events', value: 'shipped;delivered' },
        ]),
      }),
    );
    expect(response.statusCode).toBe(400);
    const message = `notify_events must be a comma-separated list of ${ALL.join(', ')} (empty for none)`;
    expect(response.json()).toEqual(fieldError('notify_events', message));
  });

  it("never shows or changes another account's store", async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'contact-mine', support_email: 'mine@kurtakart.in' });
    const other = (await ctx.createAccount('Other')).apiKey;
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({
        method: 'PUT',
        url: `${STORES}/${store.id}`,
        headers: authed(other),
        payload: { support_email: 'thief@x.in' },
      }),
    );
    expect(response.statusCode).toBe(404);
  });
});

describe("language on the store routes: the buyers' pages' language over their browsers'", () => {
  it('is null unless set; JSON and multipart set it, PUT changes it, null clears it, and store.updated names it', async () => {
    expect((await createStore(ctx, apiKey, { store_name: 'lang-default' })).language).toBeNull();
    const created = await post({ store_name: 'lang-json', language: 'mr' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect(created.json().data.language).toBe('mr');
    const form = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [
        { name: 'store_name', value: 'lang-form' },
        { name: 'language', value: 'ta' },
      ]),
    });
    expect(form.json().data.language).toBe('ta');
    const changed = await put(id, { language: 'kn' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.language).toBe('kn');
    expect((await getStore(ctx, apiKey, id)).json().data.language).toBe('kn');
    // The feed lists an event once no transaction anywhere on the server can still commit an earlier one.
    await eventsSettled(ctx.database);
    const events = (
      await ctx.app.inject({
        method: 'GET',
        url: '/custom/api/v1/events?type[]=store.updated',
        headers: authed(apiKey),
      })
    ).json().data;
    expect(events.at(-1).data).toMatchObject({ changed: ['language'], store: { id, language: 'kn' } });
    expect((await put(id, { language: null })).json().data.language).toBeNull();
  });

  it("refuses a language Dakiya's pages do not speak, naming the field, and changes nothing", async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'lang-refused', language: 'hi' });
    const message = 'language must be one of en, hi, mr, bn, gu, ta, te, kn, ml';
    for (const language of ['fr', 'HI', 'hi-IN', 'hindi', '', 7])
      await expectUnchanged(ctx.database, async () => {
        const refused = await put(store.id, { language });
        expect(refused.statusCode, String(language)).toBe(400);
        expect(refused.json()).toEqual(fieldError('language', message));
        return refused;
      });
    expect((await getStore(ctx, apiKey, store.id)).json().data.language).toBe('hi');
  });
});
