import { useSession } from './session';

/** What a member or a key may be allowed (the API's permissions, docs/teams.md), as the merchant reads them. */
export const PERMISSIONS = [
  ['shipments:read', 'Read orders, shipments, labels and reports'],
  ['shipments:write', 'Book, change and cancel shipments; labels, pickups and manifests'],
  ['ndr:write', 'Act on failed deliveries: re-attempts, RTO, asking the buyer to pay online'],
  ['buyers:read', "See buyers' names, phones, e-mails and addresses; print labels"],
  ['buyers:erase', "Erase a buyer's personal data on their request"],
  ['tracking:read', 'Track shipments and returns'],
  ['returns:read', 'Read returns, exchanges and return requests'],
  ['returns:write', 'Book returns and exchanges; decide return requests'],
  ['money:read', 'Read COD, charges, weight disputes and refunds'],
  ['money:write', 'Import remittances, dispute weights, move refunds'],
  ['settings:read', 'Read stores, warehouses, rules, webhooks and keys'],
  ['settings:write', 'Change settings; make and revoke API keys'],
  ['members:manage', 'Invite, suspend and remove members; change their roles'],
  ['audit:read', 'Read the audit log: who did what, when, from where'],
] as const;
export type Permission = (typeof PERMISSIONS)[number][0];

/**
 * Whether the one signed in may do what `permission` names: the account's own login and an owner
 * may do everything. The panel hides what they may not; the API refuses it whatever the panel shows.
 */
export function useCan(): (permission: Permission) => boolean {
  const { session } = useSession();
  if (session.two_factor_setup_required) return () => false;
  const held = session.member?.permissions;
  return (permission) => held === undefined || held === null || held.includes(permission);
}

/**
 * Whether the one signed in is limited to some stores (a 3PL, a brand manager): the screens that
 * answer for every store at once (settings) are not theirs, nor are a remittance file's import
 * and a booking of no store.
 */
export function useStoreLimited(): boolean {
  const { session } = useSession();
  const stores = session.member?.stores;
  return stores !== undefined && stores !== null;
}
