import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { markAnonymised } from './anonymisation.repository.js';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/access/permissions.js';
import { DomainError } from '../../domain/errors.js';
import { type BuyerValues, noBuyerValues } from '../../domain/privacy/buyer-scrub.js';
import type { RecordAudit } from '../../tenancy/audit/audit.js';
import * as exportRepo from './account-export.repository.js';
import * as repo from './erasure.repository.js';
import { scrubBuyerCopies } from './buyer-copies.js';
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
  deleted: { rto_history: number; return_request_photos: number; account_exports: number };
}

/**
 * A buyer's erasure on their request (DPDP Act 2023, s. 12): every copy of their name, phone,
 * e-mail and street address replaced by a marker in one transaction, the RTO history kept by their
 * phone and their photos removed, and an audit entry that says an erasure happened and by whom,
 * without the data. Their orders, shipments and money stay: the merchant's records.
 */
export function createErasure({
  db,
  clock,
  recordAudit,
  removeArchives,
}: {
  db: Db;
  clock: Clock;
  recordAudit: RecordAudit;
  /** The files of the exports an erasure withdrew, removed once it has committed. */
  removeArchives: (exportIds: string[]) => Promise<void>;
}) {
  return {
    async erase(actor: Actor, who: repo.BuyerQuery): Promise<ErasureAnswer> {
      const { accountId } = actor;
      const answer = await db.transaction(async (tx) => {
        const subjects = await repo.findSubjects(tx, accountId, who);
        const open = await repo.openParcels(tx, accountId, subjects);
        if (open.length > 0) {
          throw new DomainError(
            'conflict',
            [
              `${open.length} of the buyer's parcels are not yet delivered, returned, cancelled or lost: nothing was erased`,
            ],
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
        const scrubbed = await scrubBuyerCopies(tx, accountId, subjects, asked, 'erasure');
        // A buyer with no order, return or request may still be named by what a row holds (a
        // store's order never booked, its address refused): nothing at all is a 404, rolled back.
        const named = subjects.orders.length + subjects.returns.length + subjects.requests.length > 0;
        if (
          !named &&
          Object.keys(scrubbed.erased).length === 0 &&
          !Object.values(scrubbed.deleted).some((n) => n > 0)
        ) {
          throw PRIVACY_ERRORS.buyer_not_found.error(
            'nothing of this account names this buyer (no order, return, return request, store order or RTO history): nothing was erased',
          );
        }
        // The account's export archives that may hold the buyer as they were (being written, or
        // finished since the buyer's first order, return or request): withdrawn with the erasure,
        // a writer finding its export gone. Older archives cannot hold them and stay; a buyer named
        // only by what rows hold may be in any archive, so all go.
        const since = named ? await repo.firstWritten(tx, accountId, subjects) : new Date(0);
        const withdrawn = await exportRepo.deleteExportsSince(tx, accountId, since);
        const { erased } = scrubbed;
        const deleted = { ...scrubbed.deleted, account_exports: withdrawn.length };
        await markAnonymised(tx, accountId, subjects, clock.now());
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
        return { answer, withdrawn };
      });
      await removeArchives(answer.withdrawn);
      return answer.answer;
    },
  };
}

export type Erasure = ReturnType<typeof createErasure>;
