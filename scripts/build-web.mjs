// Builds the merchant's panel (web/) into web/dist with Vite, for `npm start` (scripts/build.mjs
// calls it). Cached: the build is keyed on web/'s sources and the installed packages, and skipped
// when web/dist was built from the same ones, so only the first start (or one after web/ changed)
// pays for it. The panel's JavaScript does not depend on the generated API types (types are
// erased), so they are not part of the key: `npm run typecheck` generates and checks them.
//
// Several starts may build at once: each builds into a directory of its own and renames it into
// place, so a server never reads half a build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const WEB = path.resolve('web');
const OUT = path.join(WEB, 'dist');
const STAMP = '.build-key';
const SKIP = new Set(['dist', 'node_modules', 'schema.d.ts']);

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name) && !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? sources(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

const RELATIVE_IMPORT = /(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs'];

/**
 * The files outside web/ the panel imports (pure modules it shares with the server, such as
 * src/domain/csv.ts), and theirs in turn: a change to one must rebuild the panel too.
 */
export function sharedSources(files = sources(WEB)) {
  const shared = new Set();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop();
    if (!/\.(ts|tsx|js|mjs)$/.test(file)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const base = path.resolve(path.dirname(file), specifier.replace(/\.js$/, ''));
      const found = EXTENSIONS.map((ext) => base + ext).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
      if (!found || !path.relative(WEB, found).startsWith('..') || shared.has(found)) continue;
      shared.add(found);
      queue.push(found);
    }
  }
  return [...shared].sort();
}

export function panelBuildKey() {
  const hash = createHash('sha256');
  const own = sources(WEB);
  for (const file of [...own, ...sharedSources(own), path.resolve('package-lock.json')]) {
    hash.update(path.relative(WEB, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Builds web/ unless web/dist already holds the build of these sources; answers whether it built. */
export async function buildPanel() {
  const key = panelBuildKey();
  if (existsSync(path.join(OUT, STAMP)) && readFileSync(path.join(OUT, STAMP), 'utf8') === key) return false;
  // A production build whatever the caller's environment says (a test runner sets NODE_ENV=test,
  // which would give React's development build).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  const staging = path.join(WEB, `.dist-${process.pid}`);
  await build({ configFile: path.join(WEB, 'vite.config.ts'), logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
  writeFileSync(path.join(staging, STAMP), key);
  const old = path.join(WEB, `.dist-old-${process.pid}`);
  try {
    renameSync(OUT, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(staging, OUT);
  } catch (error) {
    // Another start put its build (of the same sources) in place between the two renames.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    rmSync(staging, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const built = await buildPanel();
  console.log(built ? `panel built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'panel up to date');
}
