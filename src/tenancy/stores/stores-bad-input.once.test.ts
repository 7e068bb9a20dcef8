import type { InjectOptions } from 'fastify';
import { unknownField, withUnknown } from '../../../test/lenient-input.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, STORES, UNKNOWN_ID } from '../../../test/kit/http.js';
import { countRows, expectUnchanged } from '../../../test/kit/rows.js';
import { createStore, getStore, type StoreBody } from '../../../test/kit/stores.js';
import { formData, jpeg, logoPart, type Part, png, SVG } from '../../../test/kit/uploads.js';

// Inline vitest projects do not inherit the root testTimeout/hookTimeout; PGlite start-up alone can
// take seconds on a loaded 2-CPU machine.

const MiB = 1024 * 1024;
const NAME = 'store_name must be 1 to 64 characters of letters, digits and hyphens only';
const BRAND =
  'brand_name must be 1 to 100 characters on one line, not blank, without bidirectional controls or zero-width characters';
const SIZE = 'logo must be at most 2 MiB (2097152 bytes)';
const LANGUAGE = 'language must be one of en, hi, mr, bn, gu, ta, te, kn, ml';
const TYPE = 'logo must be a PNG, JPEG, WebP or GIF image';
const UNSUPPORTED = 'Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)';
const field = (name: string, message: string, code = 'invalid_request') => ({
  code,
  message,
  errors: [message],
  details: [{ field: name, message }],
});
const errors = (...messages: string[]) => ({ code: 'invalid_request', message: messages[0], errors: messages });
/** A body of the helpers above with another code. */
const coded = <T extends object>(code: string, body: T) => ({ ...body, code });
const TAKEN = field('store_name', 'Store name has already been taken', 'store_name_taken');
const LOGO = 'store_logo_invalid';
// The stores.once.test.ts case names the store; here its id is not known when the cases are written.
const RETIRED_WHY = expect.stringMatching(
  /^A deleted store \([0-9a-f-]{36}\) used this name, .*restore it with PUT .*, or choose another name$/,
);
const TAKEN_BY_DELETED = {
  code: 'store_name_reserved',
  message: 'Store name has already been taken',
  errors: ['Store name has already been taken', RETIRED_WHY],
  details: [
    { field: 'store_name', message: 'Store name has already been taken' },
    { field: 'store_name', message: RETIRED_WHY },
  ],
};
const MALFORMED_MULTIPART = coded('malformed_multipart', errors('Malformed multipart/form-data body'));

type Request = Pick<InjectOptions, 'headers' | 'payload'>;
const json = (payload: unknown): Request => ({ payload: payload as object });
const raw = (contentType: string, payload: string | Buffer): Request => ({
  headers: { 'content-type': contentType },
  payload,
});
const form = (...parts: Part[]): Request => formData(parts);
const text = (name: string, value: string): Part => ({ name, value });

const textLogo = Buffer.from('This is a text file, not an image.\n');
const truncatedPng = png().subarray(0, 24);
const tooBig = png(2 * MiB + 1, 1);

let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let existing: StoreBody;
let otherAccountStore: StoreBody;

beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Bad Input A')).apiKey;
  otherKey = (await ctx.createAccount('Bad Input B')).apiKey;
  existing = await createStore(ctx, apiKey, {
    store_name: 'existing',
    brand_name: 'Existing',
    logo: jpeg(300, 9).toString('base64'),
  });
  await createStore(ctx, apiKey, { store_name: 'Taken' });
  const retired = await createStore(ctx, apiKey, { store_name: 'retired' });
  await ctx.app.inject({ method: 'DELETE', url: `${STORES}/${retired.id}`, headers: authed(apiKey) });
  otherAccountStore = await createStore(ctx, otherKey, { store_name: 'b-store', logo: png(100, 4).toString('base64') });
});
afterAll(async () => {
  await ctx.close();
});

async function send(method: 'POST' | 'PUT', url: string, request: Request) {
  return expectUnchanged(ctx.database, () =>
    ctx.app.inject({ method, url, ...request, headers: { ...request.headers, ...authed(apiKey) } }),
  );
}

// Bad input that create and update refuse alike.
const common: [string, Request, number, object][] = [
  [
    'malformed JSON',
    raw('application/json', '{"store_name": "x",'),
    400,
    coded('malformed_json', errors('Malformed JSON body')),
  ],
  ['text/plain', raw('text/plain', 'store_name=x'), 415, coded('unsupported_media_type', errors(UNSUPPORTED))],
  [
    'application/x-www-form-urlencoded',
    raw('application/x-www-form-urlencoded', 'store_name=x'),
    415,
    coded('unsupported_media_type', errors(UNSUPPORTED)),
  ],
  [
    'application/xml',
    raw('application/xml', '<store_name>x</store_name>'),
    415,
    coded('unsupported_media_type', errors(UNSUPPORTED)),
  ],
  [
    'a JSON body over 3 MiB',
    raw('application/json', JSON.stringify({ store_name: 'x', logo: 'A'.repeat(3 * MiB) })),
    413,
    coded('body_too_large', errors('Request body is too large')),
  ],
  ['no body', {}, 400, coded('body_required', errors('A request body is required: send a JSON object'))],
  ['a JSON array', json([{ store_name: 'x' }]), 400, field('body', 'body must be of type object')],
  ['store_name empty', json({ store_name: '' }), 400, field('store_name', NAME)],
  ['store_name of 65 characters', json({ store_name: 'a'.repeat(65) }), 400, field('store_name', NAME)],
  ['store_name with a space', json({ store_name: 'my store' }), 400, field('store_name', NAME)],
  ['store_name with a leading space', json({ store_name: ' mystore' }), 400, field('store_name', NAME)],
  ['store_name with _', json({ store_name: 'my_store' }), 400, field('store_name', NAME)],
  ['store_name with !', json({ store_name: 'store!' }), 400, field('store_name', NAME)],
  ['store_name with /', json({ store_name: 'my/store' }), 400, field('store_name', NAME)],
  ['store_name with accented letters', json({ store_name: 'café' }), 400, field('store_name', NAME)],
  ['store_name in Devanagari', json({ store_name: 'दुकान' }), 400, field('store_name', NAME)],
  ['store_name a number that is not a valid name', json({ store_name: 4.5 }), 400, field('store_name', NAME)],
  ['store_name true', json({ store_name: true }), 400, field('store_name', NAME)],
  ['store_name null', json({ store_name: null }), 400, field('store_name', NAME)],
  ['brand_name empty', json({ store_name: 'fine-name', brand_name: '' }), 400, field('brand_name', BRAND)],
  [
    'brand_name white space only',
    json({ store_name: 'fine-name', brand_name: ' \t  ' }),
    400,
    field('brand_name', BRAND),
  ],
  [
    'brand_name of 101 characters',
    json({ store_name: 'fine-name', brand_name: 'b'.repeat(101) }),
    400,
    field('brand_name', BRAND),
  ],
  ['brand_name false', json({ store_name: 'fine-name', brand_name: false }), 400, field('brand_name', BRAND)],
  [
    'brand_name an object',
    json({ store_name: 'fine-name', brand_name: { text: 'Acme' } }),
    400,
    field('brand_name', BRAND),
  ],
  ['language not ours', json({ store_name: 'fine-name', language: 'fr' }), 400, field('language', LANGUAGE)],
  ['language in capitals', json({ store_name: 'fine-name', language: 'HI' }), 400, field('language', LANGUAGE)],
  ['language as a locale', json({ store_name: 'fine-name', language: 'hi-IN' }), 400, field('language', LANGUAGE)],
  ['language empty', json({ store_name: 'fine-name', language: '' }), 400, field('language', LANGUAGE)],
  ['language a number', json({ store_name: 'fine-name', language: 1 }), 400, field('language', LANGUAGE)],
  [
    'a multipart language not ours',
    form(text('store_name', 'fine-name'), text('language', 'english')),
    400,
    field('language', LANGUAGE),
  ],
  ['store_name taken', json({ store_name: 'Taken' }), 422, TAKEN],
  ['store_name taken in another case', json({ store_name: 'tAKEN' }), 422, TAKEN],
  ['the name of a disconnected store', json({ store_name: 'RETIRED' }), 422, TAKEN_BY_DELETED],
  [
    'a JSON logo over 2 MiB',
    json({ store_name: 'fine-name', logo: tooBig.toString('base64') }),
    422,
    field('logo', SIZE, LOGO),
  ],
  [
    'a JSON logo that is text',
    json({ store_name: 'fine-name', logo: textLogo.toString('base64') }),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a JSON logo that is an SVG',
    json({ store_name: 'fine-name', logo: SVG.toString('base64') }),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a JSON SVG data: URL',
    json({ store_name: 'fine-name', logo: `data:image/svg+xml;base64,${SVG.toString('base64')}` }),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a JSON logo with a truncated PNG header',
    json({ store_name: 'fine-name', logo: truncatedPng.toString('base64') }),
    422,
    field('logo', TYPE, LOGO),
  ],
  ['an empty JSON logo', json({ store_name: 'fine-name', logo: '' }), 422, field('logo', TYPE, LOGO)],
  [
    'an empty logo file',
    form(text('store_name', 'fine-name'), logoPart(Buffer.alloc(0))),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a JSON logo that is not base64',
    json({ store_name: 'fine-name', logo: '<svg>%%%</svg>' }),
    422,
    field('logo', 'logo must be a file upload or base64-encoded image', LOGO),
  ],
  [
    'a multipart logo over 2 MiB',
    form(text('store_name', 'fine-name'), logoPart(tooBig)),
    422,
    field('logo', SIZE, 'file_too_large'),
  ],
  [
    'a multipart logo of 5 MiB',
    form(text('store_name', 'fine-name'), logoPart(png(5 * MiB, 2))),
    422,
    field('logo', SIZE, 'file_too_large'),
  ],
  [
    'a multipart logo that is text',
    form(text('store_name', 'fine-name'), logoPart(textLogo, 'logo.png', 'image/png')),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a multipart logo that is an SVG',
    form(text('store_name', 'fine-name'), logoPart(SVG, 'logo.svg', 'image/svg+xml')),
    422,
    field('logo', TYPE, LOGO),
  ],
  [
    'a multipart logo with a truncated PNG header',
    form(text('store_name', 'fine-name'), logoPart(truncatedPng)),
    422,
    field('logo', TYPE, LOGO),
  ],
  ['a multipart store_name with _', form(text('store_name', 'my_store')), 400, field('store_name', NAME)],
  ['a multipart store_name in another case of a taken one', form(text('store_name', 'TAKEN')), 422, TAKEN],
  [
    'a multipart brand_name of white space',
    form(text('store_name', 'fine-name'), text('brand_name', '   ')),
    400,
    field('brand_name', BRAND),
  ],
  [
    'two logo files',
    form(text('store_name', 'fine-name'), logoPart(png(64, 1)), logoPart(png(64, 2))),
    400,
    field('logo', 'Only one file (logo) may be sent', 'too_many_files'),
  ],
  ['multipart without a boundary', raw('multipart/form-data', 'store_name=x'), 400, MALFORMED_MULTIPART],
  [
    'a truncated multipart body',
    raw(
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="store_name"\r\n\r\nfine-name',
    ),
    400,
    MALFORMED_MULTIPART,
  ],
];

describe('POST /custom/api/v1/client-stores refuses bad input and creates nothing', () => {
  it.each([
    ...common,
    ['store_name missing', json({ brand_name: 'No Name' }), 400, field('store_name', 'store_name is required')],
    ['an empty JSON object', json({}), 400, field('store_name', 'store_name is required')],
    [
      'a multipart body without store_name',
      form(text('brand_name', 'No Name'), logoPart(png())),
      400,
      field('store_name', 'store_name is required'),
    ],
    ['brand_name null', json({ store_name: 'fine-name', brand_name: null }), 400, field('brand_name', BRAND)],
    ['logo null', json({ store_name: 'fine-name', logo: null }), 400, field('logo', 'logo must be of type string')],
    [
      'logo a number (read as the text "5", which is no image)',
      json({ store_name: 'fine-name', logo: 5 }),
      422,
      field('logo', TYPE, LOGO),
    ],
    ['logo true', json({ store_name: 'fine-name', logo: true }), 400, field('logo', 'logo must be of type string')],
  ] as [string, Request, number, object][])('%s', async (_label, request, status, body) => {
    const stores = await countRows(ctx.database, 'stores');
    const response = await send('POST', STORES, request);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
    expect(await countRows(ctx.database, 'stores')).toBe(stores);
  });
});

describe('PUT /custom/api/v1/client-stores/:id refuses bad input and changes nothing', () => {
  const nothingToChange = errors(
    'Send at least one of store_name, brand_name, logo, support_email, support_phone, notify_events, language or status',
  );
  it.each([
    ...common,
    ['an empty JSON object', json({}), 400, nothingToChange],
    ['an empty multipart body', form(), 400, nothingToChange],
    ['logo a number (read as the text "5", which is no image)', json({ logo: 5 }), 422, field('logo', TYPE, LOGO)],
    ['logo true', json({ logo: true }), 400, field('logo', 'logo must be of type string or null')],
    [
      'the name of another store in another case',
      json({ store_name: 'taken', brand_name: 'Would Change' }),
      422,
      TAKEN,
    ],
  ] as [string, Request, number, object][])('%s', async (_label, request, status, body) => {
    const response = await send('PUT', `${STORES}/${existing.id}`, request);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
    expect((await getStore(ctx, apiKey, existing.id)).json()).toEqual({ data: existing });
  });
});

describe('unknown, malformed and other accounts’ ids answer 404 and change nothing', () => {
  const ids: [string, () => string][] = [
    ['an unknown id', () => UNKNOWN_ID],
    ['a non-UUID id', () => 'not-a-uuid'],
    ['a number', () => '12345'],
    ['a UUID with a suffix', () => `${existing.id}0`],
    ["another account's id", () => otherAccountStore.id],
  ];
  const methods: [string, Omit<InjectOptions, 'url'>][] = [
    ['GET', { method: 'GET' }],
    ['PUT (JSON)', { method: 'PUT', payload: { brand_name: 'Changed', logo: null } }],
    ['PUT (multipart)', { method: 'PUT', ...formData([text('store_name', 'changed'), logoPart(png(64, 5))]) }],
    ['DELETE', { method: 'DELETE' }],
  ];
  const cases = ids.flatMap(([label, id]) => methods.map(([method, options]) => [method, label, id, options] as const));

  it.each(cases)('%s with %s', async (_method, _label, id, options) => {
    const response = await expectUnchanged(ctx.database, () =>
      ctx.app.inject({ ...options, url: `${STORES}/${id()}`, headers: { ...options.headers, ...authed(apiKey) } }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(coded('store_not_found', errors('Store not found')));
  });

  it("leaves the other account's store as it was", async () => {
    const response = await getStore(ctx, otherKey, otherAccountStore.id);
    expect(response.json()).toEqual({ data: otherAccountStore });
  });
});

// Issue 10: on the Velocity routes an unknown field is dropped (and named in Dakiya-Ignored-Fields),
// and a number where text is expected is read as its decimal text. What is still wrong after that
// is refused above.
describe('what the store routes read rather than refuse (issue 10)', () => {
  const IGNORED = 'dakiya-ignored-fields';
  const inject = (method: 'POST' | 'PUT', url: string, request: Request) =>
    ctx.app.inject({ method, url, ...request, headers: { ...request.headers, ...authed(apiKey) } });
  const created = (storeName: string, brandName: string | null = null) => ({
    id: expect.any(String),
    store_name: storeName,
    brand_name: brandName,
    channel: 'manual_order',
    status: 'connected',
    logo_url: null,
    tracking_page_url: expect.stringMatching(/^https:\/\/dakiya\.test\/track\/[0-9a-f-]{36}$/),
    support_email: null,
    support_phone: null,
    notify_events: [
      'shipped',
      'out_for_delivery',
      'delivered',
      'ndr_raised',
      'rto_delivered',
      'return_requested',
      'return_approved',
      'return_rejected',
    ],
    language: null,
    created_at: ctx.clock.now().toISOString(),
    updated_at: ctx.clock.now().toISOString(),
  });

  it.each([
    ['an unknown JSON field', json({ store_name: 'lenient-json', colour: 'red' }), 'lenient-json', 'colour'],
    [
      'an unknown multipart text part',
      form(text('store_name', 'lenient-form'), text('colour', 'red')),
      'lenient-form',
      'colour',
    ],
    [
      'an unknown multipart file part',
      form(text('store_name', 'lenient-file'), { ...logoPart(png()), name: 'image' }),
      'lenient-file',
      'image',
    ],
  ] as [string, Request, string, string][])(
    'POST with %s creates the store without it and names it',
    async (_label, request, name, ignored) => {
      const logos = await countRows(ctx.database, 'store_logos');
      const response = await inject('POST', STORES, request);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ data: created(name), warnings: [unknownField(ignored)] });
      expect(response.headers[IGNORED]).toBe(ignored);
      expect((await getStore(ctx, apiKey, response.json().data.id)).json()).toEqual({ data: response.json().data });
      // A file under another name is not taken as the logo.
      expect(await countRows(ctx.database, 'store_logos')).toBe(logos);
    },
  );

  it('POST with a number for store_name or brand_name stores its decimal text', async () => {
    const response = await inject('POST', STORES, json({ store_name: 42, brand_name: 7 }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ data: created('42', '7') });
    expect(response.headers[IGNORED]).toBeUndefined();
  });

  it('POST with a bad store_name and an unknown field: 400 for the name, the header and the body still name the field', async () => {
    const stores = await countRows(ctx.database, 'stores');
    const response = await send('POST', STORES, json({ store_name: 'my store', colour: 'red' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(withUnknown(field('store_name', NAME), unknownField('colour')));
    expect(response.headers[IGNORED]).toBe('colour');
    expect(await countRows(ctx.database, 'stores')).toBe(stores);
  });

  it('PUT with an unknown field changes only the known ones and names it (JSON and multipart)', async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'lenient-put' });
    const viaJson = await inject('PUT', `${STORES}/${store.id}`, json({ brand_name: 'Renamed', colour: 'red' }));
    expect(viaJson.statusCode, viaJson.body).toBe(200);
    expect(viaJson.json()).toEqual({ data: { ...store, brand_name: 'Renamed' }, warnings: [unknownField('colour')] });
    expect(viaJson.headers[IGNORED]).toBe('colour');
    const viaForm = await inject('PUT', `${STORES}/${store.id}`, form(text('brand_name', 'Again'), text('size', 'L')));
    expect(viaForm.statusCode, viaForm.body).toBe(200);
    expect(viaForm.json()).toEqual({ data: { ...store, brand_name: 'Again' }, warnings: [unknownField('size')] });
    expect(viaForm.headers[IGNORED]).toBe('size');
  });

  it('PUT with nothing but unknown fields changes nothing: 400, and the header names them', async () => {
    const response = await send('PUT', `${STORES}/${existing.id}`, json({ colour: 'red', size: 'L' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      withUnknown(
        errors(
          'Send at least one of store_name, brand_name, logo, support_email, support_phone, notify_events, language or status',
        ),
        unknownField('colour'),
        unknownField('size'),
      ),
    );
    expect(response.headers[IGNORED]).toBe('colour, size');
    expect((await getStore(ctx, apiKey, existing.id)).json()).toEqual({ data: existing });
  });
});
