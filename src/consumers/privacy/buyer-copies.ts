import type { Tx } from '../../base/db/client.js';
import { type BuyerValues, buyerScrubber, collectBuyerValues } from '../../domain/privacy/buyer-scrub.js';
import * as repo from './erasure.repository.js';
import { PERSONAL_TABLES, type PersonalTable } from './personal-columns.js';

/**
 * `erasure`: on the buyer's request, everything of theirs in the account: also rows found only by
 * what they hold (a store's order never booked, an idempotent answer) and the RTO history kept by
 * their phone. `anonymisation`: one finished order's or return's own rows, and nothing that serves
 * the buyer's other, newer orders (their RTO history stays, a store's other orders are not searched).
 */
export type Reach = 'erasure' | 'anonymisation';

/** What scrubbing a buyer's copies changed: rows by table, and rows removed. */
export interface Scrubbed {
  erased: Record<string, number>;
  deleted: { rto_history: number; return_request_photos: number };
}

const searches = (table: PersonalTable) => table.links.some((link) => 'holds' in link);

/** The buyer's rows of every table, and every value of theirs those rows hold (added to `values`). */
async function gather(
  tx: Tx,
  accountId: string,
  subjects: repo.Subjects,
  values: BuyerValues,
  keep: string[],
  reach: Reach,
) {
  const rows = new Map<PersonalTable, repo.Row[]>();
  const collect = (table: PersonalTable, found: repo.Row[]) => {
    rows.set(table, found);
    for (const row of found) collectBuyerValues(row, values);
  };
  const none = { phones: [], emails: [] };
  for (const table of PERSONAL_TABLES.filter((t) => !searches(t))) {
    collect(table, await repo.linkedRows(tx, accountId, table, subjects, none));
  }
  // Tables found by what they hold are searched with every phone and e-mail the others gave.
  const holding = reach === 'erasure' ? buyerScrubber(values, keep) : none;
  for (const table of PERSONAL_TABLES.filter(searches)) {
    collect(table, await repo.linkedRows(tx, accountId, table, subjects, holding));
  }
  return { rows, scrubber: buyerScrubber(values, keep) };
}

/**
 * Replaces every copy of the buyer's values (those `asked` for, and those their rows hold) in their
 * rows of every table of the register, in the caller's transaction; the merchant's own contacts
 * (warehouses, stores) are kept where a body named them beside the buyer.
 */
export async function scrubBuyerCopies(
  tx: Tx,
  accountId: string,
  subjects: repo.Subjects,
  asked: BuyerValues,
  reach: Reach,
): Promise<Scrubbed> {
  const keep = await repo.accountContacts(tx, accountId);
  const { rows, scrubber } = await gather(tx, accountId, subjects, asked, keep, reach);
  const erased: Record<string, number> = {};
  for (const [table, found] of rows) {
    for (const row of found) {
      const changes: Record<string, unknown> = {};
      for (const column of table.text ?? []) {
        const value = row[column];
        if (typeof value === 'string' && scrubber.text(value) !== value) changes[column] = scrubber.text(value);
      }
      for (const column of table.json ?? []) {
        const scrubbed = scrubber.json(row[column]);
        if (JSON.stringify(scrubbed) !== JSON.stringify(row[column])) changes[column] = scrubbed;
      }
      for (const column of table.clear ?? []) if (row[column] !== null) changes[column] = null;
      if (Object.keys(changes).length === 0) continue;
      await repo.updateRow(tx, accountId, table, row, changes);
      erased[table.table] = (erased[table.table] ?? 0) + 1;
    }
  }
  const deleted = await repo.deleteBuyerRows(tx, accountId, subjects, reach === 'erasure' ? scrubber.phones : []);
  return { erased, deleted };
}
