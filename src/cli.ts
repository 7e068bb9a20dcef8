import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { openConfiguredDatabase } from './db/open.js';
import { loadRatesContext } from './modules/rates/context.js';

const USAGE = `usage: npm run --silent cli -- <command>
  migrate
  accounts create --name NAME [--username USER --password PASS]
  api-keys create --account ACCOUNT_ID
  api-keys revoke --key KEY_PREFIX_OR_ID
  carrier-tokens create --carrier CARRIER_ID`;

interface Request {
  method: 'POST' | 'DELETE';
  url: string;
  payload?: Record<string, string>;
}

/** Maps a command line to the operator API request it stands for. */
function toRequest(args: string[]): Request | 'migrate' {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      carrier: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const pick = (names: (keyof typeof values)[]) =>
    Object.fromEntries(names.filter((n) => values[n] !== undefined).map((n) => [n, values[n] as string]));
  switch (command) {
    case 'migrate':
      return 'migrate';
    case 'accounts create':
      return { method: 'POST', url: '/admin/v1/accounts', payload: pick(['name', 'username', 'password']) };
    case 'api-keys create':
      return { method: 'POST', url: `/admin/v1/accounts/${encodeURIComponent(values.account ?? '')}/api-keys` };
    case 'api-keys revoke':
      return { method: 'DELETE', url: `/admin/v1/api-keys/${encodeURIComponent(values.key ?? '')}` };
    case 'carrier-tokens create':
      return { method: 'POST', url: '/admin/v1/carrier-tokens', payload: values.carrier === undefined ? {} : { carrier_id: values.carrier } };
    default:
      throw new Error(`unknown command "${command}"\n${USAGE}`);
  }
}

/**
 * Each command prints exactly one JSON object on stdout. Account commands go through the same
 * operator routes as the HTTP API (in process, with a one-off operator token), so they validate
 * and answer exactly as the API does.
 */
async function run(args: string[]): Promise<number> {
  const request = toRequest(args);
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const applied = await migrate(database.db);
    if (request === 'migrate') {
      console.log(JSON.stringify({ applied, engine: database.engine }));
      return 0;
    }
    const adminToken = randomBytes(24).toString('hex');
    // The operator's catalogue (COURIERS_FILE): carrier tokens name its services. No workers: the CLI only asks.
    const rates = loadRatesContext({ couriersFile: config.couriersFile });
    const app = await buildApp({ db: database.db, publicBaseUrl: config.publicBaseUrl, adminToken, rates, couriers: config.couriers, startWorkers: false });
    try {
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

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.log(JSON.stringify({ message, errors: [message] }));
    process.exit(1);
  },
);
