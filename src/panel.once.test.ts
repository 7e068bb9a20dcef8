import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/app.js';
import { createHttpServer } from './http/server.js';
import { PANEL_CSP, PANEL_DIR, panelRoutes } from './panel.js';

// How the API process serves the panel at /app: the build of web/ (made here as `npm start` makes
// it, cached), index.html never cached, hashed assets cached for a year, client routes answered
// with index.html, and the Content-Security-Policy on every answer.

let ctx: TestContext;
let script: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  script = readdirSync(`${PANEL_DIR}assets`).find((f) => f.endsWith('.js'))!;
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('GET /app', () => {
  it('answers index.html, never cached, under the Content-Security-Policy', async () => {
    for (const url of ['/app', '/app/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toBe(PANEL_CSP);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).toContain(`src="/app/assets/${script}"`);
    }
    expect(PANEL_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('answers index.html for any client route (a reload on a shipment page works)', async () => {
    const response = await get('/app/shipments/3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f?order=ORD-1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toBe((await get('/app')).body);
  });

  it('serves hashed assets for a year, immutable, gzipped when the browser takes gzip', async () => {
    const plain = await get(`/app/assets/${script}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-security-policy']).toBe(PANEL_CSP);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(readFileSync(`${PANEL_DIR}assets/${script}`))).toBe(true);
    const gzipped = await get(`/app/assets/${script}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('404 for an asset that is not in the build, rather than index.html under a script name', async () => {
    const response = await get('/app/assets/index-00000000.js');
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('No such asset');
  });

  it('the first load stays under 300 kB of gzipped JavaScript (scripts/panel-size.mjs)', () => {
    const report = execFileSync(process.execPath, ['scripts/panel-size.mjs'], { encoding: 'utf8' });
    const gzippedKb = Number(/([\d.]+) kB gzipped/.exec(report)?.[1]);
    expect(gzippedKb).toBeGreaterThan(50);
    expect(gzippedKb).toBeLessThan(300);
  });

  it('503 saying how to build it when web/dist is missing', async () => {
    const app = createHttpServer(false);
    await panelRoutes(app, '/nonexistent/web/dist/');
    try {
      const response = await app.inject({ method: 'GET', url: '/app/shipments' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toBe(
        'The panel is not built yet: `npm start` builds it (node scripts/build.mjs), then reload this page.',
      );
    } finally {
      await app.close();
    }
  });

  it('is not part of the API: /openapi.json leaves /app and /panel/v1 out', async () => {
    const doc = (await get('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/app') || p.startsWith('/panel'))).toEqual([]);
  });
});
