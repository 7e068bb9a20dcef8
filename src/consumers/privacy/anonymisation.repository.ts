import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { returnFinished, shipmentColumnsOf, shipmentFinished } from '../../base/db/schema.js';
import type { Subjects } from './erasure.repository.js';

/** A finished order (by its shipment) or a return of no forward shipment whose buyer is due to be anonymised. */
export interface Due {
  account_id: string;
  order_id: string | null;
  return_id: string | null;
}

const SHIPMENT_FINISHED = shipmentFinished(shipmentColumnsOf('s'));
const RETURN_FINISHED = returnFinished(sql.raw('r.status'));
const uuids = (list: readonly string[]) => sql`${`{${list.join(',')}}`}::uuid[]`;

/**
 * Up to `limit` of each, oldest first, over every account: shipments finished before their
 * account's period (its own, else `defaultDays`) whose returns are finished too, and returns of no
 * forward shipment likewise; none of `skip` (refused earlier in the run). `floorDays` bounds the
 * index walk: no account's period is shorter.
 */
export async function dueForAnonymisation(
  db: Executor,
  {
    now,
    defaultDays,
    floorDays,
    limit,
    skip,
  }: { now: Date; defaultDays: number; floorDays: number; limit: number; skip: readonly string[] },
): Promise<Due[]> {
  const at = now.toISOString();
  return queryRows<Due>(
    db,
    sql`(select s.account_id, s.order_id, null::uuid as return_id from shipments s
          left join privacy_settings p on p.account_id = s.account_id
          where s.buyer_anonymised_at is null and ${SHIPMENT_FINISHED}
            and s.updated_at < ${at}::timestamptz - make_interval(days => ${floorDays}::int)
            and s.updated_at < ${at}::timestamptz - make_interval(days => coalesce(p.anonymise_after_days, ${defaultDays}::int))
            and s.order_id <> all(${uuids(skip)})
            and not exists (select 1 from returns r where r.account_id = s.account_id and r.forward_shipment_id = s.id
                            and not ${RETURN_FINISHED})
          order by s.updated_at limit ${limit})
        union all
        (select r.account_id, null::uuid, r.id from returns r
          left join privacy_settings p on p.account_id = r.account_id
          where r.buyer_anonymised_at is null and r.forward_shipment_id is null and ${RETURN_FINISHED}
            and r.updated_at < ${at}::timestamptz - make_interval(days => ${floorDays}::int)
            and r.updated_at < ${at}::timestamptz - make_interval(days => coalesce(p.anonymise_after_days, ${defaultDays}::int))
            and r.id <> all(${uuids(skip)})
          order by r.updated_at limit ${limit})`,
  );
}

/** Stamps the shipments and returns whose buyer was scrubbed, so no run takes them again. */
export async function markAnonymised(tx: Executor, accountId: string, subjects: Subjects, at: Date): Promise<void> {
  await tx.execute(
    sql`update shipments set buyer_anonymised_at = ${at.toISOString()}::timestamptz
        where account_id = ${accountId} and id = any(${uuids(subjects.shipments)}) and buyer_anonymised_at is null`,
  );
  await tx.execute(
    sql`update returns set buyer_anonymised_at = ${at.toISOString()}::timestamptz
        where account_id = ${accountId} and id = any(${uuids(subjects.returns)}) and buyer_anonymised_at is null`,
  );
}

/** The account's own period, or null when it keeps the operator's default. */
export async function accountPeriod(db: Executor, accountId: string): Promise<number | null> {
  const [row] = await queryRows<{ days: number }>(
    db,
    sql`select anonymise_after_days as days from privacy_settings where account_id = ${accountId}`,
  );
  return row?.days ?? null;
}

export async function setAccountPeriod(db: Executor, accountId: string, days: number, at: Date): Promise<void> {
  await db.execute(
    sql`insert into privacy_settings (account_id, anonymise_after_days, updated_at)
        values (${accountId}, ${days}, ${at.toISOString()}::timestamptz)
        on conflict (account_id) do update set anonymise_after_days = excluded.anonymise_after_days, updated_at = excluded.updated_at`,
  );
}
