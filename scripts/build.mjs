// Compiles src/ to dist/ for `npm start` (run by prestart): each TypeScript file to one JavaScript
// module, types stripped, nothing bundled, so dist/ keeps src/'s layout and every path relative to
// a module (data/, migrations/) resolves the same. No type-checking here: `npm run typecheck` and
// CI do that. Every start serves the code as it is on disk: dist/ is rebuilt whenever src/ differs
// from what it was built from (dist/.build-key), which takes well under a second.
//
// Several starts may build at once (a test suite, a process manager restarting): each file is
// replaced by a rename, never rewritten in place, and only when its text changed, so a process
// importing dist/ meanwhile never reads half a file.
//
// Then the merchant's panel (web/ to web/dist, scripts/build-web.mjs), cached on its sources, so
// only a first start or one after web/ changed pays for Vite. With --api-types it instead writes
// the panel's API types from the OpenAPI document (scripts/api-types.mjs), for `npm run typecheck`.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .sort();
const OPTIONS = { outdir: 'dist', outbase: 'src', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning', write: false };
// dist/ is keyed on the sources, the options and the installed esbuild, like the panel: a start with
// nothing changed reads the sources to hash them (milliseconds) and does not start esbuild at all.
const KEY_FILE = path.join('dist', '.build-key');
const key = createHash('sha256').update(JSON.stringify(OPTIONS)).update(readFileSync('package-lock.json'));
for (const file of sources) key.update(file).update('\0').update(readFileSync(path.join('src', file))).update('\0');
const digest = key.digest('hex');
let built;
try {
  built = readFileSync(KEY_FILE, 'utf8');
} catch {
  built = undefined;
}

function replace(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

if (built !== digest) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({ ...OPTIONS, entryPoints: sources.map((file) => `src/${file}`) });
  const wanted = new Set();
  for (const file of outputFiles) {
    wanted.add(file.path);
    let current;
    try {
      current = readFileSync(file.path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== file.text) replace(file.path, file.text);
  }
  // Modules whose source is gone would otherwise stay importable.
  for (const file of readdirSync('dist', { recursive: true, encoding: 'utf8' })) {
    const full = path.resolve('dist', file);
    if (file.endsWith('.js') && !wanted.has(full)) rmSync(full);
  }
  // Last, so that a build interrupted half-way is built again by the next start.
  replace(KEY_FILE, digest);
}

if (process.argv.includes('--api-types')) {
  await import('./api-types.mjs');
} else {
  const { buildPanel } = await import('./build-web.mjs');
  const started = Date.now();
  if (await buildPanel()) console.error(`dakiya: built the panel (web/ to web/dist) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
