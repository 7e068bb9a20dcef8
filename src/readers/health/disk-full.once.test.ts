import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, WAREHOUSE } from '../../../test/kit/http.js';
import { warehouseBody } from '../../../test/kit/warehouses.js';
import { type Database, openPglite } from '../../base/db/client.js';
import { migrate } from '../../base/db/migrate.js';

// Issue 46: on the embedded database a full disk answered a generic 500 while /readyz said 200.
// Here the disk is a real one that fills: a tmpfs of its own, mounted for this file and unmounted
// after it (CI runs as root, as this machine does). PGlite reports the ENOSPC of its files as
// PostgreSQL does, SQLSTATE 53100 disk_full.

const MiB = 1024 * 1024;
let mountPoint: string;
let filler: string;
let database: Database | undefined;
let ctx: TestContext | undefined;
let apiKey: string;

beforeAll(async () => {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=192m', 'tmpfs', mountPoint]);
  filler = path.join(mountPoint, 'filler');
  database = await openPglite(mountPoint);
  await migrate(database.db);
  ctx = await createTestApp({ database });
  ({ apiKey } = await ctx.createAccount('Full Disk'));
}, 120_000);
afterAll(async () => {
  if (ctx) await ctx.close();
  else await database?.close();
  // Lazily, should something still hold a file open: the mount goes either way.
  execFileSync('umount', ['-l', mountPoint]);
  fs.rmdirSync(mountPoint);
});

/** Writes the filler file until the disk has no room left. */
function fillTheDisk() {
  const fd = fs.openSync(filler, 'w');
  try {
    for (const chunk of [Buffer.alloc(MiB, 1), Buffer.alloc(4096, 1), Buffer.alloc(1, 1)]) {
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  expect(fs.statfsSync(mountPoint).bavail).toBe(0);
}

const createWarehouse = (i: number) =>
  ctx!.app.inject({
    method: 'POST',
    url: WAREHOUSE,
    headers: authed(apiKey),
    payload: warehouseBody({ name: `Full disk hub ${i}` }),
  });

describe('the embedded database on a full disk', { timeout: 120_000 }, () => {
  it('answers writes 503 with Retry-After and /readyz 503; both recover once there is room', async () => {
    const ready = await ctx!.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);

    fillTheDisk();
    const message = "The database's disk is full: nothing was written; retry later";
    const notReady = await ctx!.app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBe('30');
    expect(notReady.json()).toEqual({ code: 'disk_full', message, errors: [message] });
    expect((await ctx!.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // Writes go on until a table must grow, and that one is refused: not a 500.
    let refused: Awaited<ReturnType<typeof createWarehouse>> | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const response = await createWarehouse(i);
      if (response.statusCode !== 201) refused = response;
    }
    expect(refused?.statusCode, refused?.body).toBe(503);
    expect(refused!.headers['retry-after']).toBe('30');
    expect(refused!.json()).toEqual({ code: 'disk_full', message, errors: [message] });

    // Room made: ready again, and the same request goes through, with no restart.
    fs.rmSync(filler);
    expect((await ctx!.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const written = await createWarehouse(-1);
    expect(written.statusCode, written.body).toBe(201);
  });
});
