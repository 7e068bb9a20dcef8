// Compiles src/ to dist/ for `npm start` (run by prestart): each TypeScript file to one JavaScript
// module, types stripped, nothing bundled, so dist/ keeps src/'s layout and every path relative to
// a module (data/, migrations/) resolves the same. No type-checking here: `npm run typecheck` and
// CI do that. It takes well under a second, so every start serves the code as it is on disk.
//
// Several starts may build at once (a test suite, a process manager restarting): each file is
// replaced by a rename, never rewritten in place, and only when its text changed, so a process
// importing dist/ meanwhile never reads half a file.
//
// Then the merchant's panel (web/ to web/dist, scripts/build-web.mjs), cached on its sources, so
// only a first start or one after web/ changed pays for Vite. With --api-types it instead writes
// the panel's API types from the OpenAPI document (scripts/api-types.mjs), for `npm run typecheck`.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const { outputFiles } = await build({
  entryPoints: sources.map((file) => `src/${file}`),
  outdir: 'dist',
  outbase: 'src',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  write: false,
});

const wanted = new Set();
for (const file of outputFiles) {
  wanted.add(file.path);
  let current;
  try {
    current = readFileSync(file.path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === file.text) continue;
  mkdirSync(path.dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.text);
  renameSync(temporary, file.path);
}
// Modules whose source is gone would otherwise stay importable.
for (const file of readdirSync('dist', { recursive: true, encoding: 'utf8' })) {
  const full = path.resolve('dist', file);
  if (file.endsWith('.js') && !wanted.has(full)) rmSync(full);
}

if (process.argv.includes('--api-types')) {
  await import('./api-types.mjs');
} else {
  const { buildPanel } = await import('./build-web.mjs');
  const started = Date.now();
  if (await buildPanel()) console.error(`dakiya: built the panel (web/ to web/dist) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
