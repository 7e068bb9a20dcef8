import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';

const WEBHOOKS = `${V1}/webhooks`;
/** Nothing listens there: these tests record no event, so nothing is sent. */
const URL = 'http://127.0.0.1:9/velocity/webhook';
const KEY = 'cp-live-7f3a9c2e41b8';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { outbound: { allowHttp: true, allowPrivate: true } } });
});
afterAll(async () => {
  await ctx.close();
});

const send = (apiKey: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });

describe('Velocity-format endpoints: registration', () => {
  it('registers with format velocity and a key; answers show the key masked, and the header it travels in', async () => {
    const { apiKey } = await ctx.createAccount();
    const created = await send(apiKey, 'POST', WEBHOOKS, { url: URL, events: ['*'], format: 'velocity', api_key: KEY });
    expect(created.statusCode, created.body).toBe(201);
    const { secret, id, created_at, updated_at, ...shown } = created.json().data;
    expect(shown).toEqual({
      url: URL,
      events: ['*'],
      format: 'velocity',
      api_key: '****41b8',
      api_key_header: 'x-api-key',
      description: null,
      status: 'enabled',
      disabled_reason: null,
      refused_reason: null,
    });
    expect(created.body).not.toContain(KEY);
    const read = await send(apiKey, 'GET', `${WEBHOOKS}/${id}`);
    expect(read.json().data).toMatchObject({ api_key: '****41b8', api_key_header: 'x-api-key' });
    expect(read.body).not.toContain(KEY);

    const renamed = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, {
      api_key_header: 'X-Velocity-Webhook-Secret',
      api_key: 'short-k1',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({
      format: 'velocity',
      api_key: '****',
      api_key_header: 'x-velocity-webhook-secret',
    });

    const events = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, {
      events: ['status_change', 'qc_update', 'status_change'],
    });
    expect(events.json().data.events).toEqual(['status_change', 'qc_update']);

    // Back to standard: the key is forgotten and the answer is the standard one, without format fields.
    const standard = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, {
      format: 'standard',
      events: ['shipment.delivered'],
    });
    expect(standard.statusCode, standard.body).toBe(200);
    expect(Object.keys(standard.json().data)).toEqual([
      'id',
      'url',
      'events',
      'description',
      'status',
      'disabled_reason',
      'refused_reason',
      'created_at',
      'updated_at',
    ]);
    const again = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, { format: 'velocity', events: ['*'] });
    expect(again.statusCode).toBe(400);
    expect(again.json().details).toEqual([
      { field: 'api_key', message: expect.stringContaining('api_key is required with format velocity') },
    ]);
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const { apiKey } = await ctx.createAccount();
    const velocity = { url: URL, events: ['*'], format: 'velocity', api_key: KEY };
    const cases: [string, object, string[]][] = [
      ['an unknown format', { ...velocity, format: 'shiprocket' }, ['format']],
      ['format velocity without api_key', { url: URL, events: ['*'], format: 'velocity' }, ['api_key']],
      ['an api_key of 7 characters', { ...velocity, api_key: 'abc1234' }, ['api_key']],
      ['an api_key with a line break', { ...velocity, api_key: 'abcd1234\r\nx-evil: 1' }, ['api_key']],
      ['a header name with a space', { ...velocity, api_key_header: 'x api key' }, ['api_key_header']],
      ['a header name with a colon', { ...velocity, api_key_header: 'x-api-key:' }, ['api_key_header']],
      ['Host', { ...velocity, api_key_header: 'Host' }, ['api_key_header']],
      ['Content-Type', { ...velocity, api_key_header: 'content-type' }, ['api_key_header']],
      ['Transfer-Encoding', { ...velocity, api_key_header: 'Transfer-Encoding' }, ['api_key_header']],
      ['Connection', { ...velocity, api_key_header: 'connection' }, ['api_key_header']],
      ['our own event names on a velocity endpoint', { ...velocity, events: ['shipment.delivered'] }, ['events']],
      ["Velocity's names on a standard endpoint", { url: URL, events: ['status_change'] }, ['events']],
      ['api_key on a standard endpoint', { url: URL, events: ['*'], api_key: KEY }, ['api_key']],
      [
        'api_key_header on a standard endpoint',
        { url: URL, events: ['*'], format: 'standard', api_key_header: 'x-api-key' },
        ['api_key_header'],
      ],
      [
        'a wrong vocabulary and a reserved header together',
        { ...velocity, events: ['shipment.delivered'], api_key_header: 'host' },
        ['events', 'api_key_header'],
      ],
    ];
    for (const [name, body, fields] of cases) {
      const response = await send(apiKey, 'POST', WEBHOOKS, body);
      expect(response.statusCode, name).toBe(400);
      expect(
        (response.json().details as { field: string }[]).map((d) => d.field.replace(/^\/?body\/?/, '')),
        name,
      ).toEqual(fields);
    }
    expect((await send(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });

    const { id } = (await send(apiKey, 'POST', WEBHOOKS, { url: URL, events: ['*'] })).json().data;
    const switched = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, {
      format: 'velocity',
      api_key: KEY,
      events: ['shipment.delivered'],
    });
    expect(switched.statusCode).toBe(400);
    expect(switched.json().details.map((d: { field: string }) => d.field)).toEqual(['events']);
    const keyOnStandard = await send(apiKey, 'PUT', `${WEBHOOKS}/${id}`, { api_key: KEY });
    expect(keyOnStandard.statusCode).toBe(400);
    expect(keyOnStandard.json().details.map((d: { field: string }) => d.field)).toEqual(['api_key']);
    expect((await send(apiKey, 'GET', `${WEBHOOKS}/${id}`)).json().data).not.toHaveProperty('format');
  });
});
