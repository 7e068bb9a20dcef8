/**
 * How many passwords an attacker gets checked under the login limits.
 *
 *   npx tsx bench/login-limits.ts
 *
 * The real application (in-memory PGlite, the default login limits unless LOGIN_ATTEMPTS_PER_MINUTE,
 * LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE or LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES is set) with a clock
 * the script moves. An attacker guesses one username from one address, or many usernames from one
 * address, waiting exactly as long as each 429's Retry-After says; or one username from a botnet
 * of 1000 addresses in turn, one guess every 2 s, moving on to the next address when refused.
 * Counted: guesses answered 401 (a password was checked) before the first 429, and over one
 * simulated hour and day. Last, whether the owner then logs in from an address of their own.
 */
import { buildApp } from '../src/app.js';
import type { Clock } from '../src/base/clock.js';
import { openPglite } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { loadSettings, withOverrides } from '../src/settings.js';

// The login allowances as the environment sets them (the defaults unless LOGIN_… variables are set).
const { settings } = loadSettings();
const ADMIN = 'bench-admin-token-0123456789abcdef';
let now = Date.parse('2026-11-20T06:30:00Z');
const clock: Clock = { now: () => new Date(now) };

const database = await openPglite();
await migrate(database.db);
const app = await buildApp({
  db: database.db,
  clock,
  settings: withOverrides(settings, { server: { adminToken: ADMIN, publicBaseUrl: 'http://127.0.0.1' } }),
});

let accounts = 0;
async function newUsername(): Promise<string> {
  const username = `victim.${++accounts}`;
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { name: username, username, password: 'the real password' },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return username;
}

let addresses = 0;
const newAddress = () => `10.${(++addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;

/** `pace`: milliseconds to the next guess after a refusal (undefined: as long as Retry-After says) and after a checked one. */
async function attack(
  label: string,
  next: (refused: boolean) => Promise<{ username: string; address: string }>,
  pace: { refused?: number; checked: number },
) {
  const start = now;
  let checked = 0;
  let refused = false;
  let beforeFirst429: number | undefined;
  let inFirstHour = 0;
  while (now - start < 24 * 3600_000) {
    const { username, address } = await next(refused);
    const response = await app.inject({
      method: 'POST',
      url: '/custom/api/v1/auth-token',
      payload: { username, password: `guess ${checked}` },
      remoteAddress: address,
    });
    if (response.statusCode === 401) {
      checked++;
      if (now - start < 3600_000) inFirstHour++;
      refused = false;
      now += pace.checked;
    } else if (response.statusCode === 429) {
      beforeFirst429 ??= checked;
      refused = true;
      now += pace.refused ?? Number(response.headers['retry-after']) * 1000;
    } else {
      throw new Error(`unexpected ${response.statusCode} ${response.body}`);
    }
  }
  console.log(
    `${label.padEnd(58)} before the first 429: ${String(beforeFirst429).padStart(4)}   first hour: ${String(inFirstHour).padStart(5)}   24 h: ${String(checked).padStart(5)}`,
  );
}

console.log(
  `LOGIN_ATTEMPTS_PER_MINUTE=${settings.accounts.loginAttemptsPerMinute} LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE=${settings.accounts.loginAddressAttemptsPerMinute} ` +
    `LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES=${settings.accounts.loginUsernameAttemptsPer15Minutes}`,
);
const victim = await newUsername();
const fixedAddress = newAddress();
await attack('one username, one address, at Retry-After', async () => ({ username: victim, address: fixedAddress }), {
  checked: 0,
});
const sprayer = newAddress();
const usernames = await Promise.all(Array.from({ length: 200 }, newUsername));
let sprayed = 0;
await attack(
  '200 usernames in turn, one address, at Retry-After',
  async () => ({ username: usernames[sprayed++ % usernames.length]!, address: sprayer }),
  { checked: 0 },
);
const target = await newUsername();
const botnet = Array.from({ length: 1000 }, newAddress);
let bot = 0;
await attack(
  'one username, 1000 addresses in turn, a guess every 2 s',
  async () => ({ username: target, address: botnet[bot++ % botnet.length]! }),
  {
    checked: 2000,
    refused: 2000,
  },
);
const owner = await app.inject({
  method: 'POST',
  url: '/custom/api/v1/auth-token',
  payload: { username: target, password: 'the real password' },
  remoteAddress: newAddress(),
});
console.log(`the owner of that username, from an address of their own, during the attack: ${owner.statusCode}`);

await app.close();
await database.close();
