import { isIP } from 'node:net';
import { ConfigError } from '../base/config-error.js';
import { custom, oneOf, text, url } from '../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../base/settings.js';

/** Which proxies' X-Forwarded-For names the client: none, the nearest N hops, or these addresses. */
export type TrustProxy = false | number | readonly string[];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The HTTP server: where it listens, the address its public links name, its log, and the operator API. */
export const serverSettings = defineSettings(
  {
    port: custom('PORT', {
      doc: 'listening port',
      type: 'port',
      range: '0 to 65535',
      default: 3000,
      parse(raw) {
        const port = Number(raw);
        if (!/^\d+$/.test(raw) || port > 65535) {
          throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
        }
        return port;
      },
    }),
    host: text('HOST', {
      doc: 'listening address (`0.0.0.0` to serve other machines)',
      default: '127.0.0.1',
    }),
    publicBaseUrl: url('PUBLIC_BASE_URL', {
      doc: "base of the public links the API hands out (store logos, label links, customers' tracking pages `PUBLIC_BASE_URL/t/<token>`); with `HOST=0.0.0.0` and none set, start-up warns that links will point to localhost",
      shownDefault: '`http://HOST:PORT`',
      protocols: ['http:', 'https:'],
    }),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, {
      doc: "logs are JSON lines on standard output, written asynchronously, with the request id; at `info` one line per request (`method`, `url`, `statusCode`, `ms`, `account`), the URL without its capabilities (a tracking page's token and query values other than `lang`, `format`, `after`, `before`, `type`, `limit`, `cursor`, `expires` and `v` read `[redacted]`)",
      default: 'info',
    }),
    trustProxy: custom<TrustProxy>('TRUST_PROXY', {
      doc: "the proxies in front of the server whose `X-Forwarded-For` names the client, for the per-address login and tracking-page limits: their number (`1` for one load balancer) or their addresses and CIDR blocks, comma-separated (`10.0.0.0/8,loopback`). Unset, the socket's address is the client; `true` (trusting anyone's header) is refused",
      type: 'hops or addresses',
      range: '1 to 10, or addresses, CIDR blocks, `loopback`, `linklocal`, `uniquelocal`',
      default: false,
      shownDefault: '—',
      parse: parseTrustProxy,
    }),
    adminToken: text('ADMIN_TOKEN', {
      doc: 'enables the operator API (`/admin/v1`) for `Authorization: Bearer <ADMIN_TOKEN>`. Without it `/admin/v1` answers 404 saying so',
      range: 'at least 16 characters',
      check: (token) => (token.length < 16 ? 'ADMIN_TOKEN must be at least 16 characters long' : undefined),
    }),
  },
  (values, report) => {
    const { host, port } = values;
    const listenHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    const publicBaseUrl = (
      values.publicBaseUrl ?? `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`
    ).replace(/\/+$/, '');
    if (listenHost !== host && !report.given('publicBaseUrl')) {
      report.warn(
        `HOST is ${host} but PUBLIC_BASE_URL is not set: the public links the API hands out (store logos, labels) ` +
          `will point to ${publicBaseUrl}, which other machines cannot open. Set PUBLIC_BASE_URL to the address ` +
          'clients reach this server at (e.g. https://ship.example.in).',
      );
    }
    return { ...values, publicBaseUrl };
  },
);

export type ServerSettings = SettingsOf<typeof serverSettings>;

/** What /admin/v1 answers while the operator API is off. */
export const ADMIN_DISABLED = `The operator API (/admin/v1) is disabled: set ${serverSettings.settings.adminToken.env} (at least 16 characters) in the environment and restart the server`;

/** proxy-addr's names for the address ranges a proxy in front of the server usually has. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrBlock(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * "true" (trust every hop) is refused: any client could then name itself in X-Forwarded-For and
 * escape the per-address login and tracking-page limits.
 */
function parseTrustProxy(raw: string): TrustProxy {
  if (raw === 'false') return false;
  const explain =
    'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal)';
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
    throw new ConfigError(`${explain}, got "${raw}"`);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrBlock(entry));
  if (bad.length > 0)
    throw new ConfigError(`${explain}, got "${raw}" (not an address: ${bad.map((b) => `"${b}"`).join(', ')})`);
  return Object.freeze(entries);
}
