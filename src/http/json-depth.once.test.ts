import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import type { OpenApiDocument } from '../../test/fuzz-requests.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { admin, UNKNOWN_ID } from '../../test/kit/http.js';
import { issueCarrierToken } from '../../test/kit/tracking.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP } from './json-body.js';

// Issue 24, point 5: a deeply nested body (10 KB, 5,000 levels) overflowed the stack of the text
// check and answered 500 on every JSON route. Every operation of /openapi.json that takes a JSON
// body is sent one, as an array and as an object.

let ctx: TestContext;
let operations: { key: string; method: string; url: string; authorization?: string; isPublic: boolean }[];
useTestApp(async (made) => {
  ctx = made;
  const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
  const { apiKey } = await ctx.createAccount();
  const credentials: Record<string, string> = {
    credential: apiKey,
    adminToken: admin.authorization,
    carrierToken: `Bearer ${await issueCarrierToken(ctx, SHADOWFAX)}`,
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.requestBody?.content['application/json'] !== undefined)
      .map(([method, op]) => {
        const scheme = Object.keys((op.security ?? doc.security ?? [])[0] ?? {})[0];
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          url: path.replace(/\{[^}]+\}/g, UNKNOWN_ID),
          authorization: scheme ? credentials[scheme] : undefined,
          // `security: []`: a public route (the buyer's page forms), sent without a credential.
          isPublic: Array.isArray(op.security) && op.security.length === 0,
        };
      }),
  );
});

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

async function send(operation: (typeof operations)[number], payload: string) {
  return ctx.app.inject({
    method: operation.method as 'POST',
    url: operation.url,
    headers: {
      'content-type': 'application/json',
      ...(operation.authorization && { authorization: operation.authorization }),
    },
    payload,
  });
}

describe('JSON nesting depth', () => {
  it('counts nesting as JSON does: brackets inside strings and escaped quotes do not count', () => {
    expect(nestedDeeperThan(arrays(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(`{"a":"${'['.repeat(1000)}"}`, MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\"${'{'.repeat(1000)}\\\\"}`, MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(`["\\\\"${'['.repeat(70)}`, MAX_JSON_DEPTH)).toBe(true);
  });

  it('covers every operation that takes a JSON body', () => {
    // 25 when this was written; read from the document, so a new route is covered when it is added.
    expect(operations.length).toBeGreaterThanOrEqual(25);
    expect(
      operations
        .filter(
          (o) => o.authorization === undefined && !o.isPublic && !o.key.startsWith('POST /custom/api/v1/auth-token'),
        )
        .map((o) => o.key),
    ).toEqual([]);
  });

  for (const [form, body] of [
    ['arrays', arrays(10_000)],
    ['objects', objects(10_000)],
  ] as const) {
    it(`answers 400 naming the limit to 10,000 levels of ${form}, on every JSON route`, async () => {
      const wrong: string[] = [];
      for (const operation of operations) {
        const response = await send(operation, body);
        const expected = {
          code: 'json_too_deep',
          message: TOO_DEEP,
          errors: [TOO_DEEP],
          details: [{ field: 'body', message: TOO_DEEP }],
        };
        if (response.statusCode !== 400 || JSON.stringify(response.json()) !== JSON.stringify(expected)) {
          wrong.push(`${operation.key}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(TOO_DEEP).toBe('JSON body is nested too deeply: at most 64 levels of arrays and objects');
    });
  }

  it('refuses 65 levels and does not refuse 64 for depth, on every JSON route', async () => {
    const wrong: string[] = [];
    for (const operation of operations) {
      for (const payload of [arrays(MAX_JSON_DEPTH), objects(MAX_JSON_DEPTH)]) {
        const response = await send(operation, payload);
        if (response.statusCode >= 500 || response.body.includes('nested too deeply'))
          wrong.push(`${operation.key} at 64: ${response.statusCode}`);
      }
      const over = await send(operation, objects(MAX_JSON_DEPTH + 1));
      if (over.statusCode !== 400 || over.json().message !== TOO_DEEP)
        wrong.push(`${operation.key} at 65: ${over.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});
