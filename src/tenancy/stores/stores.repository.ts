import { setImmediate } from 'node:timers/promises';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { builtOnce, type Executor } from '../../base/db/client.js';
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
// Built once (builtOnce): a booking that names its store reads it by name.
const storeByName = builtOnce((db) =>
  db
    .select()
    .from(stores)
    .where(
      and(
        eq(stores.accountId, sql.placeholder('accountId')),
        sql`lower(${stores.storeName}) = lower(${sql.placeholder('storeName')})`,
      ),
    )
    .prepare('store_by_name'),
);

export async function findStoreByName(
  db: Executor,
  accountId: string,
  storeName: string,
): Promise<StoreRow | undefined> {
  const [row] = await storeByName(db).execute({ accountId, storeName });
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
  values: Partial<
    Pick<
      StoreRow,
      | 'storeName'
      | 'brandName'
      | 'channel'
      | 'status'
      | 'logoSha256'
      | 'supportEmail'
      | 'supportPhone'
      | 'notifyEvents'
      | 'language'
      | 'updatedAt'
    >
  >,
): Promise<StoreRow | undefined> {
  const [row] = await db
    .update(stores)
    .set(values)
    .where(and(eq(stores.accountId, accountId), eq(stores.id, storeId)))
    .returning();
  return row;
}

/** The seller's invoice details (invoice-details.service.ts), set together. */
export async function setInvoiceDetails(
  db: Executor,
  accountId: string,
  storeId: string,
  // Not the store's updated_at: the store as its routes answer it is unchanged.
  values: Pick<StoreRow, 'invoiceLegalName' | 'invoiceGstin' | 'invoiceAddress' | 'invoicePrefix'>,
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
 * Keeps the label copy of a logo uploaded before every upload got one, so it is made once; an
 * empty copy records that none can be made (over the pixel limits, or damaged). Only onto the logo
 * it was made from (its sha256): a logo replaced meanwhile keeps its own.
 */
export async function saveLabelPng(db: Executor, storeId: string, sha256: string, png: Buffer): Promise<void> {
  await db
    .update(storeLogos)
    .set({ labelPng: bytea(png) })
    .where(and(eq(storeLogos.storeId, storeId), eq(storeLogos.sha256, sha256), isNull(storeLogos.labelPng)));
}

/**
 * One query's share of a stored logo. PGlite runs each query on the event loop, and answering a
 * megabyte of bytea held it for a second on a busy machine: read in slices, as hex (decoded
 * natively), with a turn of the event loop between them (PGlite's answers resolve without one), so
 * other requests are served meanwhile.
 */
const SLICE_BYTES = 64 * 1024;

/** A stored logo's original bytes, or null if the store's logo is no longer the one named by `sha256`. */
export async function readLogoBytes(db: Executor, storeId: string, sha256: string): Promise<Buffer | null> {
  const slices: Buffer[] = [];
  for (let start = 0; ; start += SLICE_BYTES) {
    const [row] = await db
      .select({
        hex: sql<string>`encode(substring(${storeLogos.bytes} from ${start + 1} for ${SLICE_BYTES}), 'hex')`,
        length: sql<number>`length(${storeLogos.bytes})`,
      })
      .from(storeLogos)
      .where(and(eq(storeLogos.storeId, storeId), eq(storeLogos.sha256, sha256)));
    if (!row) return null;
    slices.push(Buffer.from(row.hex, 'hex'));
    if (start + SLICE_BYTES >= Number(row.length)) return Buffer.concat(slices);
    await setImmediate();
  }
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
