import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
  return runFolder();
}

/**
 * A temporary folder for the whole run (DAKIYA_TEST_TMP, which the test workers inherit), where the
 * servers that tests start write their logs (server-process.ts); removed with everything in it when
 * the run ends, so `npm test` leaves the machine's temporary folder as it found it. The first
 * project's set-up makes it; the others find it made.
 */
export function runFolder(): (() => void) | undefined {
  if (process.env.DAKIYA_TEST_TMP) return undefined;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-test-run-'));
  process.env.DAKIYA_TEST_TMP = folder;
  return () => {
    fs.rmSync(folder, { recursive: true, force: true });
    delete process.env.DAKIYA_TEST_TMP;
  };
}
