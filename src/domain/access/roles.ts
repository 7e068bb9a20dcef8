import { PERMISSION_NAMES, type Permission } from './permissions.js';

// The roles a member of an account holds (issue 51), each a set of permissions. An owner holds
// everything, which is written as null (what the account's own login and a full-scope key hold):
// ownership is not one more permission but "no limit", so a permission added later is an owner's
// at once. An admin holds every permission by name, and so never what only an owner may do
// (members.service.ts: invite, change, suspend or remove an owner).

const READ_ALL: Permission[] = ['shipments:read', 'tracking:read', 'returns:read', 'money:read', 'settings:read'];

export const ROLES = {
  owner: { permissions: null, doc: 'Everything, members and owners included.' },
  admin: { permissions: PERMISSION_NAMES, doc: 'Everything but owners: cannot invite, change or remove an owner.' },
  operations: {
    permissions: [
      'shipments:read',
      'shipments:write',
      'ndr:write',
      'buyers:read',
      'tracking:read',
      'returns:read',
      'returns:write',
      'settings:read',
    ],
    doc: 'Books and cancels, labels, pickups and manifests, NDR and RTO actions, returns; reads settings, no money.',
  },
  finance: {
    permissions: ['shipments:read', 'tracking:read', 'returns:read', 'money:read', 'money:write'],
    doc: "COD remittances, charges, weight disputes, refunds and their exports; reads shipments and returns, buyers' details masked.",
  },
  support: {
    permissions: ['shipments:read', 'buyers:read', 'tracking:read', 'returns:read', 'ndr:write'],
    doc: 'Reads shipments, tracking and returns, and acts on failed deliveries with the buyer; no money, no settings.',
  },
  viewer: { permissions: READ_ALL, doc: "Reads everything, changes nothing; buyers' details masked." },
} as const satisfies Record<string, { permissions: readonly Permission[] | null; doc: string }>;

export type Role = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as Role[];

/** What a member of `role` may do: null for everything (an owner). */
export const permissionsOf = (role: Role): readonly Permission[] | null => ROLES[role].permissions;

/** Whether a credential holding `scopes` acts as an owner: only an owner holds everything unnamed. */
export const isOwnerScope = (scopes: readonly string[] | null): boolean => scopes === null;

export const isRole = (value: string): value is Role => Object.hasOwn(ROLES, value);

/** An account's own role's name: lower case, a letter first, then letters, digits and hyphens. */
export const CUSTOM_ROLE_NAME = /^[a-z][a-z0-9-]{1,39}$/;

/**
 * What a member holding `role` may do: a built-in role's permissions, or a custom role's as the
 * account defined them (`custom`, null when the account has no such role: nothing).
 */
export function roleHolds(role: string, custom: readonly string[] | null): readonly Permission[] | null {
  if (isRole(role)) return permissionsOf(role);
  return (custom ?? []).filter((permission): permission is Permission =>
    PERMISSION_NAMES.includes(permission as Permission),
  );
}
