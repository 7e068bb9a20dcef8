import { and, desc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { accounts, shipments, weightDiscrepancies, weightDisputeEvidence } from '../../base/db/schema.js';

export type DiscrepancyRow = typeof weightDiscrepancies.$inferSelect;
export type NewDiscrepancy = Omit<typeof weightDiscrepancies.$inferInsert, 'accountId' | 'id'>;
export interface EvidenceMeta {
  position: number;
  contentType: string;
  sha256: string;
  size: number;
}

export async function accountExists(ex: Executor, accountId: string): Promise<boolean> {
  const rows = await ex.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  return rows.length > 0;
}

/** The account's shipments a report names, with what re-quoting them needs. */
export async function findShipmentsByAwb(ex: Executor, accountId: string, awbs: readonly string[]) {
  if (awbs.length === 0) return [];
  return ex
    .select({
      id: shipments.id,
      awb: shipments.awb,
      carrierId: shipments.carrierId,
      zone: shipments.zone,
      appliedWeightGrams: shipments.appliedWeightGrams,
      freightPaise: shipments.freightPaise,
    })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, [...awbs])));
}

export async function findByShipments(
  ex: Executor,
  accountId: string,
  shipmentIds: readonly string[],
): Promise<DiscrepancyRow[]> {
  if (shipmentIds.length === 0) return [];
  return ex
    .select()
    .from(weightDiscrepancies)
    .where(
      and(eq(weightDiscrepancies.accountId, accountId), inArray(weightDiscrepancies.shipmentId, [...shipmentIds])),
    );
}

/** Rows another import inserted meanwhile are skipped (the unique key), so a file sent twice at once opens each once. */
export async function insertDiscrepancies(
  ex: Executor,
  accountId: string,
  values: readonly NewDiscrepancy[],
): Promise<DiscrepancyRow[]> {
  if (values.length === 0) return [];
  return ex
    .insert(weightDiscrepancies)
    .values(values.map((v) => ({ ...v, accountId })))
    .onConflictDoNothing()
    .returning();
}

export async function findDiscrepancy(
  ex: Executor,
  accountId: string,
  id: string,
  lock = false,
): Promise<DiscrepancyRow | undefined> {
  const query = ex
    .select()
    .from(weightDiscrepancies)
    .where(and(eq(weightDiscrepancies.accountId, accountId), eq(weightDiscrepancies.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateDiscrepancy(
  ex: Executor,
  accountId: string,
  id: string,
  values: Partial<Pick<DiscrepancyRow, 'state' | 'settledBy' | 'settledAt' | 'comment' | 'disputedAt' | 'resolution'>>,
): Promise<DiscrepancyRow> {
  const [row] = await ex
    .update(weightDiscrepancies)
    .set(values)
    .where(and(eq(weightDiscrepancies.accountId, accountId), eq(weightDiscrepancies.id, id)))
    .returning();
  return row!;
}

export async function insertEvidence(
  ex: Executor,
  accountId: string,
  discrepancyId: string,
  images: readonly { contentType: string; sha256: string; bytes: Buffer }[],
): Promise<void> {
  if (images.length === 0) return;
  await ex
    .insert(weightDisputeEvidence)
    .values(images.map((image, i) => ({ ...image, accountId, discrepancyId, position: i + 1 })));
}

/** Each discrepancy's evidence, without the bytes. */
export async function evidenceOf(
  ex: Executor,
  accountId: string,
  discrepancyIds: readonly string[],
): Promise<Map<string, EvidenceMeta[]>> {
  const found = new Map<string, EvidenceMeta[]>();
  if (discrepancyIds.length === 0) return found;
  const rows = await ex
    .select({
      discrepancyId: weightDisputeEvidence.discrepancyId,
      position: weightDisputeEvidence.position,
      contentType: weightDisputeEvidence.contentType,
      sha256: weightDisputeEvidence.sha256,
      size: sql<number>`octet_length(${weightDisputeEvidence.bytes})`.mapWith(Number),
    })
    .from(weightDisputeEvidence)
    .where(
      and(
        eq(weightDisputeEvidence.accountId, accountId),
        inArray(weightDisputeEvidence.discrepancyId, [...discrepancyIds]),
      ),
    )
    .orderBy(weightDisputeEvidence.position);
  for (const { discrepancyId, ...meta } of rows) found.set(discrepancyId, [...(found.get(discrepancyId) ?? []), meta]);
  return found;
}

export async function evidenceImage(ex: Executor, accountId: string, discrepancyId: string, position: number) {
  const [row] = await ex
    .select({
      contentType: weightDisputeEvidence.contentType,
      sha256: weightDisputeEvidence.sha256,
      bytes: weightDisputeEvidence.bytes,
    })
    .from(weightDisputeEvidence)
    .where(
      and(
        eq(weightDisputeEvidence.accountId, accountId),
        eq(weightDisputeEvidence.discrepancyId, discrepancyId),
        eq(weightDisputeEvidence.position, position),
      ),
    );
  return row;
}

/**
 * Open discrepancies whose window has run out, of every account, locked for the sweeper's
 * transaction; SKIP LOCKED lets another process's sweeper take the next ones instead of waiting.
 */
export async function lockDueOpen(ex: Executor, now: Date, limit: number): Promise<DiscrepancyRow[]> {
  return ex
    .select()
    .from(weightDiscrepancies)
    .where(and(eq(weightDiscrepancies.state, 'open'), lte(weightDiscrepancies.dueAt, now)))
    .orderBy(weightDiscrepancies.dueAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

export interface DiscrepancyFilters {
  states?: readonly string[];
  carrierIds?: readonly string[];
  openedFrom?: Date;
  openedBefore?: Date;
  /** A store-limited credential's stores: the others' shipments' discrepancies are left out. */
  storeIds?: readonly string[];
  /** The last row of the previous page: newest first, then by id. */
  after?: { openedAt: Date; id: string };
}

export async function listDiscrepancies(
  ex: Executor,
  accountId: string,
  filters: DiscrepancyFilters,
  limit: number,
): Promise<DiscrepancyRow[]> {
  const t = weightDiscrepancies;
  const { after } = filters;
  return ex
    .select()
    .from(t)
    .where(
      and(
        eq(t.accountId, accountId),
        filters.states?.length ? inArray(t.state, [...filters.states]) : undefined,
        filters.carrierIds?.length ? inArray(t.carrierId, [...filters.carrierIds]) : undefined,
        filters.openedFrom ? gte(t.openedAt, filters.openedFrom) : undefined,
        filters.openedBefore ? lt(t.openedAt, filters.openedBefore) : undefined,
        filters.storeIds
          ? inArray(
              t.shipmentId,
              ex
                .select({ id: shipments.id })
                .from(shipments)
                .where(and(eq(shipments.accountId, accountId), inArray(shipments.storeId, [...filters.storeIds]))),
            )
          : undefined,
        after ? or(lt(t.openedAt, after.openedAt), and(eq(t.openedAt, after.openedAt), lt(t.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(t.openedAt), desc(t.id))
    .limit(limit);
}
