import { randomBytes } from 'node:crypto';
import { constants, existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { invocationDirectory } from './settings.js';

/** Each command: its options, what it does, and the operator API request it stands for. */
const COMMANDS: Record<string, { options: string; does: string }> = {
  migrate: { options: '', does: 'Applies any pending database migrations (start-up does this too).' },
  'accounts create': {
    options: '--name NAME [--username USER --password PASS]',
    does: 'Creates an account and its first API key; with a username and password it can also log in (POST /custom/api/v1/auth-token).',
  },
  'accounts delete': {
    options: '--account ACCOUNT_ID',
    does:
      'Deletes an account now with every row of it (orders, shipments, money, members, keys, the audit log), as DELETE /admin/v1/accounts/:id does; ' +
      'no grace period, no way back. An owner asks with POST /custom/api/v1/account/deletion instead (ACCOUNT_DELETION_GRACE_DAYS).',
  },
  'accounts export': {
    options: '--account ACCOUNT_ID --out FILE',
    does:
      'Writes everything an account holds to FILE (created, never overwritten, readable by you only) as the archive POST ' +
      '/custom/api/v1/account/exports makes: a .tar.gz of JSON lines per table, CSV for shipments, orders, returns and COD ' +
      'remittances, and a manifest; credentials left out. Written now, by this process; a copy stays in DATA_DIR/exports ' +
      'for ACCOUNT_EXPORT_KEEP_HOURS. Prints the export (its tables, rows and bytes).',
  },
  'api-keys create': { options: '--account ACCOUNT_ID', does: 'Issues another API key for an account.' },
  'api-keys revoke': {
    options: '--key KEY_PREFIX_OR_ID',
    does: 'Revokes an API key, named by its id or its first 12 characters.',
  },
  'db export': {
    options: 'FILE',
    does:
      "Writes the embedded database (DATA_DIR, even when DATABASE_URL is set) to FILE as SQL, with PGlite's pg_dump. Stop the server first. " +
      "FILE holds credentials' hashes, secrets and customers' addresses: it is created readable by you only.",
  },
  'db import': {
    options: 'FILE',
    does:
      'Loads a db export FILE into the empty PostgreSQL database DATABASE_URL names, all or nothing (with psql when it is on the PATH, else ' +
      'through the pg client), then runs the migrations. Start the server on DATABASE_URL afterwards.',
  },
  'weight-reports import': {
    options: '--account ACCOUNT_ID FILE',
    does:
      "Imports a courier's weight report (CSV: awb,charged_weight_g or charged_weight_kg, or Delhivery's Waybill,Charged Weight) for an " +
      'account: each heavier, dearer row opens a weight discrepancy; bad rows are listed with their line (the first 100, and their ' +
      'count). At most 10,000 rows. The same file again changes nothing.',
  },
  'cod import': {
    options: '--account ACCOUNT_ID FILE',
    does:
      "Imports a courier's COD remittance file (CSV: awb,amount,utr,remittance_date, or Delhivery's Waybill,COD Amount,UTR No,Remittance Date) " +
      "into an account's COD ledger, as POST /custom/api/v1/cod/remittance-files does: every bad line counted, the first 100 reported with " +
      'their number, the good ones applied in one transaction; at most 50,000 lines; a file taken twice changes nothing.',
  },
  'scans replay': {
    options: '[--after KEPT_SCAN_ID]',
    does:
      'Reads the open kept scans (what couriers sent that could not be applied: GET /admin/v1/kept-scans) again through the current scan ' +
      'tables and applies what can be applied now, as POST /admin/v1/kept-scans/replay does: run it after an upgrade that fixed a table. ' +
      'Up to 5,000 a run; next_after in the answer goes on with --after.',
  },
  'retention prune': {
    options: '',
    does:
      'Deletes what is past its retention period now (finished webhook deliveries and their attempts: WEBHOOK_DELIVERIES_RETENTION_DAYS; ' +
      "the ids of stores' webhooks: CHANNEL_WEBHOOK_RECEIPTS_RETENTION_DAYS; finished customer e-mails: EMAILS_RETENTION_DAYS; " +
      'finished buyer messages: BUYER_MESSAGES_RETENTION_DAYS; kept scans: KEPT_SCANS_RETENTION_DAYS; ' +
      'the audit log: AUDIT_LOG_RETENTION_DAYS; idempotency keys past their 24 hours), ' +
      'as the background job does every hour and POST /admin/v1/retention/prune does, and prints what each table lost.',
  },
  'buyers erase': {
    options: '--account ACCOUNT_ID [--phone PHONE] [--email EMAIL] [--order-id ORDER_ID]',
    does:
      "Erases a buyer's personal data on their request (names, phones, e-mails and street addresses everywhere Dakiya copied them; " +
      'their RTO history and return photos removed), named by any of phone, e-mail and order id, as POST /custom/api/v1/buyer-erasures ' +
      'does; refused while a parcel of theirs is on its way. Prints what was found and erased where. Cannot be undone.',
  },
  'buyers anonymise': {
    options: '',
    does:
      "Anonymises now every buyer due (BUYER_DATA_ANONYMISE_DAYS, or the account's own period, after a shipment or a return finished), " +
      'as the background job does every hour and POST /admin/v1/privacy/anonymise does, and prints what changed.',
  },
  'buyers compact': {
    options: '',
    does:
      "Rewrites every table and the planner's statistics and moves the write-ahead log on, so that the old versions of rows an erasure, " +
      "an anonymisation or an account's deletion changed are gone from the database's files, as POST /admin/v1/privacy/compact does; " +
      'prints what each table weighed before and after. Each table is locked while it is rewritten: run it in a quiet hour.',
  },
  'carrier-tokens create': {
    options: '--carrier CARRIER_ID',
    does: 'Issues a token a courier uses to report tracking events (CARRIER_ID: a service id from GET /custom/api/v1/carriers).',
  },
};

const USAGE = [
  'usage: npm run --silent cli -- <command> [options]',
  '',
  'Each command prints one JSON object on stdout (exit code 1 on error). It opens the database itself,',
  'so with the embedded database (no DATABASE_URL) run it while the server is stopped, or use the',
  "server's operator API (/admin/v1, enabled by ADMIN_TOKEN) instead.",
  '',
  'commands:',
  ...Object.entries(COMMANDS).map(([name, { options }]) => `  ${name}${options ? ` ${options}` : ''}`),
  '',
  'npm run --silent cli -- <command> --help describes one command.',
].join('\n');

const commandUsage = (name: string) => {
  const { options, does } = COMMANDS[name]!;
  return `usage: npm run --silent cli -- ${name}${options ? ` ${options}` : ''}\n\n${does}`;
};

interface Request {
  method: 'POST' | 'DELETE';
  url: string;
  payload?: Record<string, string>;
}

/** Commands of two words followed by a FILE. */
const FILE_COMMANDS = new Set(['db', 'weight-reports', 'cod']);

interface Transfer {
  transfer: 'export' | 'import';
  file: string;
}

/** accounts export: written by this process's app, not asked of a route (no route hands the operator an archive). */
interface AccountExport {
  exportAccount: string;
  out: string;
}

/** Maps a command line to the operator API request it stands for, or to the help text asked for. */
function toRequest(args: string[]): Request | 'migrate' | Transfer | AccountExport | { help: string } {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      carrier: { type: 'string' },
      after: { type: 'string' },
      phone: { type: 'string' },
      email: { type: 'string' },
      'order-id': { type: 'string' },
      out: { type: 'string' },
    },
  });
  // The database and report commands take a file after the command's two words.
  const takesFile = FILE_COMMANDS.has(positionals[0] ?? '');
  const file = takesFile ? positionals[2] : undefined;
  const command = positionals.slice(0, takesFile ? 2 : undefined).join(' ');
  if (values.help || command === 'help') return { help: command in COMMANDS ? commandUsage(command) : USAGE };
  const pick = (names: (keyof typeof values)[]) =>
    Object.fromEntries(names.filter((n) => values[n] !== undefined).map((n) => [n, values[n] as string]));
  switch (command) {
    case 'migrate':
      return 'migrate';
    case 'db export':
    case 'db import':
      if (!file || positionals.length > 3) throw new Error(`give one FILE\n${commandUsage(command)}`);
      // npm runs the script in the package's folder; a relative FILE is the user's, from where npm was called.
      return {
        transfer: command === 'db export' ? 'export' : 'import',
        file: path.resolve(invocationDirectory(), file),
      };
    case 'accounts create':
      return { method: 'POST', url: '/admin/v1/accounts', payload: pick(['name', 'username', 'password']) };
    case 'accounts delete':
      return { method: 'DELETE', url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}` };
    case 'accounts export':
      if (!values.account || !values.out) throw new Error(`give --account and --out\n${commandUsage(command)}`);
      return { exportAccount: values.account, out: path.resolve(invocationDirectory(), values.out) };
    case 'api-keys create':
      return { method: 'POST', url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}/api-keys` };
    case 'api-keys revoke':
      return { method: 'DELETE', url: `/admin/v1/api-keys/${encodeURIComponent(values.key ?? '')}` };
    case 'weight-reports import':
      if (!file || positionals.length > 3) throw new Error(`give one FILE\n${commandUsage(command)}`);
      return {
        method: 'POST',
        url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}/weight-reports`,
        payload: { file: readFileSync(path.resolve(invocationDirectory(), file), 'utf8') },
      };
    case 'cod import': {
      if (!file || positionals.length > 3) throw new Error(`give one FILE\n${commandUsage(command)}`);
      const where = path.resolve(invocationDirectory(), file);
      return {
        method: 'POST',
        url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}/cod/remittance-files`,
        payload: { file: readFileSync(where, 'utf8'), file_name: path.basename(where) },
      };
    }
    case 'scans replay':
      return {
        method: 'POST',
        url: `/admin/v1/kept-scans/replay${values.after === undefined ? '' : `?after=${encodeURIComponent(values.after)}`}`,
      };
    case 'retention prune':
      return { method: 'POST', url: '/admin/v1/retention/prune' };
    case 'buyers erase':
      return {
        method: 'POST',
        url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}/buyer-erasures`,
        payload: {
          ...pick(['phone', 'email']),
          ...(values['order-id'] !== undefined && { order_id: values['order-id'] }),
        },
      };
    case 'buyers anonymise':
      return { method: 'POST', url: '/admin/v1/privacy/anonymise' };
    case 'buyers compact':
      return { method: 'POST', url: '/admin/v1/privacy/compact' };
    case 'carrier-tokens create':
      return {
        method: 'POST',
        url: '/admin/v1/carrier-tokens',
        payload: values.carrier === undefined ? {} : { carrier_id: values.carrier },
      };
    default:
      throw new Error(command ? `unknown command "${command}"\n${USAGE}` : `no command given\n${USAGE}`);
  }
}

/**
 * Each command prints exactly one JSON object on stdout. Account commands go through the same
 * operator routes as the HTTP API (in process, with a one-off operator token), so they validate
 * and answer exactly as the API does.
 */
async function run(args: string[]): Promise<number> {
  const request = toRequest(args);
  if (typeof request === 'object' && 'help' in request) {
    console.log(request.help);
    return 0;
  }
  if (typeof request === 'object' && 'transfer' in request) return transfer(request);
  // Loaded only for a command: help must answer at once, without loading the whole API.
  const [{ loadSettings, withOverrides }, { migrate }, { openConfiguredDatabase }] = await Promise.all([
    import('./settings.js'),
    import('./base/db/migrate.js'),
    import('./base/db/open.js'),
  ]);
  const { settings } = loadSettings();
  const database = await openConfiguredDatabase({
    ...settings.database,
    poolSize: settings.processes.databasePoolSize,
  });
  try {
    const applied = await migrate(database.db);
    if (request === 'migrate') {
      console.log(JSON.stringify({ applied, engine: database.engine }));
      return 0;
    }
    const [{ buildApp }, { loadRatesContext }] = await Promise.all([import('./app.js'), import('./data-files.js')]);
    const adminToken = randomBytes(24).toString('hex');
    // The operator's catalogue (COURIERS_FILE): carrier tokens name its services. No workers (poller, webhook delivery): the CLI only asks.
    const rates = loadRatesContext({ couriersFile: settings.couriers.catalogueFile });
    const app = await buildApp({
      db: database.db,
      settings: withOverrides(settings, { server: { adminToken } }),
      rates,
      timers: false,
      delivery: false,
      keyDir: settings.database.dataDir,
    });
    try {
      if ('exportAccount' in request) return await exportAccount(app, request);
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: { authorization: `Bearer ${adminToken}` },
        ...(request.payload && { payload: request.payload }),
      });
      console.log(response.body);
      return response.statusCode < 300 ? 0 : 1;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** accounts export: the account's archive written now, then copied to the operator's file. */
async function exportAccount(
  app: { accountExports: { exportNow(accountId: string): Promise<Record<string, unknown> & { file: string }> } },
  { exportAccount: accountId, out }: AccountExport,
): Promise<number> {
  if (existsSync(out)) throw new Error(`${out} exists: name a new file (it is never overwritten)`);
  const { file, ...made } = await app.accountExports.exportNow(accountId);
  await copyFile(file, out, constants.COPYFILE_EXCL).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new Error(`${out} exists: name a new file (it is never overwritten)`) : error;
  });
  await chmod(out, 0o600);
  console.log(JSON.stringify({ exported: out, data: made }));
  return 0;
}

/** db export and db import: between the embedded database and a PostgreSQL server, not through the API. */
async function transfer({ transfer, file }: Transfer): Promise<number> {
  const [{ childEnvironment, loadSettings }, { exportEmbedded, findPsql, importIntoPostgres }] = await Promise.all([
    import('./settings.js'),
    import('./base/db/transfer.js'),
  ]);
  const { databaseUrl, dataDir } = loadSettings().settings.database;
  if (transfer === 'export') {
    const exported = await exportEmbedded(dataDir, file);
    console.log(
      JSON.stringify({
        exported: exported.file,
        data_dir: exported.dataDir,
        bytes: exported.bytes,
        rows: exported.rows,
      }),
    );
    return 0;
  }
  if (!databaseUrl)
    throw new Error(
      'db import loads into the PostgreSQL database DATABASE_URL names (postgres://…), and DATABASE_URL is not set',
    );
  const env = childEnvironment();
  const imported = await importIntoPostgres(databaseUrl, file, { psql: findPsql(env.PATH ?? ''), env });
  console.log(
    JSON.stringify({
      imported: imported.file,
      database: imported.database,
      loaded_with: imported.loadedWith,
      settings_skipped: imported.settingsSkipped,
      rows: imported.rows,
      migrations_applied: imported.migrationsApplied,
    }),
  );
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.log(JSON.stringify({ message, errors: [message] }));
    process.exit(1);
  },
);
