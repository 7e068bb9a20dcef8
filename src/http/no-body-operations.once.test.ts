import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, useTestApp } from '../../test/app.js';
import { issueCarrierToken } from '../../test/kit/tracking.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';

// Issue 46: an operation that takes no body still reads one a client sends (a DELETE or a POST with
// a body by mistake): a body that is not JSON is a 415, malformed JSON a 400, and one over the limit
// a 413, each in the error envelope. The document now says so for every such operation.

type Operation = { requestBody?: unknown; responses: Record<string, unknown>; security?: Record<string, unknown>[] };
const BODY_METHODS = ['post', 'put', 'patch', 'delete'];

let ctx: TestContext;
let credentials: Record<string, string>;
useTestApp(async (made) => {
  ctx = made;
  const { apiKey } = await ctx.createAccount('No Body');
  credentials = {
    credential: apiKey,
    adminToken: `Bearer ${ADMIN_TOKEN}`,
    carrierToken: `Bearer ${await issueCarrierToken(ctx, SHADOWFAX)}`,
  };
});

const BODIES: [string, string, string | Buffer][] = [
  ['a text/plain body', 'text/plain', 'store_name=x'],
  ['malformed JSON', 'application/json', '{"a":'],
  ['a JSON body over the 1 MiB limit', 'application/json', JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) })],
];

describe('operations that take no body, sent one anyway', () => {
  it('answer 415, 400 and 413 in the envelope, each documented', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
      security: Record<string, unknown>[];
    };
    const checked: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!BODY_METHODS.includes(method) || op.requestBody) continue;
        const scheme = Object.keys((op.security ?? doc.security)[0] ?? {})[0];
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        for (const [what, type, payload] of BODIES) {
          const response = await ctx.app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            headers: { 'content-type': type, ...(scheme && { authorization: credentials[scheme] }) },
            payload,
          });
          const key = `${method.toUpperCase()} ${path}, ${what}`;
          expect(response.statusCode, key).toBeGreaterThanOrEqual(400);
          expect(
            op.responses[String(response.statusCode)],
            `${key}: ${response.statusCode} undocumented`,
          ).toBeDefined();
          expect(response.json(), key).toMatchObject({ message: expect.any(String), errors: expect.any(Array) });
        }
        checked.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
    // Past its credential, the body is refused before anything else.
    const apiKeys = await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/api-keys',
      headers: { 'content-type': 'text/plain', authorization: credentials.credential! },
      payload: 'x',
    });
    expect(apiKeys.statusCode).toBe(415);
  });
});
