// What a credential may do (issue 51): the permissions every route is mapped to
// (src/route-permissions.ts) and an API key's scopes are chosen from. Roles of members will be
// sets of these; a key made without scopes, and every key made before scopes existed, holds them all.

export const PERMISSIONS = {
  'shipments:read': 'Read orders and shipments, their labels, pickups, manifests and reports.',
  'shipments:write':
    'Book, change and cancel orders and shipments; labels, pickups, manifests, kept scans and channel syncs.',
  'ndr:write':
    'Act on failed deliveries: re-attempts, returns to origin, and asking the buyer to pay online instead of cash.',
  'buyers:read':
    "See buyers' names, phones, e-mails and street addresses, print labels, read a refund's payee, and search by phone or e-mail; without it they are masked (98******10).",
  'buyers:erase':
    "Erase a buyer's personal data on their request (names, phones, e-mails and addresses everywhere they were copied); cannot be undone.",
  'tracking:read': "Track shipments and returns: their scans and status, as the buyer's tracking page shows them.",
  'returns:read': 'Read returns, exchanges, return requests and their reports.',
  'returns:write': 'Book and cancel returns and exchanges; decide return requests.',
  'money:read': 'Read COD remittances, charges, weight disputes, refunds and invoices.',
  'money:write': 'Import remittances, dispute weights, settle charges and move refunds.',
  'settings:read': 'Read stores, warehouses, rules, webhooks, channels, templates and API keys.',
  'settings:write': 'Change stores, warehouses, rules, webhooks, channels and templates; make and revoke API keys.',
  'members:manage': "Invite, suspend and remove the account's members and change their roles.",
  'audit:read': "Read the account's audit log: who did what, when and from where.",
} as const;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/**
 * Whether a credential holding `scopes` may do what `needed` names: null scopes hold everything
 * (a key made without scopes, a session of the account's owner).
 */
export const allows = (scopes: readonly string[] | null, needed: Permission): boolean =>
  scopes === null || scopes.includes(needed);

/** Scopes asked for a new key, within what its maker holds: the ones beyond it, in the order asked. */
export const beyond = (asked: readonly string[], maker: readonly string[] | null): string[] =>
  maker === null ? [] : asked.filter((permission) => !maker.includes(permission));

/**
 * Whom a credential stands for: the account, what it may do there (null: everything, as its owner
 * may), and the member it was made by or signed in as (null: the account's own login, or a key
 * made before members existed).
 */
export interface Principal {
  accountId: string;
  scopes: readonly string[] | null;
  memberId: string | null;
  /**
   * How it came: a panel session, an API key (`keyId` names it), a Velocity access token, the
   * operator's API, or Dakiya itself acting for the account (an NDR rule, the buyer's tracking page).
   */
  via?: 'session' | 'api_key' | 'access_token' | 'operator' | 'system';
  keyId?: string | null;
  /**
   * The stores it may see and act on (a 3PL's key, a brand manager): their orders, shipments and
   * reports, and nothing of the others (http/store-guard.ts). Null or absent: every store.
   */
  stores?: readonly string[] | null;
}

/** Who does something, and from where: what the audit log writes down. */
export interface Actor extends Principal {
  ip?: string;
  userAgent?: string;
  /** For Dakiya acting on its own (`via: 'system'`): on whose behalf, in words ("NDR rule Rain"). */
  label?: string;
}

/** Dakiya acting for the account on its own: a rule it runs, a buyer's request it carries out. */
export const systemActor = (accountId: string, label: string): Actor => ({
  accountId,
  scopes: null,
  memberId: null,
  via: 'system',
  label,
});

/** The server's operator (ADMIN_TOKEN) acting on an account: an import it makes for the account, say. */
export const operatorFor = (accountId: string): Actor => ({ accountId, scopes: null, memberId: null, via: 'operator' });

/**
 * What a credential limited to `scopes` holds when its holder is limited to `limit`: the two at
 * once (null: no limit). Permissions and stores alike.
 */
export const within = (scopes: readonly string[] | null, limit: readonly string[] | null): readonly string[] | null =>
  limit === null ? scopes : scopes === null ? limit : scopes.filter((permission) => limit.includes(permission));
