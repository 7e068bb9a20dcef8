import { Type } from 'typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DomainError, errorCodes, GENERIC_ERRORS, rateLimited } from '../domain/errors.js';
import { asAppError, errorHandler } from './errors.js';
import { AJV_OPTIONS } from './server.js';

// The formatter is exercised through Fastify's own Ajv, with the options app.ts uses, so the error
// objects are exactly the ones production sees.
async function validate(schema: object, body: unknown) {
  const app = Fastify({ ajv: { customOptions: AJV_OPTIONS } });
  app.setErrorHandler(errorHandler);
  app.post('/', { schema: { body: schema } }, async () => ({ ok: true }));
  const response = await app.inject({ method: 'POST', url: '/', payload: body as object });
  await app.close();
  return { status: response.statusCode, body: response.json() };
}

const Zone = Type.Union([Type.Literal('zone_a'), Type.Literal('zone_b')], { 'x-error': 'must be zone_a or zone_b' });
const Zones = Type.Union([Zone, Type.Array(Zone)], { 'x-error': 'must be a zone or a list of zones' });

describe('validation messages', () => {
  it.each([
    [
      'a union of literals with its own message',
      Type.Object({ z: Zone }),
      { z: 'zone_x' },
      'z must be zone_a or zone_b',
    ],
    [
      'a bad value inside "one or many" names what a value must be',
      Type.Object({ z: Zones }),
      { z: 'zone_x' },
      'z must be zone_a or zone_b',
    ],
    [
      'a nullable field without a message merges the branch types',
      Type.Object({ n: Type.Union([Type.String(), Type.Null()]) }),
      { n: 5 },
      'n must be of type string or null',
    ],
    ['a missing field', Type.Object({ a: Type.String() }), {}, 'a is required'],
    ['an unknown field', Type.Object({}, { additionalProperties: false }), { b: 1 }, 'b is not a known field'],
  ])('%s', async (_label, schema, body, message) => {
    const { status, body: answer } = await validate(schema, body);
    expect(status).toBe(400);
    expect(answer).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field: message.split(' ')[0], message }],
    });
  });
});

describe('a domain error as an HTTP answer', () => {
  const CODES = errorCodes({ thing_not_found: ['not_found', 'No thing has this id.'] });

  it('answers a module’s 401 with the account realm’s challenge, which every 401 carries', () => {
    const answer = asAppError(new DomainError('unauthorized', ['Invalid username or password']));
    expect([answer.statusCode, answer.headers]).toEqual([401, { 'www-authenticate': 'Bearer realm="dakiya"' }]);
  });

  it('answers a passing problem with Retry-After, and a declared code as it is', () => {
    const answer = asAppError(rateLimited('Too many', 7, GENERIC_ERRORS.rate_limited));
    expect([answer.statusCode, answer.code, answer.headers]).toEqual([429, 'rate_limited', { 'retry-after': '7' }]);
    expect(asAppError(CODES.thing_not_found.error('Thing not found')).code).toBe('thing_not_found');
  });

  it('gives a malformed path id’s 404 the code the route names (config.notFound)', async () => {
    const app = Fastify({ ajv: { customOptions: AJV_OPTIONS } });
    app.setErrorHandler(errorHandler);
    const params = Type.Object({ id: Type.String({ format: 'uuid' }) });
    app.get(
      '/things/:id',
      { schema: { params }, config: { resource: 'Thing', notFound: CODES.thing_not_found } },
      async () => ({}),
    );
    app.get('/others/:id', { schema: { params }, config: { resource: 'Other' } }, async () => ({}));
    const named = await app.inject({ method: 'GET', url: '/things/nope' });
    const generic = await app.inject({ method: 'GET', url: '/others/nope' });
    await app.close();
    expect([named.statusCode, named.json()]).toEqual([
      404,
      { code: 'thing_not_found', message: 'Thing not found', errors: ['Thing not found'] },
    ]);
    expect(generic.json()).toEqual({ code: 'not_found', message: 'Other not found', errors: ['Other not found'] });
  });
});
