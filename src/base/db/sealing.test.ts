import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { openTestDatabase } from '../../../test/databases.js';
import { EKART, ekartSettings, ratesWith } from '../../../test/kit/couriers.js';
import { V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { WA_APP_SECRET, WA_PHONE_NUMBER_ID, WA_TOKEN } from '../../../test/whatsapp-simulator.js';
import { type EkartSimulator, startEkartSimulator } from '../../demo/simulators/ekart-simulator.js';
import { createSecretBox, keyIdOf } from '../secret-box.js';
import { KEY_FILE } from '../sealing-key.js';
import { type Database, queryRows } from './client.js';
import { openSecretBox } from './sealing.js';

// Issue 46, the audit's fourth finding: without SECRETS_KEY the key that seals accounts' credentials
// was a row of the same database, so a plain pg_dump opened every courier and WhatsApp credential.
// The key now lives outside the database (SECRETS_KEY, else DATA_DIR/secrets.key), and an install
// that kept it in the database has its values re-sealed and the row deleted at start.

const OWN_EKART = { client_id: 'EKART_MERCHANT_77', username: 'ops@chaipoint.example', password: 'chai-ekart-2f9c41' };
const WHATSAPP = {
  enabled: false,
  phone_number_id: WA_PHONE_NUMBER_ID,
  access_token: WA_TOKEN,
  app_secret: WA_APP_SECRET,
  verify_token: 'kurta-kart-verify',
};
const SEALED = /v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

let sim: EkartSimulator;
const folders: string[] = [];
const dataDir = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-sealing-'));
  folders.push(folder);
  return folder;
};

beforeAll(async () => {
  sim = await startEkartSimulator({
    logins: [{ clientId: OWN_EKART.client_id, username: OWN_EKART.username, password: OWN_EKART.password }],
  });
});
afterAll(async () => {
  await sim.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

const app = (database: Database, sealing: { secretsKey?: string; dataDir?: string }, lines?: string[]) =>
  createTestApp({
    database,
    rates: ratesWith({ [EKART]: 'ekart' }),
    // The sealing settings as a server reads them: SECRETS_KEY (none unless given), and its DATA_DIR.
    settings: { couriers: ekartSettings(sim.baseUrl), secrets: { key: sealing.secretsKey } },
    keyDir: sealing.dataDir,
    ...(lines && { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } }),
  });

/** A merchant with its own Ekart contract and WhatsApp credentials stored, sealed. */
async function storeCredentials(ctx: TestContext) {
  const account = await ctx.createAccount();
  const put = (url: string, payload: object) =>
    ctx.app.inject({ method: 'PUT', url, headers: { authorization: account.apiKey }, payload });
  expect((await put(`${V1}/courier-connections/ekart/credentials`, OWN_EKART)).statusCode).toBe(200);
  expect((await put(`${V1}/messaging/channels/whatsapp`, WHATSAPP)).statusCode).toBe(200);
  return { ...account, warehouseId: await createWarehouse(ctx, account.apiKey) };
}

/** Whether the account's credentials open: WhatsApp names the three it holds, and an Ekart booking logs in as the merchant. */
async function credentialsOpen(ctx: TestContext, account: { apiKey: string; warehouseId: string }) {
  const channels = await ctx.app.inject({
    method: 'GET',
    url: `${V1}/messaging/channels`,
    headers: { authorization: account.apiKey },
  });
  expect(channels.json().data[0]).toMatchObject({
    channel: 'whatsapp',
    credentials_set: ['access_token', 'app_secret', 'verify_token'],
  });
  await orchestrate(ctx, account.apiKey, orderBody(account.warehouseId, { carrier_id: EKART }));
  expect(sim.ownerOf(sim.callsTo('/api/v1/package/create').at(-1)!.authorization)).toBe(OWN_EKART.client_id);
}

/** Every row of every table, as text: what a SQL dump of the database holds. */
async function dumpEveryTable(database: Database): Promise<string> {
  const tables = await queryRows<{ name: string }>(
    database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  expect(tables.length).toBeGreaterThan(40);
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await queryRows<{ row: string }>(
      database.db,
      sql.raw(`select row_to_json(t)::text as row from "${name}" t`),
    );
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** pg_dump's plain SQL of the test's own PostgreSQL database (on PGlite, the dump of every table stands for it). */
async function pgDump(database: Database): Promise<string | undefined> {
  if (database.engine !== 'postgres') return undefined;
  const [current] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${current!.name}`;
  return execFileSync('pg_dump', ['--no-owner', '--no-privileges', url.toString()], { encoding: 'utf8' });
}

/** Every sealed value in `dump` tried with every text in it long enough to be a key: none may open. */
function opensAny(dump: string): string[] {
  const sealed = [...new Set(dump.match(SEALED) ?? [])];
  expect(sealed.length).toBeGreaterThanOrEqual(2);
  const candidates = new Set(dump.match(/[^\s"',\\{}()[\]:;=]{32,}/g) ?? []);
  const opened: string[] = [];
  for (const candidate of candidates) {
    const box = createSecretBox(candidate);
    for (const value of sealed) {
      if (keyIdOf(value) !== box.keyId) continue;
      opened.push(box.open(value));
    }
  }
  return opened;
}

describe('a backup of the database opens no credential', { timeout: 120_000 }, () => {
  it('a dump of every table (and pg_dump on PostgreSQL) holds the sealed values but not their key', async () => {
    const database = await openTestDatabase();
    const folder = dataDir();
    const ctx = await app(database, { dataDir: folder });
    try {
      const account = await storeCredentials(ctx);
      await credentialsOpen(ctx, account);
      for (const dump of [await dumpEveryTable(database), await pgDump(database)]) {
        if (dump === undefined) continue;
        for (const secret of [...Object.values(OWN_EKART), WA_TOKEN, WA_APP_SECRET]) expect(dump).not.toContain(secret);
        expect(dump).not.toContain('secrets-key');
        expect(opensAny(dump)).toEqual([]);
      }
      // The key is the file's, made at first start, for its owner alone; with it they open.
      const file = path.join(folder, KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = fs.readFileSync(file, 'utf8').trim();
      const dump = await dumpEveryTable(database);
      const opened = (dump.match(SEALED) ?? []).map((value) => createSecretBox(key).open(value));
      expect(opened.join()).toContain(OWN_EKART.password);
      expect(opened.join()).toContain(WA_TOKEN);
    } finally {
      await ctx.close();
    }
  });
});

describe('an install that kept the key in the database', { timeout: 120_000 }, () => {
  for (const source of ['file', 'environment'] as const) {
    it(`has its values re-sealed under the key from the ${source} and the row deleted at start, losing none`, async () => {
      const database = await openTestDatabase();
      // As an older Dakiya left it: a random key in server_secrets, every credential sealed under it.
      const legacyKey = 'Jd0Wl1v3rF2sY8mQp4tXk6bN9cA7eZ5uH0gR2iL4oT8w';
      const old = await app(database, { secretsKey: legacyKey });
      const account = await storeCredentials(old);
      await old.app.close();
      await database.db.execute(sql`insert into server_secrets (name, value) values ('secrets-key', ${legacyKey})`);
      expect(opensAny(await dumpEveryTable(database)).join()).toContain(WA_TOKEN);

      const lines: string[] = [];
      const newKey = 'a-key-of-the-operators-own-8c2f1e9d4b7a6350';
      const sealing = source === 'file' ? { dataDir: dataDir() } : { secretsKey: newKey };
      const ctx = await app(database, sealing, lines);
      try {
        const rows = await queryRows<{ name: string }>(database.db, sql`select name from server_secrets`);
        expect(rows.map((r) => r.name)).not.toContain('secrets-key');
        const dump = await dumpEveryTable(database);
        expect(opensAny(dump)).toEqual([]);
        const key = source === 'file' ? fs.readFileSync(path.join(sealing.dataDir!, KEY_FILE), 'utf8').trim() : newKey;
        expect(new Set((dump.match(SEALED) ?? []).map(keyIdOf))).toEqual(new Set([createSecretBox(key).keyId]));
        await credentialsOpen(ctx, account);
        // The advice comes once the server serves: a start that fails says only why.
        const beforeListening = lines.map((line) => JSON.parse(line).msg as string);
        expect(beforeListening.some((message) => message.startsWith('credentials are sealed with the key in'))).toBe(
          false,
        );
        await ctx.app.listen({ port: 0, host: '127.0.0.1' });
        const said = lines.map((line) => JSON.parse(line).msg as string);
        expect(said).toContain(
          `re-sealed 2 stored credential(s) under the key from ${source === 'file' ? path.join(sealing.dataDir!, KEY_FILE) : 'the SECRETS_KEY setting'}; the key is no longer kept in the database`,
        );
        // The warning that the key is not the environment's comes with the file, and only then.
        expect(said.some((message) => message.startsWith('credentials are sealed with the key in'))).toBe(
          source === 'file',
        );
      } finally {
        await ctx.close();
      }
    });
  }

  it('a key file gone missing (an ephemeral DATA_DIR, another machine) stops start-up rather than making a new key', async () => {
    const database = await openTestDatabase();
    const first = dataDir();
    const ctx = await app(database, { dataDir: first });
    await storeCredentials(ctx);
    await ctx.app.close();
    const keyId = createSecretBox(fs.readFileSync(path.join(first, KEY_FILE), 'utf8').trim()).keyId;
    const second = dataDir();
    try {
      await expect(openSecretBox(database.db, { secretsKey: undefined, dataDir: second }, () => {})).rejects.toThrow(
        `${path.join(second, KEY_FILE)} is missing, but the database holds 2 credential(s) sealed under key ${keyId}: ` +
          'restore the file from the DATA_DIR it was made in (or its backup), or set SECRETS_KEY to that key. ' +
          'To give those credentials up instead (accounts enter them again), set SECRETS_KEY to a new key (openssl rand -base64 32).',
      );
      expect(fs.readdirSync(second)).toEqual([]);
      // The file restored, it starts.
      fs.copyFileSync(path.join(first, KEY_FILE), path.join(second, KEY_FILE));
      fs.chmodSync(path.join(second, KEY_FILE), 0o600);
      const { box } = await openSecretBox(database.db, { secretsKey: undefined, dataDir: second }, () => {});
      expect(box.keyId).toBe(keyId);
    } finally {
      await database.close();
    }
  });
});
