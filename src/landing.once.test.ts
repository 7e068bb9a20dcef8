import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

it('GET / answers a small HTML page with the name, the version and links to /docs and /openapi.json, not a JSON 404', async () => {
  const response = await ctx.app.inject({ method: 'GET', url: '/' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.body).toMatch(/^<!doctype html>/);
  expect(response.body).toContain(`<title>Dakiya ${version}</title>`);
  expect(response.body).toContain(`<h1>Dakiya ${version}</h1>`);
  expect(response.body).toContain('<a href="/app">');
  expect(response.body).toContain('<a href="/docs">');
  expect(response.body).toContain('<a href="/openapi.json">');
  // Not an API route: the OpenAPI document leaves it out.
  const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, unknown>;
  };
  expect(doc.paths['/']).toBeUndefined();
});
