import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TestClock } from '../../../test/app.js';
import { accessToken, admin, authed, STORES } from '../../../test/kit/http.js';
import { logoPath } from '../../../test/kit/stores.js';
import { png } from '../../../test/kit/uploads.js';
import { migratedDataDirTarball } from '../../../test/pglite-global-setup.js';
import { type App, buildApp } from '../../app.js';
import { loadSettings } from '../../settings.js';
import { type Database, openPglite } from './client.js';
import { acquireDataDirLock, DataDirLockedError, processStartTime } from './lock.js';
import { migrate } from './migrate.js';
import { openConfiguredDatabase } from './open.js';

// An embedded database on disk, opened several times: seconds, not milliseconds (the root config's
// time limits allow for that on a loaded machine). It needs no TEST_DATABASE_URL, so it lives in
// the unit project and runs once.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const execFileAsync = promisify(execFile);

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-persist-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let migrated: Promise<Blob> | undefined;
/**
 * Writes a migrated embedded database into this test's DATA_DIR, as a server's first start leaves
 * it, for the tests whose claim is the lock rather than a first start (the first test below starts
 * from an empty DATA_DIR). Made once for the file, in memory: an initdb on disk is most of a fresh
 * open's seconds, and each of these tests would otherwise pay one.
 */
async function seedMigrated(): Promise<void> {
  migrated ??= migratedDataDirTarball();
  const seeded = await openPglite(dataDir, await migrated);
  await seeded.close();
}

const lockFile = () => path.join(dataDir, 'dakiya.lock');
/** What this process writes in the lock file: its pid and, from /proc, when it started. */
const OWN_RECORD = new RegExp(`^${process.pid} \\d+$`);

/** What main.ts does, minus listening. */
async function start(clock: TestClock): Promise<{ app: App; database: Database; applied: number }> {
  const { settings } = loadSettings({ DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_BASE_URL: 'https://logos.example' });
  const database = await openConfiguredDatabase({
    ...settings.database,
    poolSize: settings.processes.databasePoolSize,
  });
  const applied = await migrate(database.db);
  const app = await buildApp({ db: database.db, clock, settings });
  return { app, database, applied };
}

async function stop({ app, database }: { app: App; database: Database }) {
  await app.close();
  await database.close();
}

describe('persistence across an app restart on the same DATA_DIR', () => {
  it('keeps accounts, credentials, stores and logos', async () => {
    const clock = new TestClock();
    const first = await start(clock);
    expect(first.database.engine).toBe('pglite');
    expect(first.applied).toBeGreaterThan(0);
    expect(fs.readFileSync(lockFile(), 'utf8')).toMatch(OWN_RECORD);

    const account = (
      await first.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        headers: admin,
        payload: { name: 'Durable', username: 'durable', password: 'durable password' },
      })
    ).json();
    const revokedKey = (
      await first.app.inject({ method: 'POST', url: `/admin/v1/accounts/${account.data.id}/api-keys`, headers: admin })
    ).json();
    await first.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${revokedKey.api_key_id}`, headers: admin });
    const logo = png(256, 42);
    const created = await first.app.inject({
      method: 'POST',
      url: STORES,
      headers: authed(account.api_key),
      payload: { store_name: 'durable-store', brand_name: 'Durable', logo: logo.toString('base64') },
    });
    expect(created.statusCode).toBe(201);
    const store = created.json().data;
    await stop(first);
    expect(fs.existsSync(lockFile())).toBe(false);

    const second = await start(clock);
    try {
      expect(second.applied).toBe(0);
      const read = await second.app.inject({
        method: 'GET',
        url: `${STORES}/${store.id}`,
        headers: authed(account.api_key),
      });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({ data: store });
      const list = await second.app.inject({
        method: 'GET',
        url: STORES,
        headers: authed(`Bearer ${account.api_key}`),
      });
      expect(list.json()).toEqual({ data: [store] });

      const served = await second.app.inject({ method: 'GET', url: logoPath(store.logo_url) });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(logo)).toBe(true);

      const revoked = await second.app.inject({ method: 'GET', url: STORES, headers: authed(revokedKey.api_key) });
      expect(revoked.statusCode).toBe(401);

      const token = await accessToken(second, 'durable', 'durable password');
      const viaToken = await second.app.inject({ method: 'GET', url: STORES, headers: authed(`Bearer ${token}`) });
      expect(viaToken.json()).toEqual({ data: [store] });

      const duplicate = await second.app.inject({
        method: 'POST',
        url: STORES,
        headers: authed(account.api_key),
        payload: { store_name: 'DURABLE-STORE' },
      });
      expect(duplicate.statusCode).toBe(422);
    } finally {
      await stop(second);
    }
  });
});

describe('the DATA_DIR lock', () => {
  const config = () => ({ ...loadSettings({ DATA_DIR: dataDir }).settings.database, poolSize: 1 });

  it('refuses a second open in this process while the first is open, and allows it after', async () => {
    await seedMigrated();
    const first = await openConfiguredDatabase(config());
    try {
      const second = openConfiguredDatabase(config());
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(
        `The embedded database in ${dataDir} is in use by another Dakiya process (pid ${process.pid}). ` +
          "Stop it first, or use that server's operator API (/admin/v1, the same commands over HTTP), which it " +
          'serves only when started with ADMIN_TOKEN set (at least 16 characters): see "First steps" in the README.',
      );
      // The failed attempt did not take the lock from its holder.
      expect(fs.readFileSync(lockFile(), 'utf8')).toMatch(OWN_RECORD);
    } finally {
      await first.close();
    }
    const again = await openConfiguredDatabase(config());
    await again.close();
  });

  it('makes the CLI in another process refuse clearly', async () => {
    const held = acquireDataDirLock(dataDir);
    try {
      // dist/ (test/build-global-setup.ts): the CLI's code, without tsx compiling it first.
      const cli = execFileAsync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'migrate'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      const failure = await cli.then(
        () => {
          throw new Error('the CLI succeeded');
        },
        (error: { code: number; stdout: string }) => error,
      );
      expect(failure.code).toBe(1);
      const message =
        `The embedded database in ${dataDir} is in use by another Dakiya process (pid ${process.pid}). ` +
        "Stop it first, or use that server's operator API (/admin/v1, the same commands over HTTP), which it " +
        'serves only when started with ADMIN_TOKEN set (at least 16 characters): see "First steps" in the README.';
      expect(JSON.parse(failure.stdout)).toEqual({
        message,
        errors: [message],
      });
    } finally {
      held.release();
    }
  });

  it.each([
    ['a process that has exited', async () => deadPid()],
    ['this process, but not held by it (a reused pid)', async () => process.pid],
    ['garbage', async () => 'not a pid'],
  ])('takes over a lock file left by %s', async (_label, owner) => {
    fs.writeFileSync(lockFile(), String(await owner()));
    const lock = acquireDataDirLock(dataDir);
    expect(fs.readFileSync(lockFile(), 'utf8')).toMatch(OWN_RECORD);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});

describe('a lock file naming a live process', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
  });

  async function sleeper(): Promise<number> {
    const child = spawn('sleep', ['60']);
    children.push(child);
    await new Promise((resolve) => child.on('spawn', resolve));
    return child.pid!;
  }

  it('is taken over when the pid now belongs to another process (another start time)', async () => {
    const pid = await sleeper();
    const started = Number(processStartTime(pid));
    expect(started).toBeGreaterThan(0);
    fs.writeFileSync(lockFile(), `${pid} ${started - 1}`);
    const lock = acquireDataDirLock(dataDir);
    expect(fs.readFileSync(lockFile(), 'utf8')).toMatch(OWN_RECORD);
    lock.release();
  });

  it('is taken over when an older lock file (a pid alone) names a process that is not Node', async () => {
    fs.writeFileSync(lockFile(), String(await sleeper()));
    acquireDataDirLock(dataDir).release();
  });

  it('is taken over when the whole start-up finds one: the server starts', async () => {
    await seedMigrated();
    const pid = await sleeper();
    fs.writeFileSync(lockFile(), `${pid} 1`);
    const started = await start(new TestClock());
    try {
      expect(fs.readFileSync(lockFile(), 'utf8')).toMatch(OWN_RECORD);
    } finally {
      await stop(started);
    }
  });

  it('still blocks while a live Dakiya process holds it', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { acquireDataDirLock } = await import(${JSON.stringify(path.join(ROOT, 'dist/base/db/lock.js'))});
         acquireDataDirLock(${JSON.stringify(dataDir)}); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    await new Promise((resolve, reject) => {
      holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve(undefined));
      holder.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${holder.pid} ${processStartTime(holder.pid!)}`);
    let caught: unknown;
    try {
      acquireDataDirLock(dataDir);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataDirLockedError);
    expect((caught as DataDirLockedError).pid).toBe(holder.pid);
    // The way out while the server runs: its operator API, which needs ADMIN_TOKEN.
    expect((caught as DataDirLockedError).message).toContain('operator API (/admin/v1');
    expect((caught as DataDirLockedError).message).toContain('started with ADMIN_TOKEN set');
    // An older lock file (pid alone) naming a live Node process blocks too.
    fs.writeFileSync(lockFile(), String(holder.pid));
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
  });
});

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}
