import type { Executor } from '../../base/db/client.js';
import { ACCESS_ERRORS } from '../../domain/access/access.errors.js';
import type { Principal } from '../../domain/access/permissions.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { findStoreIds } from './accounts.repository.js';

/**
 * The stores a new member or key is limited to (issue 51), settled against who makes it: asked
 * for none, it reaches what its maker reaches; asked for stores, each must be the account's and
 * within the maker's own, or it is refused naming each one; a maker limited to stores cannot make
 * anything that reaches every store (`null`). Answers the ids in the order asked, each once.
 */
export async function settleStores(
  executor: Executor,
  maker: Principal,
  asked: readonly string[] | null | undefined,
  field = 'stores',
): Promise<string[] | null> {
  const reach = maker.stores ?? null;
  if (asked === undefined) return reach === null ? null : [...reach];
  if (asked === null) {
    if (reach === null) return null;
    throw ACCESS_ERRORS.permission_denied.error(
      `${field}: this credential is limited to ${reach.length} store(s), so what it makes is too: name them`,
      field,
    );
  }
  const ids = [...new Set(asked.map((id) => id.toLowerCase()))];
  const at = (id: string) => `${field}.${asked.findIndex((one) => one.toLowerCase() === id)}`;
  const known = new Set(await findStoreIds(executor, maker.accountId, ids));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw ACCOUNT_ERRORS.store_not_of_account.error(
      unknown.map((id) => `${field}: ${id} is not a store of this account (GET /client-stores)`),
      unknown.map((id) => ({ field: at(id), message: 'is not a store of this account' })),
    );
  const beyond = reach === null ? [] : ids.filter((id) => !reach.includes(id));
  if (beyond.length > 0)
    throw ACCESS_ERRORS.permission_denied.error(
      beyond.map((id) => `${field}: this credential does not reach store ${id}, so what it makes cannot`),
      beyond.map((id) => ({ field: at(id), message: "is beyond this credential's stores" })),
    );
  return ids;
}
