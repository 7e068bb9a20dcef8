/**
 * Imports a 50,000-line COD remittance file through the API of the server as `npm start` runs it,
 * on a fresh PostgreSQL database on 127.0.0.1 (issue 30: under 10 s).
 *
 *   npm run bench:remittance                      # 50,000 lines
 *   BENCH_ROWS=2000 npm run bench:remittance      # a short check that it runs
 *
 * The account's 50,000 delivered COD shipments and their receivables are written straight into the
 * database first (booking them through the API would take longer than the benchmark and measure
 * something else). The file is then uploaded as a courier's file arrives (multipart, Dakiya's
 * columns, 1,000 lines per UTR), every line paying its receivable in full; then the same file again,
 * which must change nothing. Prints each upload's time, the server's answer counts and the machine.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { createAccount, startServerProcess } from '../test/server-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const TARGET_SECONDS = 10;
const DAY_MS = 86_400_000;
// Dates relative to the run: a remittance dated after today is refused.
const DELIVERED_AT = new Date(Date.now() - 10 * DAY_MS).toISOString();
const EXPECTED_DATE = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10);
const REMITTANCE_DATE = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);

async function seed(client: pg.Client, accountId: string, warehouseId: string, rows: number) {
  // As bench/lib/listing-build.ts loads: the listing counters' triggers off (one statement updating
  // one counter row 50,000 times walks every earlier version of it), then counted once in bulk.
  await client.query('SET session_replication_role = replica');
  // Amounts from ₹100.01 to ₹5,099.99, every paisa pattern; delivered 10 days ago.
  await client.query(
    `with o as (
      insert into orders (account_id, merchant_order_id, warehouse_id, channel, order_date, payment_method, sub_total_paise, cod_collectible_paise,
        billing_name, billing_address, billing_city, billing_pincode, billing_state, billing_country, billing_phone, shipping_is_billing,
        shipping_name, shipping_address, shipping_city, shipping_pincode, shipping_state, shipping_country, shipping_phone,
        length_cm, breadth_cm, height_cm, weight_grams, tags, print_label, created_at)
      select $1, 'BENCH-' || g, $2, 'manual_order', '2026-11-18T06:30:00Z', 'COD', 10001 + (g * 7919) % 500000, 10001 + (g * 7919) % 500000,
        'Asha', '12 Marine Drive', 'Mumbai', '400001', 'Maharashtra', 'India', '9123456780', true,
        'Asha', '12 Marine Drive', 'Mumbai', '400001', 'Maharashtra', 'India', '9123456780', 10, 10, 10, 500, '{}', false, '2026-11-18T06:30:00Z'
      from generate_series(1, $3::int) g
      returning id, merchant_order_id, cod_collectible_paise
    ),
    s as (
      insert into shipments (account_id, order_id, warehouse_id, channel, order_date, status, zone, is_cod, cod_amount_paise, total_price_paise,
        applied_weight_grams, carrier_id, awb, skus, tags, search_text, created_at, updated_at, assigned_at, delivered_at)
      select $1, o.id, $2, 'manual_order', '2026-11-18T06:30:00Z', 'delivered', 'C', true, o.cod_collectible_paise, o.cod_collectible_paise,
        500, 'CARSHFXSTD001', 'SFXB' || lpad(substr(o.merchant_order_id, 7), 9, '0'), '{}', '{}', '', '2026-11-18T06:30:00Z',
        $4, '2026-11-18T06:30:00Z', $4
      from o
      returning id, awb, cod_amount_paise
    )
    insert into cod_receivables (account_id, shipment_id, awb, carrier_id, amount_paise, delivered_at, expected_date, state, created_at, updated_at)
    select $1, s.id, s.awb, 'CARSHFXSTD001', s.cod_amount_paise, $4, $5, 'pending', now(), now() from s`,
    [accountId, warehouseId, rows, DELIVERED_AT, EXPECTED_DATE],
  );
  await client.query('SET session_replication_role = DEFAULT');
  await client.query('SELECT dakiya_rebuild_shipment_counts()');
}

function remittanceFile(rows: number): string {
  const lines = ['awb,amount,utr,remittance_date'];
  for (let g = 1; g <= rows; g++) {
    const paise = 10001 + ((g * 7919) % 500000);
    lines.push(
      `SFXB${String(g).padStart(9, '0')},${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')},UTIB${String(Math.ceil(g / 1000)).padStart(8, '0')},${REMITTANCE_DATE}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function upload(url: string, apiKey: string, file: string) {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'bench-remittance.csv');
  const started = performance.now();
  const response = await fetch(`${url}/custom/api/v1/cod/remittance-files`, {
    method: 'POST',
    headers: { authorization: apiKey },
    body: form,
  });
  const body = (await response.json()) as {
    applied?: number;
    duplicates?: number;
    problems?: unknown[];
    applied_amount?: number;
  };
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200)
    throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return { seconds, body };
}

async function main() {
  console.log(
    `remittance import: ${ROWS} lines, multipart POST /custom/api/v1/cod/remittance-files, npm start on PostgreSQL`,
  );
  console.log(`machine:  ${describeMachine()}\nbefore:   ${describeLoad()}`);
  const name = `dakiya_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const server = await startServerProcess({
    env: { DATABASE_URL: databaseUrl, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { accountId, apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Remittance benchmark');
    const warehouse = await fetch(`${server.url}/custom/api/v1/warehouse`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench warehouse',
        phone_number: '9876543210',
        address_attributes: {
          street_address: '1 Connaught Place',
          zip: '110001',
          city: 'New Delhi',
          state: 'Delhi',
          country: 'India',
        },
      }),
    });
    if (warehouse.status !== 201) throw new Error(`warehouse: ${warehouse.status} ${await warehouse.text()}`);
    const warehouseId = ((await warehouse.json()) as { payload: { warehouse_id: string } }).payload.warehouse_id;
    const seeding = performance.now();
    await seed(client, accountId, warehouseId, ROWS);
    await client.query('analyze');
    console.log(
      `seeded:   ${ROWS} delivered COD shipments and receivables in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const file = remittanceFile(ROWS);
    console.log(`file:     ${(Buffer.byteLength(file) / 1024 / 1024).toFixed(1)} MiB`);

    const first = await upload(server.url, apiKey, file);
    console.log(
      `first:    ${first.seconds.toFixed(2)} s  applied ${first.body.applied}, duplicates ${first.body.duplicates}, problems ${first.body.problems?.length}, amount ₹${first.body.applied_amount}`,
    );
    const again = await upload(server.url, apiKey, file);
    console.log(
      `again:    ${again.seconds.toFixed(2)} s  applied ${again.body.applied}, duplicates ${again.body.duplicates}, problems ${again.body.problems?.length}`,
    );
    const reconciled = await client.query(
      `select count(*)::int as n from cod_receivables where account_id = $1 and state = 'reconciled'`,
      [accountId],
    );
    console.log(`ledger:   ${reconciled.rows[0].n} of ${ROWS} receivables reconciled`);
    console.log(`after:    ${describeLoad()}`);
    if (first.body.applied !== ROWS || again.body.duplicates !== ROWS || reconciled.rows[0].n !== ROWS) {
      console.log('FAILED: not every line was applied once');
      process.exitCode = 1;
    } else if (ROWS >= 50_000) {
      console.log(
        first.seconds < TARGET_SECONDS
          ? `target:   under ${TARGET_SECONDS} s — met`
          : `target:   under ${TARGET_SECONDS} s — MISSED`,
      );
    }
  } finally {
    await client.end();
    await server.stop();
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
process.exit();
