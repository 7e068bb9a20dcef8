import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from './base/db/lock.js';

// The command line in a process of its own, against a data directory of this test: the code `npm run
// cli` runs, as compiled to dist/ once per run (test/build-global-setup.ts) rather than by tsx on each
// of these starts. The README's first steps, which CI runs, go through `npm run cli` itself.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_TOKEN: '' };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli.js', ...args], { env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('npm run cli', () => {
  it('prints the usage for --help (and -h) without opening the database', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout } = await cli(flag);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^usage: npm run --silent cli -- <command> \[options\]\n/);
      for (const line of [
        '  migrate',
        '  accounts create --name NAME [--username USER --password PASS]',
        '  accounts delete --account ACCOUNT_ID',
        '  accounts export --account ACCOUNT_ID --out FILE',
        '  api-keys create --account ACCOUNT_ID',
        '  api-keys revoke --key KEY_PREFIX_OR_ID',
        '  db export FILE',
        '  db import FILE',
        '  weight-reports import --account ACCOUNT_ID FILE',
        '  scans replay [--after KEPT_SCAN_ID]',
        '  retention prune',
        '  buyers erase --account ACCOUNT_ID [--phone PHONE] [--email EMAIL] [--order-id ORDER_ID]',
        '  buyers anonymise',
        '  buyers compact',
        '  carrier-tokens create --carrier CARRIER_ID',
      ]) {
        expect(stdout.split('\n')).toContain(line);
      }
    }
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('prints the usage of one command for "<command> --help"', async () => {
    const { code, stdout } = await cli('accounts', 'create', '--help');
    expect(code).toBe(0);
    expect(stdout).toBe(
      'usage: npm run --silent cli -- accounts create --name NAME [--username USER --password PASS]\n\n' +
        'Creates an account and its first API key; with a username and password it can also log in (POST /custom/api/v1/auth-token).\n',
    );
  });

  it('answers an unknown command with the usage, as JSON, exit code 1', async () => {
    const { code, stdout } = await cli('accounts', 'rename');
    expect(code).toBe(1);
    const body = JSON.parse(stdout);
    expect(body.message).toMatch(/^unknown command "accounts rename"\nusage: npm run --silent cli -- <command>/);
    expect(body.errors).toEqual([body.message]);
  });

  it("asks db export, db import and weight-reports import for exactly one FILE, with the command's usage", async () => {
    for (const args of [
      ['db', 'export'],
      ['db', 'import', 'a.sql', 'b.sql'],
    ]) {
      const { code, stdout } = await cli(...args);
      expect(code).toBe(1);
      const { message } = JSON.parse(stdout);
      expect(message).toMatch(
        new RegExp(
          `^give one FILE\nusage: npm run --silent cli -- ${args.slice(0, 2).join(' ')} FILE\n\n(Writes|Loads) `,
        ),
      );
    }
    const report = await cli('weight-reports', 'import', '--account', '5e0c9a7d-2b14-4f6e-9c83-71a4d2e6b0f9');
    expect(report.code).toBe(1);
    expect(JSON.parse(report.stdout).message).toMatch(
      /^give one FILE\nusage: npm run --silent cli -- weight-reports import --account ACCOUNT_ID FILE\n\nImports a courier's weight report/,
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses while a server holds the embedded database, naming the operator API and ADMIN_TOKEN', async () => {
    const lock = acquireDataDirLock(dataDir);
    try {
      const { code, stdout } = await cli('accounts', 'create', '--name', 'Acme Retail');
      expect(code).toBe(1);
      const { message } = JSON.parse(stdout);
      expect(message).toBe(
        `The embedded database in ${dataDir} is in use by another Dakiya process (pid ${process.pid}). Stop it first, or ` +
          "use that server's operator API (/admin/v1, the same commands over HTTP), which it serves only when started " +
          'with ADMIN_TOKEN set (at least 16 characters): see "First steps" in the README.',
      );
    } finally {
      lock.release();
    }
  });
});
