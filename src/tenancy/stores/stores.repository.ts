import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { storeLogos, stores } from '../../base/db/schema.js';
import type { Logo } from './logo.js';

export type StoreRow = typeof stores.$inferSelect;

export async function listActiveStores(db: Executor, accountId: string): Promise<StoreRow[]> {
  return db
    .select()
    .from(stores)
    .where(and(eq(stores.accountId, accountId), eq(stores.status, 'connected')))
    .orderBy(asc(stores.createdAt), asc(stores.id));
}

export async function findStore(db: Executor, accountId: string, storeId: string): Promise<StoreRow | undefined> {
  const [row] = await db
    .select()
    .from(stores)
    .where(and(eq(stores.accountId, accountId), eq(stores.id, storeId)));
  return row;
}

/** Case-insensitive, as store names are unique ignoring case. */
export async function findStoreByName(db: Executor, accountId: string, storeName: string): Promise<StoreRow | undefined> {
  const [row] = await db
    .select()
    .from(stores)
    .where(and(eq(stores.accountId, accountId), sql`lower(${stores.storeName}) = lower(${storeName})`));
  return row;
}

export async function insertStore(
  db: Executor,
  accountId: string,
  values: Omit<typeof stores.$inferInsert, 'accountId'>,
): Promise<StoreRow> {
  const [row] = await db
    .insert(stores)
    .values({ ...values, accountId })
    .returning();
  return row!;
}

export async function updateStore(
  db: Executor,
  accountId: string,
  storeId: string,
  values: Partial<Pick<StoreRow, 'storeName' | 'brandName' | 'status' | 'logoSha256' | 'supportEmail' | 'supportPhone' | 'notifyEvents' | 'updatedAt'>>,
): Promise<StoreRow | undefined> {
  const [row] = await db
    .update(stores)
    .set(values)
    .where(and(eq(stores.accountId, accountId), eq(stores.id, storeId)))
    .returning();
  return row;
}

/**
 * Bytes travel as hex text that the database decodes: PGlite's own bytea parameter encoding walks a
 * buffer value by value, and 50 logos of 1.9 MB at once took it a minute of CPU and half a
 * gigabyte of garbage; hex text is encoded natively and passed as one string.
 */
const bytea = (bytes: Buffer) => sql<Buffer>`decode(${bytes.toString('hex')}, 'hex')`;

export async function saveLogo(db: Executor, accountId: string, storeId: string, logo: Logo): Promise<void> {
  const values = {
    contentType: logo.contentType,
    sha256: logo.sha256,
    bytes: bytea(logo.bytes),
    labelPng: logo.labelPng ? bytea(logo.labelPng) : logo.labelPng,
  };
  await db
    .insert(storeLogos)
    .values({ storeId, accountId, ...values })
    .onConflictDoUpdate({ target: storeLogos.storeId, set: values });
}

/**
 * Keeps the label PNG of a logo uploaded before they were made at upload, so it is converted once.
 * Only onto the logo it was made from (its sha256): a logo replaced meanwhile keeps its own.
 */
export async function saveLabelPng(db: Executor, storeId: string, sha256: string, png: Buffer): Promise<void> {
  await db
    .update(storeLogos)
    .set({ labelPng: png })
    .where(and(eq(storeLogos.storeId, storeId), eq(storeLogos.sha256, sha256), isNull(storeLogos.labelPng)));
}

export async function deleteLogo(db: Executor, accountId: string, storeId: string): Promise<void> {
  await db.delete(storeLogos).where(and(eq(storeLogos.accountId, accountId), eq(storeLogos.storeId, storeId)));
}

/**
 * Logos are public (customers' mail clients fetch them), so this lookup is by store id alone;
 * the id is a random UUID that only the account and its customers' messages carry.
 */
export async function findPublicLogo(db: Executor, storeId: string) {
  const [row] = await db
    .select({ contentType: storeLogos.contentType, sha256: storeLogos.sha256, bytes: storeLogos.bytes })
    .from(storeLogos)
    .where(eq(storeLogos.storeId, storeId));
  return row;
}
