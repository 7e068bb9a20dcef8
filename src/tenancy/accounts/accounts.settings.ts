import { count } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** How many failed logins are let through, per username and address, before backing off. */
export const accountSettings = defineSettings({
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
  membersPerAccount: count('MEMBERS_PER_ACCOUNT', {
    doc: 'the most members an account may have besides its own login, invited ones counted (a 422 past it); unset: no limit',
    default: undefined,
    min: 1,
    max: 10_000,
  }),
});

export type AccountSettings = SettingsOf<typeof accountSettings>;
