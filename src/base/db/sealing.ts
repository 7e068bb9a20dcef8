import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { createKeyFile, KEY_FILE, type KeySource, readKeyFile, SealingKeyError } from '../sealing-key.js';
import { createSecretBox, keyIdOf, type SecretBox } from '../secret-box.js';
import { type Executor, queryRows, type Db } from './client.js';
import { courierCredentials, messagingChannels, serverSecrets } from './schema.js';

/** The server_secrets row that held the sealing key before it moved out of the database. */
const LEGACY_KEY_ROW = 'secrets-key';

/** Every sealed value in the database: accounts' courier, messaging and sales channel credentials, buyers' refund payees, and logins' second factors. */
async function sealedKeyIds(db: Executor): Promise<Map<string, number>> {
  const rows = await queryRows<{ sealed: string }>(
    db,
    sql`select sealed from courier_credentials
        union all select sealed_secret from messaging_channels where sealed_secret is not null
        union all select sealed from sales_channels
        union all select refund_to_sealed from return_requests where refund_to_sealed is not null
        union all select payee_sealed from refunds where payee_sealed is not null
        union all select secret_sealed from two_factor_logins`,
  );
  const counts = new Map<string, number>();
  for (const { sealed } of rows) {
    const id = keyIdOf(sealed) ?? 'unreadable';
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * Re-seals under `box` every value sealed under the key an older Dakiya kept in the database, then
 * deletes that row, in one transaction: a backup of the database no longer holds the key to its
 * own credentials. The row is locked first, so processes starting at once re-seal once. Answers
 * how many values were re-sealed.
 */
export async function adoptDatabaseKey(db: Db, box: SecretBox): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await queryRows<{ value: string }>(
      tx,
      sql`select value from server_secrets where name = ${LEGACY_KEY_ROW} for update`,
    );
    if (!row) return 0;
    const legacy = createSecretBox(row.value);
    let resealed = 0;
    const reseal = (sealed: string) => {
      resealed++;
      return box.seal(legacy.open(sealed));
    };
    const couriers = await tx.select().from(courierCredentials);
    for (const c of couriers.filter((c) => keyIdOf(c.sealed) === legacy.keyId)) {
      await tx
        .update(courierCredentials)
        .set({ sealed: reseal(c.sealed) })
        .where(
          sql`${courierCredentials.accountId} = ${c.accountId} and ${courierCredentials.connector} = ${c.connector}`,
        );
    }
    const channels = await tx.select().from(messagingChannels);
    for (const c of channels.filter((c) => c.sealedSecret && keyIdOf(c.sealedSecret) === legacy.keyId)) {
      await tx
        .update(messagingChannels)
        .set({ sealedSecret: reseal(c.sealedSecret!) })
        .where(sql`${messagingChannels.accountId} = ${c.accountId} and ${messagingChannels.channel} = ${c.channel}`);
    }
    await tx.delete(serverSecrets).where(eq(serverSecrets.name, LEGACY_KEY_ROW));
    return resealed;
  });
}

/** The key id of the key an older Dakiya kept in the database, if it is still there. */
async function databaseKeyId(db: Executor): Promise<string | undefined> {
  const [row] = await queryRows<{ value: string }>(
    db,
    sql`select value from server_secrets where name = ${LEGACY_KEY_ROW}`,
  );
  return row ? createSecretBox(row.value).keyId : undefined;
}

/**
 * The secret box that seals accounts' credentials, with its key from outside the database:
 * SECRETS_KEY, else DATA_DIR/secrets.key, made at first start (mode 0600). A key an older Dakiya
 * kept in the database is adopted: its values re-sealed, its row deleted. A key file is never made
 * where the database already holds credentials sealed under a key this server does not have (the
 * file was lost with an ephemeral DATA_DIR, or this is another machine): start-up stops, naming
 * the remedies, rather than leave them unreadable. `warn` hears of a re-sealing as it happens; the
 * rest the operator should know comes back as `advice`, to be said once the server serves.
 * Without either setting (tests, benchmarks, the demo, the OpenAPI document) the key is this
 * process's alone and nothing is adopted.
 */
export async function openSecretBox(
  db: Db,
  settings: { secretsKey: string | undefined; dataDir: string | undefined },
  warn: (message: string) => void,
): Promise<{ box: SecretBox; source: KeySource | 'process'; advice: string[] }> {
  if (settings.secretsKey === undefined && settings.dataDir === undefined)
    return { box: createSecretBox(randomBytes(32).toString('base64url')), source: 'process', advice: [] };
  // What the operator should hear once the server serves (a start that fails says only why).
  const advice: string[] = [];
  let key = settings.secretsKey;
  const source: KeySource = key === undefined ? 'file' : 'environment';
  const file = path.join(settings.dataDir ?? '.', KEY_FILE);
  if (key === undefined) {
    key = readKeyFile(file, warn);
    if (key === undefined) {
      const legacy = await databaseKeyId(db);
      const lost = [...(await sealedKeyIds(db))].filter(([id]) => id !== legacy);
      if (lost.length > 0) {
        const count = lost.reduce((n, [, c]) => n + c, 0);
        throw new SealingKeyError(
          `${file} is missing, but the database holds ${count} credential(s) sealed under key ${lost.map(([id]) => id).join(', ')}: ` +
            `restore the file from the DATA_DIR it was made in (or its backup), or set SECRETS_KEY to that key. ` +
            'To give those credentials up instead (accounts enter them again), set SECRETS_KEY to a new key (openssl rand -base64 32).',
        );
      }
      key = createKeyFile(settings.dataDir!);
    }
  }
  const box = createSecretBox(key);
  const resealed = await adoptDatabaseKey(db, box);
  if (resealed > 0)
    warn(
      `re-sealed ${resealed} stored credential(s) under the key from ${source === 'file' ? file : 'the SECRETS_KEY setting'}; the key is no longer kept in the database`,
    );
  const foreign = [...(await sealedKeyIds(db))].filter(([id]) => id !== box.keyId);
  if (foreign.length > 0) {
    advice.push(
      `${foreign.reduce((n, [, c]) => n + c, 0)} stored credential(s) are sealed under another key (${foreign.map(([id]) => id).join(', ')}) ` +
        'and read as not set until accounts enter them again',
    );
  }
  if (source === 'file') {
    advice.push(
      `credentials are sealed with the key in ${file}, not SECRETS_KEY: back that file up apart from the database ` +
        '(a backup holding both opens every credential), and on PostgreSQL give every process the same key (set SECRETS_KEY): ' +
        'npm run worker or a second machine with a DATA_DIR of its own cannot start, and a container needs DATA_DIR on a volume',
    );
  }
  return { box, source, advice };
}
