import { and, eq } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { courierCredentials } from '../base/db/schema.js';

export interface StoredCredentials {
  connector: string;
  sealed: string;
  fields: string[];
  updatedAt: Date;
}

export async function findCredentials(
  db: Executor,
  accountId: string,
  connector: string,
): Promise<StoredCredentials | undefined> {
  const [row] = await db
    .select({
      connector: courierCredentials.connector,
      sealed: courierCredentials.sealed,
      fields: courierCredentials.fields,
      updatedAt: courierCredentials.updatedAt,
    })
    .from(courierCredentials)
    .where(and(eq(courierCredentials.accountId, accountId), eq(courierCredentials.connector, connector)));
  return row;
}

export async function listCredentials(db: Executor, accountId: string): Promise<StoredCredentials[]> {
  return db
    .select({
      connector: courierCredentials.connector,
      sealed: courierCredentials.sealed,
      fields: courierCredentials.fields,
      updatedAt: courierCredentials.updatedAt,
    })
    .from(courierCredentials)
    .where(eq(courierCredentials.accountId, accountId));
}

/** Which account holds credentials for which connector, and since when: what a process compares its own copy with. */
export async function listAllVersions(
  db: Executor,
): Promise<{ accountId: string; connector: string; updatedAt: Date }[]> {
  return db
    .select({
      accountId: courierCredentials.accountId,
      connector: courierCredentials.connector,
      updatedAt: courierCredentials.updatedAt,
    })
    .from(courierCredentials);
}

export async function saveCredentials(db: Executor, accountId: string, row: StoredCredentials): Promise<void> {
  await db
    .insert(courierCredentials)
    .values({ accountId, ...row })
    .onConflictDoUpdate({
      target: [courierCredentials.accountId, courierCredentials.connector],
      set: { sealed: row.sealed, fields: row.fields, updatedAt: row.updatedAt },
    });
}

/** Whether there was a row to delete. */
export async function deleteCredentials(db: Executor, accountId: string, connector: string): Promise<boolean> {
  const deleted = await db
    .delete(courierCredentials)
    .where(and(eq(courierCredentials.accountId, accountId), eq(courierCredentials.connector, connector)))
    .returning({ connector: courierCredentials.connector });
  return deleted.length > 0;
}
