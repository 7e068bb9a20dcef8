import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../base/config-error.js';
import { loadSettings } from '../../settings.js';
import { DEFAULT_PASSWORD_HASH_COST, passwordHasher } from './credentials.js';

// Passwords hashed with scrypt at the operator's cost: each hash says its parameters, so a cost
// changed later (PASSWORD_HASH_COST) applies to new passwords and every older hash still signs in.

describe('password hashes', () => {
  it('say their cost, verify the password at it whatever the current cost, and refuse any other password', async () => {
    const cheap = passwordHasher(1024);
    const standard = passwordHasher(DEFAULT_PASSWORD_HASH_COST);
    const old = await cheap.hash('correct horse');
    expect(old).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    const current = await standard.hash('correct horse');
    expect(current).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await standard.verify('correct horse', old)).toBe(true);
    expect(await cheap.verify('correct horse', current)).toBe(true);
    expect(await standard.verify('wrong horse', old)).toBe(false);
    // Salted: the same password never hashes the same twice.
    expect(await cheap.hash('correct horse')).not.toBe(old);
    // No stored hash (an unknown user): the decoy is checked, and never matches.
    expect(await standard.verify('', null)).toBe(false);
    expect(await standard.verify('anything', 'md5$not-ours')).toBe(false);
  });

  it('take the cost from PASSWORD_HASH_COST: 16384 unless set, a power of two from 1024 up', () => {
    expect(loadSettings({}).settings.accounts.passwordHashCost).toBe(16384);
    expect(loadSettings({ PASSWORD_HASH_COST: '32768' }).settings.accounts.passwordHashCost).toBe(32768);
    for (const [raw, message] of [
      ['512', 'PASSWORD_HASH_COST must be a whole number from 1024 to 1048576, got "512"'],
      ['20000', 'PASSWORD_HASH_COST must be a power of two (16384, 32768, …), got 20000'],
    ]) {
      expect(() => loadSettings({ PASSWORD_HASH_COST: raw })).toThrow(ConfigError);
      expect(() => loadSettings({ PASSWORD_HASH_COST: raw })).toThrow(message);
    }
  });
});
