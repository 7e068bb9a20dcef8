import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { useBuyerEverywhere } from '../../../test/kit/buyer-everywhere.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, authed, ORCHESTRATE, post, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY } from '../../../test/msg91-simulator.js';
import { queryRows } from '../../base/db/client.js';
import { formatDay, indiaDayOf } from '../../domain/calendar.js';
import { LEASE_MS } from './account-export.job.js';
import { EXCLUDED_TABLES } from './export-secrets.js';

// An account's export (issue 52), on both engines: everything the account holds, table by table,
// as the database holds it, and not one credential nor one row of another account; written in the
// background, followed, downloaded and unpacked with the system's tar; taken up again when the
// process writing it ends; deleted when it expires and when its account is deleted.

const EXPORTS = `${V1}/account/exports`;
const HOUR = 3_600_000;
const world = useBuyerEverywhere();
const unpacked = mkdtempSync(path.join(tmpdir(), 'dakiya-export-test-'));
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

const send = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
  world.ctx.app.inject({ method, url, headers });
const db = () => world.ctx.database.db;
const exportsDir = () => path.join(world.ctx.dataDir, 'exports');

/** The tables an export holds, read from the catalogue here, and how many rows of the account each has. */
async function rowsOf(accountId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    db(),
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'account_id' order by table_name`,
  );
  const counts: Record<string, number> = { accounts: 1 };
  for (const { table_name } of tables) {
    if (Object.hasOwn(EXCLUDED_TABLES, table_name)) continue;
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where account_id = ${accountId}`,
    );
    counts[table_name] = row!.n;
  }
  return counts;
}

/** The archive's entries, extracted by the system's tar, by name. */
function unpack(archive: Buffer, label: string): Map<string, Buffer> {
  const file = path.join(unpacked, `${label}.tar.gz`);
  const into = path.join(unpacked, label);
  writeFileSync(file, archive);
  execFileSync('mkdir', ['-p', into]);
  execFileSync('tar', ['-xzf', file, '-C', into]);
  const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return new Map(names.map((name) => [name, readFileSync(path.join(into, name))]));
}

const lines = (bytes: Buffer | undefined) =>
  (bytes ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');

/** A row as PostgreSQL writes it as JSON, its timestamps as the export writes them (UTC, milliseconds). */
const asExported = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/.test(value)
        ? new Date(value).toISOString()
        : value,
    ]),
  );

/** Runs the export job until nothing waits. */
const runExports = (options?: Parameters<typeof world.ctx.app.accountExports.runPending>[0]) =>
  world.ctx.app.accountExports.runPending(options);

describe("an account's export", () => {
  it('holds every table of the account exactly, and no credential nor any row of another account', async () => {
    const { accountId, apiKey, forwardShipmentId, awbs } = world.written;
    // Another account with a booked parcel, whose rows must be nowhere in the archive.
    const other = await merchant(world.ctx, 'Untouched Traders');
    const booked = (
      await post(world.ctx, other.apiKey, ORCHESTRATE, orderBodyFromFields(other.warehouseId, { carrierId: SHADOWFAX }))
    ).json().payload as { shipment_id: string; awb_code: string; order_id: string };
    // Credentials the account holds: a member's password and sign-in, a limited key.
    const password = 'Export-Member-Pass-7731';
    const owner = await inviteAndJoin(world.ctx, apiKey, {
      email: `exports-admin-${accountId.slice(0, 8)}@members.example`,
      role: 'admin',
      password,
    });
    const operations = await inviteAndJoin(world.ctx, apiKey, {
      email: `exports-ops-${accountId.slice(0, 8)}@members.example`,
      role: 'operations',
      password: 'Export-Ops-Pass-9120',
    });
    const limited = (
      await post(world.ctx, apiKey, `${V1}/api-keys`, { name: 'members only', scopes: ['members:manage'] })
    ).json().data.api_key as string;

    // Who may: the owner or an admin; a member of another role and a key limited to members are refused.
    const notAdmin = await send('POST', EXPORTS, authed(limited));
    expect([notAdmin.statusCode, notAdmin.json().code]).toEqual([403, 'account_export_owner_or_admin']);
    expect((await send('POST', EXPORTS, operations.headers)).statusCode).toBe(403);
    expect((await send('POST', EXPORTS)).statusCode).toBe(401);

    const tables = Object.keys(await rowsOf(accountId));
    const before = await rowsOf(accountId);
    const started = await send('POST', EXPORTS, owner.headers);
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().data.id as string;
    expect(started.json()).toEqual({
      data: {
        id,
        status: 'running',
        tables_total: tables.length,
        tables_done: 0,
        rows_total: Object.values(before).reduce((a, b) => a + b, 0),
        rows_written: 0,
        created_at: world.ctx.clock.now().toISOString(),
        finished_at: null,
        expires_at: null,
        bytes: null,
        error: null,
      },
    });

    // While it is written: a second is refused, the archive is not ready, the progress moves.
    const second = await send('POST', EXPORTS, authed(apiKey));
    expect([second.statusCode, second.json().code]).toEqual([409, 'account_export_running']);
    const early = await send('GET', `${EXPORTS}/${id}/archive`, authed(apiKey));
    expect([early.statusCode, early.json().code]).toEqual([409, 'export_not_ready']);
    const seen: number[] = [];
    const ran = await runExports({
      afterBatch: async () => {
        if (seen.length > 0) return;
        const progress = (await send('GET', `${EXPORTS}/${id}`, authed(apiKey))).json().data;
        seen.push(progress.rows_written);
        expect(progress.status).toBe('running');
        const during = await send('GET', `${EXPORTS}/${id}/archive`, authed(apiKey));
        expect([during.statusCode, during.json().code]).toEqual([409, 'export_not_ready']);
      },
    });
    expect(ran).toEqual({ ready: 1, failed: 0, stopped: 0, gone: 0 });
    expect(seen[0]).toBeGreaterThan(0);

    // Ready: its progress whole, its size, kept 72 hours.
    const counts = await rowsOf(accountId);
    const now = world.ctx.clock.now();
    const file = path.join(exportsDir(), `${id}.tar.gz`);
    const ready = (await send('GET', `${EXPORTS}/${id}`, authed(apiKey))).json().data;
    expect(ready).toEqual({
      ...started.json().data,
      status: 'ready',
      tables_done: tables.length,
      rows_written: Object.values(counts).reduce((a, b) => a + b, 0),
      finished_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 72 * HOUR).toISOString(),
      bytes: readFileSync(file).length,
    });
    expect((await send('GET', EXPORTS, authed(apiKey))).json()).toEqual({ data: [ready] });
    expect(readdirSync(exportsDir())).toEqual([`${id}.tar.gz`]);

    const download = await send('GET', `${EXPORTS}/${id}/archive`, owner.headers);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="dakiya-export-${accountId}-${formatDay(indiaDayOf(new Date(ready.created_at)))}.tar.gz"`,
    );
    expect(download.rawPayload.equals(readFileSync(file))).toBe(true);
    const entries = unpack(download.rawPayload, 'whole');

    // Every table, as many rows as the database holds of the account, the manifest saying so.
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest).toMatchObject({
      format_version: 1,
      export_id: id,
      account: { id: accountId, name: expect.stringMatching(/^Erasure Store /) },
      created_at: ready.created_at,
      rows: ready.rows_written,
      left_out: { tables: EXCLUDED_TABLES },
    });
    expect(Object.keys(manifest.tables).sort()).toEqual([...tables].sort());
    expect(
      Object.fromEntries(Object.entries(manifest.tables).map(([t, m]) => [t, (m as { rows: number }).rows])),
    ).toEqual(counts);
    for (const [table, rows] of Object.entries(counts))
      expect(lines(entries.get(`tables/${table}.jsonl`)).length, table).toBe(rows);
    expect(counts).toMatchObject({ accounts: 1, api_keys: 2, members: 2, webhook_endpoints: 1, sales_channels: 1 });
    expect([...entries.keys()].filter((name) => !name.startsWith('tables/')).sort()).toEqual([
      'cod_remittances.csv',
      'manifest.json',
      'orders.csv',
      'returns.csv',
      'shipments.csv',
    ]);

    // A shipment's line is its row; an API key's line lacks its hash.
    const [shipment] = await queryRows<{ row: Record<string, unknown> }>(
      db(),
      sql`select to_jsonb(s) as row from shipments s where id = ${forwardShipmentId}`,
    );
    const line = lines(entries.get('tables/shipments.jsonl')).find((l) => l.includes(forwardShipmentId))!;
    expect(JSON.parse(line)).toEqual(asExported(shipment!.row));
    const keyLine = JSON.parse(lines(entries.get('tables/api_keys.jsonl'))[0]!);
    expect(keyLine).toMatchObject({ account_id: accountId, prefix: expect.any(String) });
    expect(keyLine).not.toHaveProperty('key_hash');

    // The spreadsheets: the header, and the forward order's line exactly.
    const orders = lines(entries.get('orders.csv'));
    expect(orders[0]).toBe(
      'id,merchant_order_id,order_date,created_at,channel,payment_method,sub_total_rupees,cod_collectible_rupees,' +
        'total_discount_rupees,billing_name,billing_last_name,billing_phone,billing_email,billing_address,billing_address_2,' +
        'billing_city,billing_state,billing_pincode,shipping_name,shipping_last_name,shipping_phone,shipping_email,' +
        'shipping_address,shipping_address_2,shipping_city,shipping_state,shipping_pincode,weight_grams,length_cm,' +
        'breadth_cm,height_cm,tags,channel_order_name,store_id,warehouse_id\r',
    );
    const [order] = await queryRows<{
      id: string;
      created_at: string;
      channel: string;
      payment_method: string;
      store_id: string;
    }>(
      db(),
      sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, channel,
            payment_method, store_id
          from orders where merchant_order_id = ${world.written.orderIds[0]!} and account_id = ${accountId}`,
    );
    const b = world.buyer;
    const person = [
      b.firstName,
      b.lastName,
      b.phone,
      b.email,
      b.address,
      b.address2,
      'Mumbai',
      'Maharashtra',
      '400001',
    ];
    expect(orders.find((l) => l.startsWith(order!.id))).toBe(
      `${[
        order!.id,
        world.written.orderIds[0],
        '2026-11-20T05:30:00.000Z',
        order!.created_at,
        order!.channel,
        order!.payment_method,
        '1499.00',
        '1499.00',
        '0.00',
        ...person,
        ...person,
        '500',
        '10',
        '10',
        '10',
        '',
        '',
        order!.store_id,
        world.written.warehouseId,
      ].join(',')}\r`,
    );
    const shipmentsCsv = lines(entries.get('shipments.csv'));
    expect(shipmentsCsv[0]!.split(',').slice(0, 4)).toEqual(['id', 'awb', 'carrier_id', 'status']);
    expect(shipmentsCsv[0]!.endsWith(',merchant_order_id\r')).toBe(true);
    expect(shipmentsCsv.find((l) => l.startsWith(forwardShipmentId))).toMatch(
      new RegExp(`^${forwardShipmentId},${awbs[0]},${SHADOWFAX},delivered,.*,${world.written.orderIds[0]}\\r$`),
    );
    expect(lines(entries.get('cod_remittances.csv'))).toEqual([
      'id,awb,carrier_id,amount_rupees,utr,remittance_date,shipment_id,import_id,created_at\r',
    ]);

    // Not one credential, not one row of the other account, anywhere in the archive; the buyer is there.
    const secrets = await queryRows<{ value: string }>(
      db(),
      sql`select key_hash as value from api_keys where account_id = ${accountId}
          union all select password_hash from members where account_id = ${accountId} and password_hash is not null
          union all select token_hash from panel_sessions where account_id = ${accountId}
          union all select secret from webhook_endpoints where account_id = ${accountId}
          union all select sealed_secret from messaging_channels where account_id = ${accountId} and sealed_secret is not null
          union all select sealed from sales_channels where account_id = ${accountId}`,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const tar = gunzipSync(download.rawPayload);
    const needles = [
      apiKey,
      limited,
      password,
      MSG91_AUTH_KEY,
      'wc_erasure_secret',
      owner.cookie.split('=')[1]!,
      ...secrets.map((s) => s.value),
    ];
    expect(needles.filter((needle) => tar.includes(needle))).toEqual([]);
    const theirs = [other.id, other.apiKey, other.warehouseId, booked.shipment_id, booked.awb_code, booked.order_id];
    expect(theirs.filter((needle) => tar.includes(needle))).toEqual([]);
    expect(tar.includes(b.phone) && tar.includes(b.address)).toBe(true);

    // Who asked and who downloaded, in the audit log.
    const audit = await queryRows<{ action: string; actor_type: string; changes: unknown }>(
      db(),
      sql`select action, actor_type, changes from audit_log
          where account_id = ${accountId} and action like 'account.export%'`,
    );
    expect(audit.sort((x, y) => (x.action < y.action ? -1 : 1))).toEqual([
      { action: 'account.export_downloaded', actor_type: 'member', changes: { bytes: ready.bytes } },
      {
        action: 'account.exported',
        actor_type: 'member',
        changes: { tables: tables.length, rows: started.json().data.rows_total },
      },
    ]);

    // Another account sees none of it; the id unknown or malformed is a 404.
    for (const url of [`${EXPORTS}/${id}`, `${EXPORTS}/${id}/archive`, `${EXPORTS}/${UNKNOWN_ID}`, `${EXPORTS}/x`]) {
      const answer = await send('GET', url, url.includes(id) ? authed(other.apiKey) : authed(apiKey));
      expect([answer.statusCode, answer.json().code], url).toEqual([404, 'account_export_not_found']);
    }
    expect((await send('GET', EXPORTS, authed(other.apiKey))).json()).toEqual({ data: [] });
  });

  it('is taken up by another process when the one writing it stops answering, and let go when its process ends', async () => {
    const m = await merchant(world.ctx, 'Restarted Exports');
    await post(world.ctx, m.apiKey, ORCHESTRATE, orderBodyFromFields(m.warehouseId, { carrierId: SHADOWFAX }));
    const id = (await send('POST', EXPORTS, authed(m.apiKey))).json().data.id as string;

    // The first process stalls after its first batch; while its lease runs nobody takes the export,
    // once it has passed a second process does and writes it; the first then finds it no longer its own.
    const outcomes: unknown[] = [];
    const first = await runExports({
      afterBatch: async () => {
        if (outcomes.length > 0) return;
        outcomes.push(await runExports());
        world.ctx.clock.advance(LEASE_MS + 1000);
        outcomes.push(await runExports());
      },
    });
    expect(outcomes).toEqual([
      { ready: 0, failed: 0, stopped: 0, gone: 0 },
      { ready: 1, failed: 0, stopped: 0, gone: 0 },
    ]);
    expect(first).toEqual({ ready: 0, failed: 0, stopped: 0, gone: 1 });
    const [row] = await queryRows<{ status: string; attempts: number }>(
      db(),
      sql`select status, attempts from account_exports where id = ${id}`,
    );
    expect(row).toEqual({ status: 'ready', attempts: 2 });
    expect(readdirSync(exportsDir()).filter((name) => name.startsWith(id))).toEqual([`${id}.tar.gz`]);
    const entries = unpack((await send('GET', `${EXPORTS}/${id}/archive`, authed(m.apiKey))).rawPayload, 'taken-up');
    expect(lines(entries.get('tables/shipments.jsonl')).length).toBe(1);

    // A process that ends mid-way (its stop signal) lets the export go at once, leaving no file; the next run writes it.
    const again = (await send('POST', EXPORTS, authed(m.apiKey))).json().data.id as string;
    const stop = new AbortController();
    expect(await runExports({ signal: stop.signal, afterBatch: () => stop.abort() })).toEqual({
      ready: 0,
      failed: 0,
      stopped: 1,
      gone: 0,
    });
    const [left] = await queryRows<{ status: string; lease_until: string | null }>(
      db(),
      sql`select status, lease_until from account_exports where id = ${again}`,
    );
    expect(left).toEqual({ status: 'running', lease_until: null });
    expect(readdirSync(exportsDir()).filter((name) => name.startsWith(again))).toEqual([]);
    expect(await runExports()).toEqual({ ready: 1, failed: 0, stopped: 0, gone: 0 });
    expect((await send('GET', `${EXPORTS}/${again}`, authed(m.apiKey))).json().data.status).toBe('ready');

    // The operator's (the CLI's accounts export): written at once by the process that asks.
    const byOperator = await world.ctx.app.accountExports.exportNow(m.id);
    expect(byOperator).toMatchObject({ status: 'ready', file: path.join(exportsDir(), `${byOperator.id}.tar.gz`) });
    expect(existsSync(byOperator.file)).toBe(true);
    await expect(world.ctx.app.accountExports.exportNow(UNKNOWN_ID)).rejects.toThrow(`no account ${UNKNOWN_ID}`);
  });

  it('is deleted with its archive once ACCOUNT_EXPORT_KEEP_HOURS have passed, and with its account', async () => {
    const m = await merchant(world.ctx, 'Expiring Exports');
    const id = (await send('POST', EXPORTS, authed(m.apiKey))).json().data.id as string;
    await runExports();
    const file = path.join(exportsDir(), `${id}.tar.gz`);
    const stray = path.join(exportsDir(), `${UNKNOWN_ID}.tar.gz`);
    writeFileSync(stray, 'left by nobody');
    world.ctx.clock.advance(72 * HOUR - 1000);
    // The exports of the tests before, finished earlier, are due already: each with its archive.
    const [due] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from account_exports where expires_at <= ${world.ctx.clock.now().toISOString()}::timestamptz`,
    );
    expect(await world.ctx.app.accountExports.pruneExpired()).toEqual({ exports: due!.n, files: due!.n + 1 });
    expect([existsSync(file), existsSync(stray)]).toEqual([true, false]);
    expect((await send('GET', `${EXPORTS}/${id}/archive`, authed(m.apiKey))).statusCode).toBe(200);
    world.ctx.clock.advance(1000);
    const answer = await send('GET', `${EXPORTS}/${id}`, authed(m.apiKey));
    expect([answer.statusCode, answer.json().code]).toEqual([404, 'account_export_not_found']);
    expect(await world.ctx.app.accountExports.pruneExpired()).toMatchObject({ exports: expect.any(Number) });
    expect(existsSync(file)).toBe(false);
    expect(await queryRows(db(), sql`select id from account_exports where id = ${id}`)).toEqual([]);

    // An account deleted by the operator takes its archives with it.
    const doomed = await merchant(world.ctx, 'Deleted With Exports');
    const kept = (await send('POST', EXPORTS, authed(doomed.apiKey))).json().data.id as string;
    await runExports();
    expect(existsSync(path.join(exportsDir(), `${kept}.tar.gz`))).toBe(true);
    const deleted = await world.ctx.app.inject({
      method: 'DELETE',
      url: `/admin/v1/accounts/${doomed.id}`,
      headers: admin,
    });
    expect(deleted.json().data.deleted).toMatchObject({ account_exports: 1, accounts: 1 });
    expect(existsSync(path.join(exportsDir(), `${kept}.tar.gz`))).toBe(false);
  });
});
