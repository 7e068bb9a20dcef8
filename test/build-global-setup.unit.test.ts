import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runFolder } from './build-global-setup.js';

// npm test leaves the machine's temporary folder as it found it: the servers tests start log into
// the run's own folder (server-process.ts), which the run's teardown removes with its contents.

const outer = process.env.DAKIYA_TEST_TMP;
afterEach(() => {
  if (outer === undefined) delete process.env.DAKIYA_TEST_TMP;
  else process.env.DAKIYA_TEST_TMP = outer;
});

it('makes one folder for the run, which the workers find, and removes it with its logs when the run ends', () => {
  delete process.env.DAKIYA_TEST_TMP;
  const teardown = runFolder()!;
  const folder = process.env.DAKIYA_TEST_TMP!;
  expect(path.basename(folder)).toMatch(/^dakiya-test-run-/);
  // A server's log, as server-process.ts writes one.
  const log = fs.mkdtempSync(path.join(folder, 'dakiya-server-log-'));
  fs.writeFileSync(path.join(log, 'server.log'), '{"msg":"serving"}\n');
  // Another project's set-up in the same run keeps the first one's folder.
  expect(runFolder()).toBeUndefined();
  expect(process.env.DAKIYA_TEST_TMP).toBe(folder);
  teardown();
  expect(fs.existsSync(folder)).toBe(false);
  expect(process.env.DAKIYA_TEST_TMP).toBeUndefined();
});
