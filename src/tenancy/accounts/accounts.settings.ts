import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';
import { DEFAULT_PASSWORD_HASH_COST } from './credentials.js';

/** How many failed logins are let through, per username and address, before backing off; members; password hashing. */
export const accountSettings = defineSettings(
  {
    loginAttemptsPerMinute: count('LOGIN_ATTEMPTS_PER_MINUTE', {
      doc: 'failed logins of one username from one client address in a minute before that address is refused for that username (429)',
      default: 10,
      min: 1,
      max: 10_000,
    }),
    // Ten times the pair's: one user's typos stop at the pair's limit, so it takes ten users failing
    // their limit within a minute to block an office behind one NAT.
    loginAddressAttemptsPerMinute: count('LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE', {
      doc: 'failed logins from one client address in a minute, over all usernames, before the address is refused; raise it for many users behind one NAT',
      default: 100,
      min: 1,
      max: 1_000_000,
    }),
    loginUsernameAttemptsPer15Minutes: count('LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES', {
      doc: 'failed logins of one username in 15 minutes, over all addresses, past which addresses that failed for it are refused while fresh ones are still checked',
      default: 30,
      min: 1,
      max: 1_000_000,
    }),
    passwordHashCost: count('PASSWORD_HASH_COST', {
      doc: "scrypt's cost (N) for new password hashes, a power of two: a sign-in takes about N / 16384 × 50 ms of one core. Every stored hash keeps its own cost, so a change applies to new passwords and old ones still sign in",
      default: DEFAULT_PASSWORD_HASH_COST,
      min: 1024,
      max: 1_048_576,
    }),
    membersPerAccount: count('MEMBERS_PER_ACCOUNT', {
      doc: 'the most members an account may have besides its own login, invited ones counted (a 422 past it); unset: no limit',
      default: undefined,
      min: 1,
      max: 10_000,
    }),
  },
  (values, report) => {
    // scrypt takes only powers of two.
    if ((values.passwordHashCost & (values.passwordHashCost - 1)) !== 0)
      report.problem(`PASSWORD_HASH_COST must be a power of two (16384, 32768, …), got ${values.passwordHashCost}`);
    return values;
  },
);

export type AccountSettings = SettingsOf<typeof accountSettings>;
