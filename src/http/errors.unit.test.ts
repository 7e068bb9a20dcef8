import { Type } from 'typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';
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
