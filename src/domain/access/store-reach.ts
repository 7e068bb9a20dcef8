// Store-limited credentials (issue 51): a 3PL's key or a brand manager sees and acts on some
// stores only. Each account route says how it keeps to them (src/route-permissions.ts), and one
// hook holds it to that (http/store-guard.ts).

/** What a request names that belongs to a store: the hook finds each one's store before the route runs. */
export interface NamedObjects {
  /** Shipments, each by its id or its AWB; a return's AWB or shipment id is found as the return. */
  shipments?: readonly string[];
  /** Returns, by return_id. */
  returns?: readonly string[];
  /** Orders, by the merchant's order_id. */
  orders?: readonly string[];
  /** Stores, by id. */
  stores?: readonly string[];
  /** Pickups, by id: a pickup is of every store its parcels are of. */
  pickups?: readonly string[];
  /** Buyers' return requests and refunds, and couriers' weight disputes, by id. */
  returnRequests?: readonly string[];
  refunds?: readonly string[];
  weightDisputes?: readonly string[];
  /** A new order's store, by name (store_name): a limited credential books only into its own. */
  booksInto?: { storeName: unknown };
  /**
   * What a new object would belong to no store by: the field that should have named its store (or
   * the shipment it comes from), and why. A limited credential could not see such an object once
   * made, so it is refused the request (422 store_required).
   */
  unplaced?: { field: string; why: string };
}

/**
 * How a route keeps to a credential's stores: `account`, it answers nothing of any store
 * (reference data, warehouses); `filtered`, it limits its own answer to them (a listing); a
 * function, the objects the request names, whose stores the hook checks; a route without an
 * entry answers for every store at once, and a limited credential is refused it.
 */
export type StoreReach = 'account' | 'filtered' | ((request: { params: unknown; body: unknown }) => NamedObjects);

/**
 * An object the request named, found: what it was called in the request and the store it belongs
 * to; an object of several stores (a pickup) is found once per store, and reached when each is.
 */
export interface FoundObject {
  named: string;
  kind: 'shipment' | 'return' | 'order' | 'store' | 'return_request' | 'refund' | 'weight_dispute' | 'pickup';
  storeId: string | null;
}

/** Finds the store of each object named, in the account; objects not found are left out (the route answers them). */
export type LocateStores = (accountId: string, named: NamedObjects) => Promise<FoundObject[]>;

/** Whether a credential reaching `reach` (null: every store) may see an object of `storeId` (null: of no store). */
export const reaches = (reach: readonly string[] | null | undefined, storeId: string | null): boolean =>
  reach === null || reach === undefined || (storeId !== null && reach.includes(storeId));
