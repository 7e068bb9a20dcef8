import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Compiles src/ to dist/ once per run, with the build `npm start` runs (scripts/build.mjs), before
 * any file starts: the tests that run the server as a process of its own start `node dist/…`
 * rather than compiling the sources with tsx on every start (a second of CPU each, several on a
 * loaded machine), and each `npm start` of a test then finds dist/ already current. Every project
 * lists it, so a run of one project builds too; a second build in the same run rewrites nothing.
 */
export function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}
