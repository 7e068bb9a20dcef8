import { PERMISSION_NAMES } from './domain/access/permissions.js';
import { ERROR_CODES } from './error-codes.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.js';
import { admin, authed, STORES, UNKNOWN_ID, UUID } from '../test/kit/http.js';
import { createStore } from '../test/kit/stores.js';
import { multipart, png } from '../test/kit/uploads.js';

let ctx: TestContext;
let apiKey: string;
let logoPath: string;
beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('App Tester')).apiKey;
  const store = await createStore(ctx, apiKey, { store_name: 'headers', logo: png().toString('base64') });
  logoPath = new URL(store.logo_url!).pathname;
});
afterAll(async () => {
  await ctx.close();
});

describe('health', () => {
  it.each(['/healthz', '/readyz'])('%s answers 200 {status: "ok"} without a credential', async (url) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('schemas compiled on first use', () => {
  it("every route's validators and serializers compile, and a route answers the same after", async () => {
    const before = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) });
    expect(ctx.app.schemaWarmer.warm()).toEqual({ left: 0, failures: [] });
    const after = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(before.body);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      headers: authed(apiKey),
      payload: { store_name: 'my store' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.map((d: { field: string }) => d.field)).toEqual(['store_name']);
  });
});

describe('X-Request-Id', () => {
  const requests: [string, () => InjectOptions, number][] = [
    ['a health check', () => ({ method: 'GET', url: '/healthz' }), 200],
    ['a store list', () => ({ method: 'GET', url: STORES, headers: authed(apiKey) }), 200],
    [
      'a creation',
      () => ({ method: 'POST', url: STORES, headers: authed(apiKey), payload: { store_name: 'request-id' } }),
      201,
    ],
    [
      'a refused multipart creation',
      () => ({ method: 'POST', url: STORES, ...multipart(apiKey, [{ name: 'store_name', value: 'bad name' }]) }),
      400,
    ],
    ['a public logo', () => ({ method: 'GET', url: logoPath }), 200],
    ['a missing credential', () => ({ method: 'GET', url: STORES }), 401],
    ['an unknown store', () => ({ method: 'GET', url: `${STORES}/${UNKNOWN_ID}`, headers: authed(apiKey) }), 404],
    [
      "an unknown shipment's label",
      () => ({ method: 'GET', url: `/custom/api/v1/shipments/${UNKNOWN_ID}/label`, headers: authed(apiKey) }),
      404,
    ],
    ['an unknown route', () => ({ method: 'GET', url: '/nowhere' }), 404],
    [
      'malformed JSON',
      () => ({
        method: 'POST',
        url: STORES,
        headers: { ...authed(apiKey), 'content-type': 'application/json' },
        payload: '{',
      }),
      400,
    ],
    [
      'an unsupported content type',
      () => ({
        method: 'POST',
        url: STORES,
        headers: { ...authed(apiKey), 'content-type': 'text/plain' },
        payload: 'x',
      }),
      415,
    ],
    [
      'a body over the limit',
      () => ({
        method: 'POST',
        url: STORES,
        headers: { ...authed(apiKey), 'content-type': 'application/json' },
        payload: `"${'x'.repeat(3 * 1024 * 1024)}"`,
      }),
      413,
    ],
    [
      'an operator request',
      () => ({ method: 'POST', url: '/admin/v1/accounts', headers: admin, payload: { name: 'Rid' } }),
      201,
    ],
    ['a malformed URL', () => ({ method: 'GET', url: `${STORES}/%E0%A4%A` }), 400],
  ];

  it.each(requests)('is on every response: %s', async (_label, request, status) => {
    const response = await ctx.app.inject(request());
    expect(response.statusCode).toBe(status);
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('is a new id for each request', async () => {
    const ids = new Set<unknown>();
    for (let i = 0; i < 5; i++)
      ids.add((await ctx.app.inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']);
    expect(ids.size).toBe(5);
  });

  it.each(['abc-123', 'trace.2026-11-20:0001', 'A'.repeat(128)])('echoes a sane incoming id: %s', async (id) => {
    for (const request of [
      { method: 'GET' as const, url: '/healthz' },
      { method: 'GET' as const, url: STORES },
      { method: 'GET' as const, url: `${STORES}/%E0%A4%A` },
    ]) {
      const response = await ctx.app.inject({ ...request, headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toBe(id);
    }
  });

  it.each(['has space', 'semi;colon', 'A'.repeat(129), ''])(
    'replaces an unsafe incoming id %j with its own',
    async (id) => {
      const response = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toMatch(UUID);
    },
  );
});

describe('routing errors use the error envelope', () => {
  it('answers an unknown route with 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/custom/api/v1/nothing-here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 'route_not_found',
      message: 'Route GET /custom/api/v1/nothing-here not found',
      errors: ['Route GET /custom/api/v1/nothing-here not found'],
    });
  });

  it('answers a path parameter over 100 characters with 414', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${STORES}/${'a'.repeat(101)}`,
      headers: authed(apiKey),
    });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({
      code: 'uri_too_long',
      message: 'A path parameter is too long',
      errors: ['A path parameter is too long'],
    });
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('answers a URL that cannot be decoded with 400', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${STORES}/%E0%A4%A`, headers: authed(apiKey) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'malformed_url',
      message: 'Malformed URL: invalid percent-encoding',
      errors: ['Malformed URL: invalid percent-encoding'],
    });
  });
});

type Json = Record<string, unknown>;
const entries = (value: unknown) => Object.entries((value ?? {}) as Record<string, Json>);

/** Every Schema Object of an OpenAPI document, with where it sits. */
function schemaObjects(spec: Json): [string, Json][] {
  const found: [string, Json][] = entries((spec.components as Json).schemas).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ]);
  const fromContent = (where: string, content: unknown) => {
    for (const [type, media] of entries(content))
      if (media.schema) found.push([`${where} ${type}`, media.schema as Json]);
  };
  for (const [name, header] of entries((spec.components as Json).headers))
    found.push([`components.headers.${name}`, header.schema as Json]);
  for (const [path, methods] of entries(spec.paths)) {
    for (const [method, operation] of entries(methods)) {
      const where = `${method} ${path}`;
      for (const parameter of (operation.parameters ?? []) as Json[])
        found.push([`${where} ${parameter.name}`, parameter.schema as Json]);
      fromContent(`${where} body`, (operation.requestBody as Json | undefined)?.content);
      for (const [code, response] of entries(operation.responses)) fromContent(`${where} ${code}`, response.content);
    }
  }
  return found;
}

describe('OpenAPI and docs', () => {
  // path → method → the response codes documented for it.
  const expected: Record<string, Record<string, string[]>> = {
    '/healthz': { get: ['200'] },
    '/readyz': { get: ['200', '503'] },
    '/custom/api/v1/auth-token': {
      post: ['200', '400', '401', '413', '415', '429', '503'],
      delete: ['200', '400', '401', '403', '413', '415', '422', '429', '503'],
    },
    '/custom/api/v1/client-stores': {
      get: ['200', '401', '403', '429', '503'],
      post: ['201', '400', '401', '403', '413', '415', '422', '429', '503'],
    },
    '/custom/api/v1/client-stores/{id}': {
      get: ['200', '400', '401', '403', '404', '414', '429', '503'],
      put: ['200', '400', '401', '403', '404', '413', '414', '415', '422', '429', '503'],
      delete: ['200', '400', '401', '403', '404', '413', '414', '415', '429', '503'],
    },
    '/public/v1/store-logos/{id}': { get: ['200', '304', '400', '404', '414', '503'] },
    '/t/{token}': { get: ['200', '400', '404', '414', '429', '503'] },
    '/t/{token}.json': { get: ['200', '400', '404', '414', '429', '503'] },
    '/custom/api/v1/rates': { post: ['200', '400', '401', '403', '413', '415', '429', '503'] },
    '/custom/api/v1/serviceability': { post: ['200', '400', '401', '403', '413', '415', '429', '503'] },
    '/custom/api/v1/carriers': { get: ['200', '401', '403', '429', '503'] },
    '/custom/api/v1/order': { put: ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503'] },
    '/custom/api/v1/reports': { post: ['200', '400', '401', '403', '413', '415', '429', '503'] },
    '/custom/api/v1/returns': { post: ['200', '400', '401', '403', '413', '415', '429', '503'] },
    '/custom/api/v1/exchange-orders': { post: ['200', '400', '401', '403', '413', '415', '429', '503'] },
    '/custom/api/v1/events': { get: ['200', '400', '401', '403', '429', '503'] },
    '/custom/api/v1/webhooks': {
      get: ['200', '401', '403', '429', '503'],
      post: ['201', '400', '401', '403', '413', '415', '429', '503'],
    },
    '/custom/api/v1/webhooks/{id}': {
      get: ['200', '400', '401', '403', '404', '414', '429', '503'],
      put: ['200', '400', '401', '403', '404', '413', '414', '415', '429', '503'],
      delete: ['200', '400', '401', '403', '404', '413', '414', '415', '429', '503'],
    },
    '/custom/api/v1/webhooks/{id}/rotate-secret': {
      post: ['200', '400', '401', '403', '404', '413', '414', '415', '429', '503'],
    },
    '/custom/api/v1/webhooks/{id}/test': {
      post: ['202', '400', '401', '403', '404', '413', '414', '415', '422', '429', '503'],
    },
    '/custom/api/v1/webhooks/{id}/deliveries': { get: ['200', '400', '401', '403', '404', '414', '429', '503'] },
    '/custom/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
      post: ['202', '400', '401', '403', '404', '413', '414', '415', '422', '429', '503'],
    },
    '/custom/api/v1/shipments/{id}/notifications': { get: ['200', '400', '401', '403', '404', '414', '429', '503'] },
    '/admin/v1/accounts': { post: ['201', '400', '401', '413', '415', '422', '503'] },
    '/admin/v1/accounts/{id}/api-keys': { post: ['201', '400', '401', '404', '413', '414', '415', '503'] },
    '/admin/v1/api-keys/{key_prefix_or_id}': { delete: ['200', '400', '401', '404', '413', '414', '415', '503'] },
    '/custom/api/v1/reattempt': { post: ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503'] },
    '/custom/api/v1/initiate-rto': {
      post: ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '503'],
    },
    '/carrier/v1/actions': { get: ['200', '400', '401', '503'] },
    '/carrier/v1/actions/{id}/ack': { post: ['200', '400', '401', '404', '413', '414', '415', '503'] },
  };

  it('/openapi.json documents every route with its error responses in the error envelope', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: ['code', 'message', 'errors'],
      properties: {
        // Every code an answer can carry is listed (docs/errors.md says what each means).
        code: { type: 'string', enum: ERROR_CODES.map((c) => c.code) },
        message: { type: 'string' },
        errors: { type: 'array', items: { type: 'string' } },
        details: { type: 'array', items: { type: 'object', required: ['field', 'message'] } },
      },
    });
    for (const [path, methods] of Object.entries(expected)) {
      expect(spec.paths, path).toHaveProperty([path]);
      for (const [method, codes] of Object.entries(methods)) {
        const operation = spec.paths[path][method];
        expect(Object.keys(operation.responses).sort(), `${method} ${path}`).toEqual(codes);
        for (const code of codes.filter((c) => Number(c) >= 400)) {
          expect(operation.responses[code].content['application/json'].schema).toEqual({
            $ref: '#/components/schemas/ErrorBody',
          });
        }
      }
    }
  });

  it('documents, on every route, the errors any route of its kind can answer, each in the error envelope', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    type Operation = {
      requestBody?: unknown;
      security?: unknown[];
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    const operations = Object.entries<Record<string, Operation>>(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const { route, operation } of operations) {
      const codes = Object.keys(operation.responses);
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        expect(operation.responses[code]?.content?.['application/json']?.schema, `${route} ${code}`).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
      }
      // Any body can be malformed (400), too large (413) or of another type (415).
      if (operation.requestBody) expect(codes, route).toEqual(expect.arrayContaining(['400', '413', '415']));
      // Only the routes that opt out of the credential scheme can skip 401.
      if (operation.security?.length !== 0) expect(codes, route).toContain('401');
      // Every account route is limited per account, and the login per username and address.
      if (route.includes(' /custom/api/v1/')) expect(codes, route).toContain('429');
      // Every account route needs a permission (src/route-permissions.ts): named, with its 403.
      const permission = (operation as { 'x-permission'?: string })['x-permission'];
      if (route.includes(' /custom/api/v1/') && operation.security?.length !== 0) {
        expect(PERMISSION_NAMES, route).toContain(permission);
        expect(codes, route).toContain('403');
      }
    }
  });

  it('documents both shapes of a rate quote: forward entries with flags and COD, return entries with QC', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = spec.paths['/custom/api/v1/rates'].post;
    expect(Object.keys(operation.requestBody.content['application/json'].schema.properties)).toEqual([
      'journey_type',
      'origin_pincode',
      'destination_pincode',
      'dead_weight',
      'length',
      'width',
      'height',
      'payment_method',
      'shipment_value',
      'qc_applicable',
      'packages',
    ]);
    const [forward, back] = operation.responses['200'].content['application/json'].schema.anyOf;
    const entryKeys = (shape: {
      properties: { result: { properties: Record<string, { items?: { properties: object }; properties: object }> } };
    }) => {
      const { serviceable_couriers: couriers, shipment_details: details } = shape.properties.result.properties;
      const entry = couriers!.items!.properties as Record<string, { properties: object }>;
      return {
        entry: Object.keys(entry),
        charges: Object.keys(entry.charges!.properties),
        details: Object.keys(details!.properties),
      };
    };
    const common = ['carrier_id', 'carrier_name', 'carrier_code', 'service_level', 'status'];
    // A multi-piece quote's (packages) extras close each list.
    const weights = ['dead_weight', 'volumetric_weight', 'applicable_weight', 'zone', 'box_count'];
    const boxes = ['multi_piece_charge', 'boxes'];
    expect(entryKeys(forward)).toEqual({
      entry: [...common, 'is_fast', 'is_prime', 'platform_fee', 'expected_delivery', 'charges', ...boxes],
      charges: ['forward_freight_charges', 'cod_charges', 'rto_charges', 'total_forward_charges'],
      details: ['journey_type', 'origin_pincode', 'destination_pincode', 'payment_method', ...weights],
    });
    expect(entryKeys(back)).toEqual({
      entry: [...common, 'expected_delivery', 'charges', ...boxes],
      charges: ['return_freight_charges', 'qc_charges', 'total_return_charges'],
      details: ['journey_type', 'origin_pincode', 'destination_pincode', ...weights],
    });
  });

  it('documents both request encodings of the store routes and which routes need no credential', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const operation of [
      spec.paths['/custom/api/v1/client-stores'].post,
      spec.paths['/custom/api/v1/client-stores/{id}'].put,
    ]) {
      expect(Object.keys(operation.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
      expect(operation.requestBody.content['multipart/form-data'].schema.properties.logo).toMatchObject({
        type: 'string',
        format: 'binary',
      });
    }
    expect(spec.paths['/custom/api/v1/auth-token'].post.security).toEqual([]);
    expect(spec.paths['/public/v1/store-logos/{id}'].get.security).toEqual([]);
    expect(spec.paths['/admin/v1/accounts'].post.security).toEqual([{ adminToken: [] }]);
    expect(spec.security).toEqual([{ credential: [] }]);
    expect(spec.paths).not.toHaveProperty(['/openapi.json']);
  });

  it('says an account makes its own API keys, not that they come only from the operator', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const auth = spec.tags.find((tag: { name: string }) => tag.name === 'Auth');
    expect(auth.description).toBe(
      "Access tokens from a username and password. API keys: the operator's first one for a new account, then your own " +
        '(POST /api-keys, or Settings › API keys in the panel).',
    );
    expect(JSON.stringify(spec)).not.toContain('API keys come from the operator');
    // The routes it names are documented, for the account's own credential.
    expect(Object.keys(spec.paths['/custom/api/v1/api-keys']).sort()).toEqual(['get', 'post']);
    expect(spec.paths['/custom/api/v1/api-keys'].post.security).toBeUndefined();
    expect(spec.paths['/custom/api/v1/api-keys/{id}'].delete.summary).toBe("Revoke one of the account's API keys");
  });

  it('documents Dakiya-Ignored-Fields on every answer of a /custom/api/v1 route that takes a body, and nowhere else', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(spec.components.headers.IgnoredFields).toMatchObject({
      schema: { type: 'string' },
      example: 'idempotency_key, order_items.0.colour',
    });
    type Operation = { requestBody?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> };
    const lenient: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, Operation>>(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const documented = path.startsWith('/custom/api/v1/') && operation.requestBody !== undefined;
        if (documented) lenient.push(`${method} ${path}`);
        for (const [code, response] of Object.entries(operation.responses)) {
          const header = response.headers?.['Dakiya-Ignored-Fields'];
          expect(header, `${method} ${path} ${code}`).toEqual(
            documented ? { $ref: '#/components/headers/IgnoredFields' } : undefined,
          );
        }
      }
    }
    expect(lenient).toEqual(
      expect.arrayContaining([
        'post /custom/api/v1/rates',
        'post /custom/api/v1/client-stores',
        'put /custom/api/v1/client-stores/{id}',
      ]),
    );
  });

  it('is a valid OpenAPI 3.1 document whose every schema is valid JSON Schema 2020-12', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const validator = new Validator();
    const result = await validator.validate(spec);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The 3.1 meta-schema leaves Schema Objects unchecked (draft-04 tuples pass it), so each is checked
    // against JSON Schema 2020-12, the dialect an OpenAPI 3.1 document declares.
    const ajv = new Ajv2020({ strict: false });
    const invalid = schemaObjects(spec)
      .filter(([, schema]) => !ajv.validateSchema(schema))
      .map(([where]) => `${where}: ${ajv.errorsText(ajv.errors)}`);
    expect(invalid, invalid.join('\n')).toEqual([]);
  });

  it('/docs serves Swagger UI', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<title>Swagger UI</title>');
  });
});
