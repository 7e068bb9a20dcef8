import type { Db, Tx } from '../../base/db/client.js';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/access/permissions.js';
import { DomainError } from '../../domain/errors.js';
import {
  type BuyerValues,
  buyerScrubber,
  collectBuyerValues,
  noBuyerValues,
} from '../../domain/privacy/buyer-scrub.js';
import type { RecordAudit } from '../../tenancy/audit/audit.js';
import * as repo from './erasure.repository.js';
import { PERSONAL_TABLES, type PersonalTable } from './personal-columns.js';
import { PRIVACY_ERRORS } from './privacy.errors.js';

/** What an erasure found of the buyer's, and what it changed where. */
export interface ErasureAnswer {
  erasure_id: string;
  found: {
    orders: number;
    shipments: number;
    returns: number;
    return_requests: number;
    exchanges: number;
    refunds: number;
  };
  /** Rows whose copies of the buyer were replaced, by table (tables with none left out). */
  erased: Record<string, number>;
  /** Rows removed: the RTO history kept by the buyer's phone, the photos of their return requests. */
  deleted: { rto_history: number; return_request_photos: number };
}

/**
 * A buyer's erasure on their request (DPDP Act 2023, s. 12): every copy of their name, phone,
 * e-mail and street address replaced by a marker in one transaction, the RTO history kept by their
 * phone and their photos removed, and an audit entry that says an erasure happened and by whom,
 * without the data. Their orders, shipments and money stay: the merchant's records.
 */
export function createErasure({ db, recordAudit }: { db: Db; recordAudit: RecordAudit }) {
  /** The buyer's rows of every table, and every value of theirs those rows hold. */
  async function gather(tx: Tx, accountId: string, subjects: repo.Subjects, values: BuyerValues, keep: string[]) {
    const rows = new Map<PersonalTable, repo.Row[]>();
    const collect = (table: PersonalTable, found: repo.Row[]) => {
      rows.set(table, found);
      for (const row of found) collectBuyerValues(row, values);
    };
    // Tables found by what they hold are searched with the phones and e-mails the others gave.
    const [linked, searched] = [
      PERSONAL_TABLES.filter((t) => !t.links.some((l) => 'holds' in l)),
      PERSONAL_TABLES.filter((t) => t.links.some((l) => 'holds' in l)),
    ];
    const holding = buyerScrubber(values, keep);
    for (const table of linked) collect(table, await repo.linkedRows(tx, accountId, table, subjects, holding));
    const known = buyerScrubber(values, keep);
    for (const table of searched) collect(table, await repo.linkedRows(tx, accountId, table, subjects, known));
    return { rows, scrubber: buyerScrubber(values, keep) };
  }

  return {
    async erase(actor: Actor, who: repo.BuyerQuery): Promise<ErasureAnswer> {
      const { accountId } = actor;
      return db.transaction(async (tx) => {
        const subjects = await repo.findSubjects(tx, accountId, who);
        if (subjects.orders.length + subjects.returns.length + subjects.requests.length === 0) {
          throw PRIVACY_ERRORS.buyer_not_found.error(
            'no order, return or return request of this account names this buyer: nothing was erased',
          );
        }
        const open = await repo.openParcels(tx, accountId, subjects);
        if (open.length > 0) {
          throw new DomainError(
            'conflict',
            [`${open.length} of the buyer's parcels are not yet delivered, returned or cancelled: nothing was erased`],
            open.map(({ id, awb }) =>
              awb === null
                ? { field: 'shipment_id', message: `${id} is not shipped yet; it needs the address` }
                : { field: 'awb', message: `${awb} is on its way; its courier needs the address` },
            ),
            PRIVACY_ERRORS.buyer_parcels_on_the_way.code,
          );
        }
        const asked: BuyerValues = {
          ...noBuyerValues(),
          phones: who.phone ? [who.phone] : [],
          emails: who.email ? [who.email] : [],
        };
        const { rows, scrubber } = await gather(
          tx,
          accountId,
          subjects,
          asked,
          await repo.accountContacts(tx, accountId),
        );
        const erased: Record<string, number> = {};
        for (const [table, found] of rows) {
          for (const row of found) {
            const changes: Record<string, unknown> = {};
            for (const column of table.text ?? []) {
              const value = row[column];
              if (typeof value === 'string' && scrubber.text(value) !== value) changes[column] = scrubber.text(value);
            }
            for (const column of table.json ?? []) {
              const value = row[column];
              const scrubbed = scrubber.json(value);
              if (JSON.stringify(scrubbed) !== JSON.stringify(value)) changes[column] = scrubbed;
            }
            for (const column of table.clear ?? []) if (row[column] !== null) changes[column] = null;
            if (Object.keys(changes).length === 0) continue;
            await repo.updateRow(tx, accountId, table, row, changes);
            erased[table.table] = (erased[table.table] ?? 0) + 1;
          }
        }
        const deleted = await repo.deleteBuyerRows(tx, accountId, subjects, scrubber.phones);
        const answer: ErasureAnswer = {
          erasure_id: randomUUID(),
          found: {
            orders: subjects.orders.length,
            shipments: subjects.shipments.length,
            returns: subjects.returns.length,
            return_requests: subjects.requests.length,
            exchanges: subjects.exchanges.length,
            refunds: subjects.refunds.length,
          },
          erased,
          deleted,
        };
        await recordAudit(tx, actor, {
          action: 'buyer.erased',
          objectType: 'buyer_erasure',
          objectId: answer.erasure_id,
          // How the buyer was named and what was done: never who they are.
          changes: {
            named_by: Object.keys(who).filter((k) => who[k as keyof repo.BuyerQuery] !== undefined),
            found: answer.found,
            erased,
            deleted,
          },
        });
        return answer;
      });
    },
  };
}

export type Erasure = ReturnType<typeof createErasure>;
