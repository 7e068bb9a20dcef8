import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { html } from './http/html.js';
import type { Host } from './http/host.js';
import { panelRoutes } from './panel.js';

/** The package's name and version, read once (src/ and dist/ both sit beside package.json). */
function packageInfo(): { name: string; version: string; description: string } {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
}

/**
 * `GET /`: a small page naming the server and its version, with links to the API reference, so
 * whoever opens the server's address in a browser lands somewhere instead of a JSON 404.
 */
export function landingRoute(app: FastifyInstance) {
  const info = packageInfo();
  const title = `Dakiya ${info.version}`;
  const page = `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}main{max-width:40rem;margin:0 auto;padding:2rem 1rem}a{color:#1f4e8c}code{overflow-wrap:anywhere}</style></head>
<body><main><h1>${title}</h1><p>${info.description}</p>
<ul><li><a href="/app">The merchant's panel</a> (sign in with your username and password)</li><li><a href="/docs">API reference</a> (every route, with examples to try)</li><li><a href="/openapi.json">OpenAPI document</a></li><li><a href="/readyz">Readiness</a></li></ul>
<p>Calls go to <code>/custom/api/v1</code> with an API key; <code>npm run --silent cli -- accounts create</code> makes one.</p></main></body></html>`}`;
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
}

/** The site scope: the landing page and the panel's files. */
export function registerSite(host: Host) {
  host.routes?.add('site', landingRoute, (site: FastifyInstance) => panelRoutes(site));
}
