import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { exportEmbedded, importIntoPostgres, TransferError } from '../src/base/db/transfer.js';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from './databases.js';
import { ROOT, type ServerProcess, startServerProcess } from './server-process.js';
import { until } from './webhook-receiver.js';

/**
 * Moving from the embedded database to PostgreSQL, as an operator does: a server on PGlite books
 * real data through HTTP, `npm run cli -- db export` dumps its data directory once it is stopped,
 * `db import` loads the file into an empty PostgreSQL database, and a server started there answers
 * with the same records: the account signs in with its API key and its password, label links handed
 * out before still open (the server secrets moved), and new bookings follow the old ones (the
 * sequences moved).
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const ADMIN_TOKEN = 'move-test-operator-token-0123456789';
/** The same on both servers, so that the links in the answers are the same. */
const COMMON_ENV = {
  PUBLIC_BASE_URL: 'http://dakiya.move.test',
  SANDBOX_STEP_SECONDS: '0.2',
  TRACKING_POLL_SECONDS: '0.2',
  // Nothing is delivered (the endpoint is a closed local port), so the deliveries stay as they were.
  WEBHOOK_WORKER: 'false',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

interface CliRun {
  code: number | null;
  output: Record<string, unknown>;
}

/** `npm run --silent cli -- <args>`, as an operator types it, in `cwd` (the checkout's folder, or another with `--prefix`). */
async function cli(args: string[], env: Record<string, string>, cwd = ROOT): Promise<CliRun> {
  const child = spawn('npm', ['--prefix', ROOT, 'run', '--silent', 'cli', '--', ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output: JSON.parse(stdout) as Record<string, unknown> };
}

/** The fields of the answers this test reads. */
interface Answer {
  api_key: string;
  token: string;
  payload: { warehouse_id: string; shipment_id: string; awb_code: string; label_url: string };
  data: (Record<string, unknown> & { attributes: { status: string } })[];
  meta: { next_after: string };
}

async function call(server: ServerProcess, credential: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: credential, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ env: { ...COMMON_ENV, ...env }, timeoutMs: 240_000 });
  cleanups.push(async () => {
    if (server.running()) await server.stop(30_000);
  });
  return server;
}

const order = (warehouseId: string, orderId: string) => ({
  store_name: 'move-apparel',
  order_id: orderId,
  order_date: '2026-11-20 14:30',
  billing_customer_name: 'Priya',
  billing_last_name: 'Sharma',
  billing_address: '42, 5th Cross, Koramangala 4th Block',
  billing_city: 'Bengaluru',
  billing_pincode: '560034',
  billing_state: 'Karnataka',
  billing_country: 'India',
  billing_phone: '9123456780',
  billing_email: 'priya@example.com',
  shipping_is_billing: true,
  print_label: true,
  order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 1299 }],
  payment_method: 'COD',
  sub_total: 1299,
  cod_collectible: 1299,
  length: 20,
  breadth: 15,
  height: 10,
  weight: 0.5,
  warehouse_id: warehouseId,
});

/**
 * What the account sees through the API: compared before and after the move. A label link is
 * signed afresh for each answer, valid for a day from then: its path is the record.
 */
async function snapshot(server: ServerProcess, key: string) {
  const seen = {
    stores: (await call(server, key, 'GET', '/custom/api/v1/client-stores')).body,
    warehouses: (await call(server, key, 'GET', '/custom/api/v1/warehouses')).body,
    shipments: (await call(server, key, 'POST', '/custom/api/v1/shipments', {})).body,
    events: (await call(server, key, 'GET', '/custom/api/v1/events?limit=100')).body,
    webhooks: (await call(server, key, 'GET', '/custom/api/v1/webhooks')).body,
  };
  return JSON.parse(JSON.stringify(seen).replace(/\?expires=\d+&signature=[\w-]+/g, '?expires=…')) as typeof seen;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describePostgresOnly('moving from the embedded database to PostgreSQL', {}, () => {
  it('db export, then db import: the server on PostgreSQL answers with every record booked on PGlite', {
    timeout: 900_000,
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-move-'));
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-move-files-'));
    cleanups.push(async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(work, { recursive: true, force: true });
    });

    // --- On the embedded database: an account, a store, a warehouse, a webhook, three parcels delivered by the sandbox.
    const embedded = await start({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_TOKEN });
    const created = await call(embedded, `Bearer ${ADMIN_TOKEN}`, 'POST', '/admin/v1/accounts', {
      name: 'Move Retail',
      username: 'move-retail',
      password: 's3cret-pass',
    });
    expect(created.status).toBe(201);
    const key = created.body.api_key;
    expect(
      (
        await call(embedded, key, 'POST', '/custom/api/v1/client-stores', {
          store_name: 'move-apparel',
          brand_name: 'Move Apparel',
        })
      ).status,
    ).toBe(201);
    const warehouse = await call(embedded, key, 'POST', '/custom/api/v1/warehouse', {
      name: 'Move Hub',
      phone_number: '9876543210',
      address_attributes: {
        street_address: 'Plot 14, Okhla Industrial Estate Phase 3',
        zip: '110020',
        city: 'New Delhi',
        state: 'Delhi',
        country: 'India',
      },
    });
    expect(warehouse.status).toBe(201);
    const warehouseId = warehouse.body.payload.warehouse_id;
    const webhook = await call(embedded, key, 'POST', '/custom/api/v1/webhooks', {
      url: 'http://127.0.0.1:9/dakiya',
      events: ['*'],
    });
    expect(webhook.status).toBe(201);
    const booked = [];
    for (const orderId of ['MOVE-10', 'MOVE-11', 'MOVE-12']) {
      const answer = await call(
        embedded,
        key,
        'POST',
        '/custom/api/v1/forward-order-orchestration',
        order(warehouseId, orderId),
      );
      expect(answer.status).toBe(200);
      booked.push(answer.body.payload);
    }
    // The sandbox delivers orders ending in 0 to 5: booked, picked up, in transit, out for delivery, delivered.
    for (let waited = 0; ; waited += 200) {
      const listed = await call(embedded, key, 'POST', '/custom/api/v1/shipments', {});
      const statuses = listed.body.data.map((s) => s.attributes.status);
      if (statuses.length === 3 && statuses.every((s) => s === 'delivered')) break;
      if (waited > 120_000) throw new Error(`not delivered: ${statuses.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const before = await snapshot(embedded, key);
    expect(before.shipments.data).toHaveLength(3);
    expect(before.events.data.length).toBeGreaterThanOrEqual(15);

    // --- Export: refused while the server holds the data directory, then done once it is stopped.
    const file = path.join(work, 'dakiya.sql');
    const refused = await cli(['db', 'export', 'dakiya.sql'], { DATA_DIR: dataDir }, work);
    expect(refused.code).toBe(1);
    expect(refused.output.message).toBe(
      `the embedded database in ${dataDir} is in use by a running Dakiya process (pid ${embedded.serverPid}): stop it, then export. ` +
        'Only one process may open the directory, and a copy of it taken while the server writes could be inconsistent',
    );
    expect(fs.existsSync(file)).toBe(false);
    expect(await embedded.stop(60_000)).toEqual({ serverExited: true, exitCode: 0 });

    // A relative FILE is where the operator runs npm, not the package's folder. The export reads
    // DATA_DIR even with DATABASE_URL set (here a server that is not there), so that one environment
    // serves both commands.
    const exported = await cli(
      ['db', 'export', 'dakiya.sql'],
      { DATA_DIR: dataDir, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' },
      work,
    );
    expect(exported.code).toBe(0);
    const rows = exported.output.rows as Record<string, number>;
    expect(exported.output).toMatchObject({ exported: file, data_dir: dataDir, bytes: fs.statSync(file).size });
    expect(rows).toMatchObject({
      accounts: 1,
      api_keys: 1,
      stores: 1,
      warehouses: 1,
      webhook_endpoints: 1,
      orders: 3,
      shipments: 3,
      server_secrets: expect.any(Number),
    });
    expect(rows.tracking_events).toBeGreaterThanOrEqual(12);
    expect(rows.dakiya_migrations).toBe(
      fs.readdirSync(path.join(ROOT, 'migrations')).filter((name) => name.endsWith('.sql')).length,
    );
    // Credentials' hashes, secrets and addresses: for its owner's eyes only.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // The other refusals, in process (the command line prints the same message, as above).
    await expect(exportEmbedded(dataDir, file)).rejects.toThrow(
      new TransferError(`${file} already exists: name a new file`),
    );
    const empty = path.join(work, 'no-database');
    await expect(exportEmbedded(empty, path.join(work, 'other.sql'))).rejects.toThrow(
      new TransferError(
        `DATA_DIR ${empty} holds no embedded database (no ${path.join(empty, 'pglite')}): nothing to export`,
      ),
    );
    expect(fs.existsSync(empty)).toBe(false);

    // --- Import: refused without DATABASE_URL or the file; done into an empty database with psql (present here).
    const unset =
      'db import loads into the PostgreSQL database DATABASE_URL names (postgres://…), and DATABASE_URL is not set';
    expect(await cli(['db', 'import', file], {})).toEqual({ code: 1, output: { message: unset, errors: [unset] } });
    const target = await createEmptyDatabase('moved');
    cleanups.push(target.drop);
    const missing = path.join(work, 'missing.sql');
    await expect(importIntoPostgres(target.url, missing, { psql: 'psql', env: process.env })).rejects.toThrow(
      new TransferError(`${missing}: no such file`),
    );

    const serverVersion = await withAdminClient(
      async (client) =>
        (await client.query<{ v: number }>(`select current_setting('server_version_num')::int as v`)).rows[0]!.v,
    );
    const imported = await cli(['db', 'import', file], { DATABASE_URL: target.url });
    expect(imported).toEqual({
      code: 0,
      output: {
        imported: file,
        database: new URL(target.url).pathname.slice(1),
        loaded_with: 'psql',
        // PGlite's pg_dump is PostgreSQL 18's; older servers do not know this setting of its preamble.
        settings_skipped: serverVersion < 170000 ? ['transaction_timeout'] : [],
        rows,
        migrations_applied: 0,
      },
    });
    await expect(importIntoPostgres(target.url, file, { psql: 'psql', env: process.env })).rejects.toThrow(
      /^database \w+ is not empty \(\d+ tables and sequences in its public schema: access_tokens, \w+, \w+, …\): import only into a new, empty database \(createdb\), before any Dakiya server has started on it$/,
    );

    // --- Without psql, through the pg client, an export from an embedded database whose transaction ids
    // ran far ahead of this server's: every event is final at once and new ones sort after it.
    const text = fs.readFileSync(file, 'utf8');
    const ahead = path.join(work, 'ahead.sql');
    const farAhead = (txid: string) => String(BigInt(txid) + 10n ** 12n);
    fs.writeFileSync(
      ahead,
      text
        .replace(
          /^(INSERT INTO public\.events (?:OVERRIDING SYSTEM VALUE )?VALUES \(.*, ')(\d+)(', \d+\);)$/gm,
          (_, head, txid, tail) => `${head}${farAhead(txid)}${tail}`,
        )
        .replace(
          /^(INSERT INTO public\.event_consumers VALUES \('[^']*', ')(\d+)(')/gm,
          (_, head, txid, tail) => `${head}${farAhead(txid)}${tail}`,
        ),
    );
    expect(fs.readFileSync(ahead, 'utf8').match(/'10{5,}\d+', \d+\);$/gm)).toHaveLength(rows.events!);
    const second = await createEmptyDatabase('moved_pg');
    cleanups.push(second.drop);
    expect(await importIntoPostgres(second.url, ahead, { psql: undefined })).toMatchObject({
      loadedWith: 'pg',
      rows,
      migrationsApplied: 0,
    });
    // A transaction still open anywhere on the server (another test file's) holds back what came after
    // it, the moved events too, until it ends; never, had they kept the embedded database's ids.
    const logState = () =>
      withClient(second.url, async (client) => {
        const {
          rows: [state],
        } = await client.query(`
          select (select count(*)::int from events where txid < pg_snapshot_xmin(pg_current_snapshot())) as settled,
                 (select array_agg(position order by txid, position) = array_agg(position order by position) from events) as in_order,
                 (select count(*)::int from event_consumers where after_txid > (select max(txid) from events)) as cursors_ahead,
                 (select max(txid) from events) < pg_current_xact_id() as new_ones_after`);
        return state as { settled: number };
      });
    let log = await logState();
    for (const until = Date.now() + 60_000; log.settled < rows.events! && Date.now() < until; log = await logState()) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(log).toEqual({ settled: rows.events, in_order: true, cursors_ahead: 0, new_ones_after: true });

    // A file whose counts do not match the rows it loads, or cut short, loads nothing.
    const third = await createEmptyDatabase('moved_bad');
    cleanups.push(third.drop);
    const tampered = path.join(work, 'tampered.sql');
    fs.writeFileSync(tampered, text.replace('"accounts":1,', '"accounts":2,'));
    for (const psql of ['psql', undefined]) {
      const error = await importIntoPostgres(third.url, tampered, { psql, env: process.env }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TransferError);
      expect((error as Error).message).toMatch(
        /^the import stopped, and nothing was imported: .*table accounts: 1 rows loaded, 2 exported/,
      );
      expect(
        await withClient(
          third.url,
          async (client) =>
            (await client.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0].n,
        ),
      ).toBe(0);
    }
    const cut = path.join(work, 'cut.sql');
    fs.writeFileSync(cut, text.slice(0, text.length / 2));
    await expect(importIntoPostgres(third.url, cut, { psql: undefined })).rejects.toThrow(
      `${cut} is not a whole Dakiya export (made by npm run cli -- db export): its last line is missing or damaged`,
    );

    // --- The server on PostgreSQL: the same records, the same sign-ins, links and sequences.
    const moved = await start({ DATABASE_URL: target.url, DATA_DIR: '' });
    expect(await snapshot(moved, key)).toEqual(before);
    const login = await call(moved, '', 'POST', '/custom/api/v1/auth-token', {
      username: 'move-retail',
      password: 's3cret-pass',
    });
    expect(login.status).toBe(200);
    const label = await fetch(booked[0]!.label_url.replace(COMMON_ENV.PUBLIC_BASE_URL, moved.url));
    expect(label.status).toBe(200);
    expect(label.headers.get('content-type')).toBe('application/pdf');
    const next = await call(
      moved,
      `Bearer ${login.body.token}`,
      'POST',
      '/custom/api/v1/forward-order-orchestration',
      order(warehouseId, 'MOVE-13'),
    );
    expect(next.status).toBe(200);
    const lastPosition = before.events.meta.next_after;
    // The feed shows the booking's events once no older transaction is open anywhere on the server.
    const eventsAfter = () =>
      call(moved, key, 'GET', `/custom/api/v1/events?after=${encodeURIComponent(lastPosition)}`);
    await until(async () => (await eventsAfter()).body.data.length > 0, 'the new booking in the event feed');
    const after = await eventsAfter();
    expect(after.body.data.every((event) => JSON.stringify(event).includes(next.body.payload.awb_code))).toBe(true);
    const listed = await call(moved, key, 'POST', '/custom/api/v1/shipments', {});
    expect(listed.body.data).toHaveLength(4);
    expect(await moved.stop(60_000)).toEqual({ serverExited: true, exitCode: 0 });
  });
});
