import { describe, expect, it } from 'vitest';
import { allows, beyond, type Permission } from './permissions.js';

describe('what a credential may do', () => {
  const cases: [readonly string[] | null, Permission, boolean][] = [
    // No scopes: a key made before scopes, a token, the panel's session.
    [null, 'settings:write', true],
    [['shipments:read'], 'shipments:read', true],
    [['shipments:read'], 'shipments:write', false],
    [['shipments:write'], 'shipments:read', false],
    [[], 'tracking:read', false],
  ];
  it.each(cases)('scopes %j, needing %s: %s', (scopes, needed, allowed) => {
    expect(allows(scopes, needed)).toBe(allowed);
  });
});

describe("a new key's scopes beyond its maker's", () => {
  const cases: [readonly string[], readonly string[] | null, string[]][] = [
    [['money:write'], null, []],
    [['settings:read'], ['settings:read', 'settings:write'], []],
    [
      ['settings:read', 'money:write', 'shipments:write'],
      ['settings:read', 'settings:write'],
      ['money:write', 'shipments:write'],
    ],
    [[], ['tracking:read'], []],
  ];
  it.each(cases)('asking %j of a maker holding %j: %j', (asked, maker, over) => {
    expect(beyond(asked, maker)).toEqual(over);
  });
});
