import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `scripts/build.mjs` writes the panel (src/ and dist/ both sit beside web/). */
export const PANEL_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

/**
 * The panel runs only its own script and styles and talks only to this origin. Styles too come
 * only from its stylesheet, so nothing injected into a page can restyle it into a phishing form.
 */
export const PANEL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names built assets by their content's hash, so a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

interface PanelFile {
  body: Buffer;
  gzipped: Buffer | undefined;
  type: string;
}

/** Every built file, read and compressed once: the whole panel is a few hundred kilobytes. */
function loadPanel(dir: string): Map<string, PanelFile> | undefined {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return undefined;
  }
  const files = new Map<string, PanelFile>();
  for (const name of names) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = readFileSync(path.join(dir, name));
    const compressible = !type.startsWith('image/png') && !type.startsWith('font/');
    files.set(name.split(path.sep).join('/'), {
      body,
      gzipped: compressible && body.length > 1024 ? gzipSync(body) : undefined,
      type,
    });
  }
  return files.has('index.html') ? files : undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, file: PanelFile, cacheControl: string) {
  reply
    .header('content-security-policy', PANEL_CSP)
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding')
    .type(file.type);
  if (file.gzipped && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(file.gzipped);
  }
  return reply.send(file.body);
}

/**
 * `/app`: the merchant's panel, a single-page app built into web/dist. Hashed assets are cached
 * for a year; index.html never, so a new build is picked up on the next load; any other path under
 * /app is a client route and gets index.html.
 */
export async function panelRoutes(app: FastifyInstance, dir = PANEL_DIR) {
  // Read on first use: a server started before the build finished serves it once it is there.
  let files: Map<string, PanelFile> | undefined;
  const handler = async (request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
    files ??= loadPanel(dir);
    if (!files) {
      return reply
        .status(503)
        .header('content-security-policy', PANEL_CSP)
        .type('text/plain; charset=utf-8')
        .send('The panel is not built yet: `npm start` builds it (node scripts/build.mjs), then reload this page.');
    }
    const wanted = request.params['*'] ?? '';
    const asset = files.get(wanted);
    if (asset && wanted !== 'index.html')
      return send(request, reply, asset, wanted.startsWith('assets/') ? IMMUTABLE : 'no-cache');
    if (wanted.startsWith('assets/')) {
      return reply
        .status(404)
        .header('content-security-policy', PANEL_CSP)
        .type('text/plain; charset=utf-8')
        .send('No such asset');
    }
    return send(request, reply, files.get('index.html')!, 'no-store');
  };
  app.get('/app', { schema: { hide: true } }, handler);
  app.get('/app/*', { schema: { hide: true } }, handler);
}
