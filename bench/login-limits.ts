/**
 * How many passwords an attacker gets checked under the login limits.
 *
 *   npx tsx bench/login-limits.ts
 *
 * The real application (in-memory PGlite, the default LOGIN_ATTEMPTS_PER_MINUTE unless set) with
 * a clock the script moves: an attacker guesses one username from one address, or many usernames
 * from one address, or one username from a new address each time, and waits exactly as long as
 * each 429's Retry-After says. Counted: guesses answered 401 (a password was checked) before the
 * first 429, and over one simulated hour and day.
 */
import { buildApp } from '../src/app.js';
import type { Clock } from '../src/base/clock.js';
import { openPglite } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';

const allowance = Number(process.env.LOGIN_ATTEMPTS_PER_MINUTE ?? 10);
const ADMIN = 'bench-admin-token-0123456789abcdef';
let now = Date.parse('2026-11-20T06:30:00Z');
const clock: Clock = { now: () => new Date(now) };

const database = await openPglite();
await migrate(database.db);
const app = await buildApp({ db: database.db, clock, adminToken: ADMIN, publicBaseUrl: 'http://127.0.0.1', limits: { loginAttemptsPerMinute: allowance } });

let accounts = 0;
async function newUsername(): Promise<string> {
  const username = `victim.${++accounts}`;
  const response = await app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: username, username, password: 'the real password' } });
  if (response.statusCode !== 201) throw new Error(response.body);
  return username;
}

let addresses = 0;
const newAddress = () => `10.${(++addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;

async function attack(label: string, next: () => Promise<{ username: string; address: string }>) {
  const start = now;
  let checked = 0;
  let beforeFirst429: number | undefined;
  let inFirstHour = 0;
  while (now - start < 24 * 3600_000) {
    const { username, address } = await next();
    const response = await app.inject({ method: 'POST', url: '/custom/api/v1/auth-token', payload: { username, password: `guess ${checked}` }, remoteAddress: address });
    if (response.statusCode === 401) {
      checked++;
      if (now - start < 3600_000) inFirstHour++;
    } else if (response.statusCode === 429) {
      beforeFirst429 ??= checked;
      now += Number(response.headers['retry-after']) * 1000;
    } else {
      throw new Error(`unexpected ${response.statusCode} ${response.body}`);
    }
  }
  console.log(`${label.padEnd(52)} before the first 429: ${String(beforeFirst429).padStart(3)}   first hour: ${String(inFirstHour).padStart(4)}   24 h: ${String(checked).padStart(5)}`);
}

console.log(`LOGIN_ATTEMPTS_PER_MINUTE=${allowance}; the attacker retries the moment Retry-After allows`);
const victim = await newUsername();
const fixedAddress = newAddress();
await attack('one username, one address', async () => ({ username: victim, address: fixedAddress }));
const rotated = await newUsername();
await attack('one username, a new address every guess', async () => ({ username: rotated, address: newAddress() }));
const sprayer = newAddress();
const usernames = await Promise.all(Array.from({ length: 200 }, newUsername));
let sprayed = 0;
await attack('200 usernames in turn, one address', async () => ({ username: usernames[sprayed++ % usernames.length]!, address: sprayer }));

await app.close();
await database.close();
